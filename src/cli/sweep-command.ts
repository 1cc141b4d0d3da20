// `kss test --sweep FIELD=V1,V2,...`: each scenario once per value, reported as a table
// (testing/sweep.ts). Exit 0 when every run passes, 1 when one fails, 2 on bad input.
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import { parseSweep, runSweep, sweepTable } from '../testing/sweep.js';

export interface SweepArgs {
  sweep: string;
  paths: string[];
  seed?: number;
  maxEvents?: number;
}

export function sweepCommand(args: SweepArgs, io: CliIO): number {
  const spec = parseSweep(args.sweep);
  if (typeof spec === 'string') {
    io.stderr(`${spec}\n`);
    return EXIT_USAGE;
  }
  const r = runSweep(args.paths, spec, { cwd: io.cwd, seed: args.seed, maxEvents: args.maxEvents });
  if (!r.ok) {
    for (const i of r.issues) io.stderr(`${i.file}:${i.line}:${i.col}: error ${i.code} at ${i.path} (with ${spec.path.join('.')} set by --sweep)\n  ${i.message}\n`);
    return EXIT_USAGE;
  }
  io.stdout(sweepTable(r));
  const runs = r.rows.length * spec.values.length;
  const failed = r.rows.reduce((n, row) => n + row.cells.filter((c) => c.verdict === 'fail').length, 0);
  io.stdout(`${runs} run(s): ${runs - failed} passed, ${failed} failed\n`);
  return failed > 0 ? EXIT_FAIL : EXIT_PASS;
}
