// The CLI on this process: main() on its argv, its streams and cwd, the exit code set when main
// settles. bin.ts calls cli() from the bundle (kss.cjs, see bundle-loader.ts) or from this module.
import { main } from './main.js';
import { homedir } from 'node:os';
import { scenarioCacheOf, wantColor } from './io.js';

export { main };

/** `build`: what identifies this kss (the bundle's hash), for the scenario cache; without it, none. */
export function cli(opts: { build?: string } = {}): void {
  // A reader that goes away (`kss run x.yaml | head`) is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }

  const color = wantColor(process.env, process.stdout.isTTY === true);
  main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    color,
    cwd: process.cwd(),
    scenarioCache: scenarioCacheOf(process.env, opts.build, homedir()),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`kss: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 3;
    },
  );
}
