// The kss command line. `main(argv, io)` is testable in-process; bin.ts wires it to the process.
import yargs from 'yargs';
import { EXIT_USAGE, type CliIO } from './io.js';
import { normalizeArgv, numberOption } from './options.js';
import { diffArgs, diffOptions, exploreArgsOf, exploreBuilder, inspectArgs, inspectOptions, replayOptions, runArgs, runOptions, testArgs, testOptions } from './commands.js';

// Each command's modules are imported when it runs (the option tables above are all `--help`
// and the parse need): a cold `kss --help` loads yargs and these few files only.
/** `--version`, unknown commands, repeated options: settled before yargs (options.ts). */
async function preflight(rawArgv: string[], io: CliIO): Promise<string[] | number> {
  if (rawArgv.length === 1 && (rawArgv[0] === '--version' || rawArgv[0] === '-V')) {
    io.stdout(`${(await import('../world/run.js')).TOOL_VERSION}\n`);
    return 0;
  }
  const norm = normalizeArgv(rawArgv);
  if (norm.ok) return norm.argv;
  io.stderr(`${norm.message}\nrun 'kss --help' for usage\n`);
  return EXIT_USAGE;
}

export async function main(rawArgv: string[], io: CliIO): Promise<number> {
  const argv = await preflight(rawArgv, io);
  if (typeof argv === 'number') return argv;
  let code = 0;
  let usageError: string | undefined;
  const parser = yargs(argv)
    .scriptName('kss')
    .usage('kss <command> [options]\n\nkubelet status simulator: a deterministic simulator of how the kubelet keeps pod status in sync with the apiserver.')
    // (yargs runs a command's handler even after a failed validation: each handler checks usageError)
    .command('run <scenario>', 'run one scenario and show its timeline and verdict', runOptions, async (a) => {
      if (usageError === undefined) code = (await import('./run-command.js')).runCommand(runArgs(a), io);
    })
    .command('test [paths..]', 'run scenarios as a regression suite: expectations, invariants and golden traces (default path: scenarios/)', testOptions, async (a) => {
      if (usageError !== undefined) return;
      if (a.sweep !== undefined) code = (await import('./sweep-command.js')).sweepCommand({ sweep: a.sweep, paths: (a.paths as string[] | undefined) ?? [], seed: a.seed, maxEvents: a['max-events'] }, io);
      else code = await (await import('./test-command.js')).testCommand(testArgs(a), io);
    })
    .command(
      'replay <trace> [scenario]',
      'run a trace file\'s scenario again and require a byte-identical trace',
      replayOptions,
      async (a) => {
        if (usageError !== undefined) return; // (yargs runs the handler after a failed validation)
        code = (await import('./replay-command.js')).replayCommandRun({ trace: a.trace as string, scenario: a.scenario as string | undefined, maxEvents: a['max-events'] }, io);
      },
    )
    .command(
      'validate <scenarios..>',
      'check scenario files without running them',
      (y) => y.positional('scenarios', { type: 'string', array: true, demandOption: true, describe: 'scenario files or folders' }),
      async (a) => {
        if (usageError !== undefined) return; // (yargs runs the handler after a failed validation)
        code = (await import('./validate-command.js')).validateCommand({ scenarios: a.scenarios as string[] }, io);
      },
    )
    .command('inspect <scenario>', 'the world at an instant, as YAML: cache entries, versions sent, status channel, pod workers, runtime, apiserver objects, requests in flight, faults', inspectOptions, async (a) => {
      if (usageError === undefined) code = (await import('./inspect-command.js')).inspectCommand(inspectArgs(a), io);
    })
    .command('diff <inputs..>', 'two runs side by side: a scenario under both generations (or --seeds A,B), or two trace files', diffOptions, async (a) => {
      if (usageError === undefined) code = (await import('./diff-command.js')).diffCommand(diffArgs(a), io);
    })
    .command(
      'schema',
      'print the JSON Schema of the scenario format',
      (y) => y.option('output', { alias: 'o', type: 'string', describe: 'write it to FILE (whole or not at all)' }),
      async (a) => {
        if (usageError !== undefined) return; // (yargs runs the handler after a failed validation)
        code = (await import('./schema-command.js')).schemaCommand({ output: a.output }, io);
      },
    )
    .command('explore <scenario> [dirs..]', 'search a scenario\'s faults for invariant violations and shrink each find (kss explore merge DIR... folds shard results)', exploreBuilder(numberOption), async (a) => {
      if (usageError !== undefined) return; // (yargs runs the handler after a failed validation)
      code = await (await import('./explore-command.js')).exploreCommand(exploreArgsOf(a), io);
    })
    .command('fixes', 'list the upstream fixes a scenario can take back out (spec.kubelet.revertFixes)', (y) => y.option('format', { choices: ['table', 'json'] as const, default: 'table' as const, describe: 'output format' }), async (a) => {
      if (usageError === undefined) code = (await import('./fixes-command.js')).fixesCommand({ format: a.format }, io);
    })
    .epilogue('kss --version prints the version. Each option is given once; --tag alone repeats.')
    .demandCommand(1, 'name a command: run, test, replay, validate, schema, inspect, diff, explore, fixes')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((msg, err) => {
      usageError = msg ?? err?.message ?? 'usage error';
    });
  let helpOut = '';
  await parser.parseAsync(argv, {}, (_err, _argv, output) => {
    helpOut = output;
  });
  if (usageError !== undefined) {
    io.stderr(`${usageError}\nrun 'kss --help' for usage\n`);
    return EXIT_USAGE;
  }
  if (helpOut) io.stdout(helpOut + '\n');
  return code;
}
