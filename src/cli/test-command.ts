// `kss test [paths...]`: run a suite of scenarios as a regression test (README "kss test").
//
// Exit codes: 0 every case passed (or none was selected); 1 some case failed — an expectation or
// invariant, a golden mismatch, a missing golden under --ci, a scenario that does not load, a
// crash or a time-out; 2 the command line itself is wrong (unknown flag, bad --shard / --grep /
// --seeds, a path that does not exist, no scenario files at all, --update with --ci, an --output
// that cannot be written). An invalid scenario is a failing test case, not a usage error: the
// suite still runs and reports every other case, and CI can tell "tests failed" (1) from "the
// job is misconfigured" (2).
import { resolve } from 'node:path';
import type { Variant } from '../scenario/types.js';
import { makeChalk } from '../report/pretty.js';
import { isStdoutTarget, prepareOutput, writeFileAtomic } from '../report/atomic.js';
import { runSuite, SuiteUsageError, type SuiteResult } from '../testing/suite.js';
import { suiteJUnit, suiteJson } from '../testing/reports.js';
import type { CaseResult } from '../testing/types.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import type { Reporter, TestArgs } from './args.js';

export type { Reporter, TestArgs };


export const DEFAULT_TEST_PATHS = ['scenarios'];

/** The last line of every `kss test`: exactly `N passed, N failed`, plus `, N skipped` if any. */
export function closingLine(s: Pick<SuiteResult, 'passed' | 'failed' | 'skipped'>): string {
  return `${s.passed} passed, ${s.failed} failed${s.skipped > 0 ? `, ${s.skipped} skipped` : ''}`;
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/** The human lines of one case (pretty reporter). */
export function caseLines(r: CaseResult, color: boolean, verbose = true): string[] {
  const c = makeChalk(color);
  const where = r.seed !== undefined ? c.dim(` (seed ${r.seed}, ${r.variant})`) : '';
  const title = r.caseName === r.file ? r.file : `${r.file} ${c.dim('›')} ${r.caseName}`;
  const out: string[] = [];
  if (r.status === 'pass') {
    if (!verbose) return [];
    out.push(`${c.green('✓')} ${title}${where}`);
  } else if (r.status === 'skipped') {
    if (!verbose) return [];
    out.push(`${c.yellow('-')} ${title}${where} ${c.dim('skipped')}`);
    return out;
  } else {
    out.push(`${c.red('✗')} ${title}${where}${r.invalid ? c.red(' does not load') : ''}`);
    for (const f of r.failures) {
      const colored = f
        .split('\n')
        .map((l) => (/^[-+] |^--- |^\+\+\+ /.test(l) ? (l.startsWith('-') ? c.red(l) : c.green(l)) : /^@@ /.test(l) ? c.cyan(l) : l))
        .join('\n');
      out.push(indent(colored, '    '));
    }
    if (r.replay !== undefined) out.push(`    ${c.dim('replay:')} ${r.replay}`);
  }
  for (const n of r.notes) out.push(`    ${c.dim('note:')} ${n}`);
  return out;
}

/** The junit/json report, to its file or stdout; false when the file could not be written. */
function writeReport(suite: SuiteResult, reporter: 'junit' | 'json', outPath: string | undefined, shown: string | undefined, io: CliIO, say: (s: string) => void): boolean {
  const text = reporter === 'junit' ? suiteJUnit(suite) : [suiteJson(suite)];
  if (outPath === undefined) {
    for (const chunk of text) io.stdout(chunk);
    return true;
  }
  try {
    writeFileAtomic(outPath, text, io.stdout);
    if (!isStdoutTarget(outPath)) say(`wrote ${reporter} report ${shown}`);
    return true;
  } catch (err) {
    io.stderr(`error WRITE_FAILED at --output: could not write ${shown}: ${(err as Error).message}\n`);
    return false;
  }
}

export async function testCommand(args: TestArgs, io: CliIO): Promise<number> {
  const reporter = args.reporter ?? 'pretty';
  const usage = (msg: string) => {
    io.stderr(`${msg}\nrun 'kss test --help' for usage\n`);
    return EXIT_USAGE;
  };
  if (args.update && args.ci) return usage('--update and --ci do not go together: --ci checks goldens, --update rewrites them');
  if (args.output !== undefined && reporter === 'pretty') return usage('--output needs --reporter junit or json (the pretty report goes to the terminal)');
  if (args.jobs !== undefined && (!Number.isSafeInteger(args.jobs) || args.jobs < 1)) return usage(`--jobs: expected a whole number ≥ 1, got ${args.jobs}`);
  if (args.timeout !== undefined && !(args.timeout >= 0)) return usage(`--timeout: expected seconds ≥ 0, got ${args.timeout}`);
  if (args.maxEvents !== undefined && !(args.maxEvents >= 1)) return usage(`--max-events: expected a number ≥ 1, got ${args.maxEvents}`);
  // A machine-readable report on stdout keeps stdout to itself: people read stderr then.
  const human = reporter !== 'pretty' && (args.output === undefined || isStdoutTarget(args.output)) ? io.stderr : io.stdout;
  const color = io.color && human === io.stdout;
  const verbose = args.verbose ?? true;
  const paths = args.paths.length > 0 ? args.paths : DEFAULT_TEST_PATHS;
  const outPath = args.output === undefined || isStdoutTarget(args.output) ? args.output : resolve(io.cwd, args.output);
  if (outPath !== undefined) {
    try {
      prepareOutput(outPath); // before the suite: a wrong path must not cost a whole run
    } catch (err) {
      io.stderr(`error WRITE_FAILED at --output: cannot write ${args.output}: ${(err as Error).message}\n`);
      return EXIT_USAGE;
    }
  }

  let suite: SuiteResult;
  try {
    suite = await runSuite(paths, {
      cwd: io.cwd,
      jobs: args.jobs,
      tags: args.tag,
      grep: args.grep,
      shard: args.shard,
      seeds: args.seeds,
      seed: args.seed,
      variant: args.statusManager,
      golden: args.update ? 'update' : 'check',
      ci: args.ci,
      bail: args.bail,
      timeoutMs: args.timeout !== undefined ? Math.round(args.timeout * 1000) : undefined,
      maxEvents: args.maxEvents,
      onResult: (r) => {
        for (const l of caseLines(r, color, verbose)) human(l + '\n');
      },
    });
  } catch (err) {
    if (err instanceof SuiteUsageError) return usage(err.message);
    throw err;
  }
  const c = makeChalk(color);
  for (const n of suite.notes) human(`${c.dim('note:')} ${n}\n`);
  if (suite.results.length === 0) human(`${c.dim('note:')} no scenario matched the filters\n`);
  const files = new Set(suite.results.map((r) => r.file)).size;
  // How the cases ran, and why when the suite chose (no -j given).
  const how = (suite.mode === 'workers' ? `${suite.jobs} worker thread${suite.jobs === 1 ? '' : 's'}` : 'in-process') + (suite.chosen !== undefined ? `, chosen for ${suite.chosen}` : '');
  human(c.dim(`\n${suite.results.length} case(s) from ${files} file(s) in ${(suite.wallMs / 1000).toFixed(2)}s (${how})`) + '\n');

  const writeFailed = reporter !== 'pretty' && !writeReport(suite, reporter, outPath, args.output, io, (t) => human(c.dim(t) + '\n'));
  // Plain, never coloured: scripts look for exactly this line.
  human(closingLine(suite) + '\n');
  if (writeFailed) return EXIT_USAGE;
  return suite.failed > 0 ? EXIT_FAIL : EXIT_PASS;
}
