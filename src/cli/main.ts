// The kss command line. `main(argv, io)` is testable in-process; bin.ts wires it to the process.
import yargs, { type ArgumentsCamelCase, type Argv } from 'yargs';
import { EXIT_USAGE, type CliIO } from './io.js';
import { runCommand } from './run-command.js';
import { testCommand } from './test-command.js';
import { replayCommandRun } from './replay-command.js';
import { validateCommand } from './validate-command.js';
import { schemaCommand } from './schema-command.js';
import { addViewOptions, viewArgs } from './views-output.js';
import { diffArgs, diffCommand, diffOptions } from './diff-command.js';
import { inspectArgs, inspectCommand, inspectOptions } from './inspect-command.js';

/** A yargs coerce for a numeric option: a finite number (a whole one when `int`), at least `min`;
 *  anything else is a usage error naming the option (yargs hands the thrown error to fail). */
function numberOption(name: string, opts: { int?: boolean; min?: number } = {}): (v: unknown) => number | undefined {
  return (v) => {
    if (v === undefined) return undefined;
    const n = typeof v === 'number' ? v : Number(v);
    const what = `${opts.int ? 'a whole number' : 'a number'}${opts.min !== undefined ? ` ≥ ${opts.min}` : ''}`;
    if (!Number.isFinite(n) || (opts.int && !Number.isInteger(n)) || (opts.min !== undefined && n < opts.min)) {
      const got = typeof v === 'number' && Number.isNaN(v) ? 'something that is not a number' : JSON.stringify(Array.isArray(v) ? v.join(' ') : v);
      throw new Error(`--${name}: expected ${what}, got ${got}`);
    }
    return n;
  };
}

/** `kss run`'s options. */
function runOptions(y: Argv) {
  return addViewOptions(y)
    .positional('scenario', { type: 'string', demandOption: true, describe: 'path to a scenario YAML file' })
    .option('seed', { type: 'number', coerce: numberOption('seed', { int: true }), describe: 'seed (overrides spec.seed)' })
    .option('until', { type: 'string', describe: 'virtual end time, a Go duration (overrides spec.until)' })
    .option('status-manager', { choices: ['classic', 'transitional', 'current'] as const, describe: 'status manager generation (overrides spec.kubelet.statusManager)' })
    .option('trace', { type: 'string', describe: 'write the trace as JSON Lines to FILE (whole or not at all)' })
    .option('format', { choices: ['pretty', 'json', 'mermaid'] as const, default: 'pretty' as const, describe: 'output format (mermaid: a sequence diagram)' })
    .option('stats', { type: 'boolean', default: false, describe: 'print events, wall time, virtual seconds per wall second, peak memory to stderr' })
    .option('verbose', { alias: 'v', type: 'boolean', default: false, describe: 'also show the kubelet\'s verbose (V-level) log lines' })
    .option('max-events', { type: 'number', coerce: numberOption('max-events', { int: true, min: 1 }), describe: 'stop a runaway run after this many events (default 50,000,000)' })
    .option('choices', { type: 'string', describe: 'drive the run from the choices in FILE (JSON or JSON Lines; the seed decides past its end)' })
    .option('record-choices', { type: 'string', describe: 'write every choice the run makes to FILE as JSON Lines (whole or not at all)' })
    .option('ties', { type: 'boolean', default: false, describe: 'make ties between same-instant events choice points (in insertion order unless --choices orders them)' })
    .option('random-ties', { type: 'boolean', default: false, describe: 'the same, with ties drawn from the seed unless --choices orders them' });
}

/** `kss test`'s options. */
function testOptions(y: Argv) {
  return y
    .positional('paths', { type: 'string', array: true, describe: 'scenario files or folders (searched recursively; folders named fixtures or bad are skipped)' })
    .option('tag', { type: 'string', array: true, describe: 'only scenarios with this tag (repeatable: any of them)' })
    .option('grep', { type: 'string', describe: 'only scenarios whose name or path matches this regular expression' })
    .option('shard', { type: 'string', describe: 'i/n: run the i-th of n disjoint parts of the sorted list' })
    .option('seeds', { type: 'number', default: 1, coerce: numberOption('seeds', { int: true, min: 1 }), describe: 'run each scenario under N consecutive seeds' })
    .option('seed', { type: 'number', coerce: numberOption('seed', { int: true }), describe: 'first seed (default: each scenario\'s spec.seed)' })
    .option('status-manager', { choices: ['classic', 'transitional', 'current'] as const, describe: 'run every scenario under this generation' })
    .option('jobs', { alias: 'j', type: 'number', coerce: numberOption('jobs', { int: true, min: 1 }), describe: 'worker threads (default min(CPUs, 4)); 1 runs in-process' })
    .option('reporter', { choices: ['pretty', 'junit', 'json'] as const, default: 'pretty' as const, describe: 'report format' })
    .option('output', { alias: 'o', type: 'string', describe: 'write the junit/json report to FILE (whole or not at all)' })
    .option('update', { type: 'boolean', default: false, describe: 'write or rewrite the golden files' })
    .option('ci', { type: 'boolean', default: false, describe: 'a missing golden file fails its scenario' })
    .option('bail', { type: 'boolean', default: false, describe: 'stop after the first failure' })
    .option('timeout', { type: 'number', coerce: numberOption('timeout', { min: 0 }), describe: 'wall-clock seconds per case before it fails (worker mode)' })
    .option('max-events', { type: 'number', coerce: numberOption('max-events', { int: true, min: 1 }), describe: 'stop a runaway run after this many events' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'show failures and the summary only' });
}

/** `kss replay`'s options. */
function replayOptions(y: Argv) {
  return y
    .positional('trace', { type: 'string', demandOption: true, describe: 'a trace written by kss run --trace' })
    .option('max-events', { type: 'number', coerce: numberOption('max-events', { int: true, min: 1 }), describe: 'stop a runaway run after this many events' });
}

type Parsed<F extends (y: Argv) => Argv<unknown>> = ArgumentsCamelCase<ReturnType<F> extends Argv<infer T> ? T : never>;

function runArgs(a: Parsed<typeof runOptions>): Parameters<typeof runCommand>[0] {
  return {
    scenario: a.scenario as string,
    seed: a.seed,
    until: a.until,
    statusManager: a['status-manager'],
    trace: a.trace,
    format: a.format,
    stats: a.stats,
    verbose: a.verbose,
    maxEvents: a['max-events'],
    choices: a.choices,
    recordChoices: a['record-choices'],
    ties: a.ties,
    randomTies: a['random-ties'],
    ...viewArgs(a),
  };
}

function testArgs(a: Parsed<typeof testOptions>): Parameters<typeof testCommand>[0] {
  return {
    paths: (a.paths as string[] | undefined) ?? [],
    tag: a.tag as string[] | undefined,
    grep: a.grep,
    shard: a.shard,
    seeds: a.seeds,
    seed: a.seed,
    statusManager: a['status-manager'],
    jobs: a.jobs,
    reporter: a.reporter,
    output: a.output,
    update: a.update,
    ci: a.ci,
    bail: a.bail,
    timeout: a.timeout,
    maxEvents: a['max-events'],
    verbose: !a.quiet,
  };
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  let code = 0;
  let usageError: string | undefined;
  // (yargs runs a command's handler even after a failed validation: each handler checks usageError)
  const parser = yargs(argv)
    .scriptName('kss')
    .usage('kss <command> [options]\n\nkubelet status simulator: a deterministic simulator of how the kubelet keeps pod status in sync with the apiserver.')
    .command('run <scenario>', 'run one scenario and show its timeline and verdict', runOptions, (a) => {
      if (usageError === undefined) code = runCommand(runArgs(a), io);
    })
    .command('test [paths..]', 'run scenarios as a regression suite: expectations, invariants and golden traces (default path: scenarios/)', testOptions, async (a) => {
      if (usageError === undefined) code = await testCommand(testArgs(a), io);
    })
    .command('replay <trace>', 'run a trace file\'s scenario again and require a byte-identical trace', replayOptions, (a) => {
      if (usageError === undefined) code = replayCommandRun({ trace: a.trace as string, maxEvents: a['max-events'] }, io);
    })
    .command(
      'validate <scenarios..>',
      'check scenario files without running them',
      (y) => y.positional('scenarios', { type: 'string', array: true, demandOption: true, describe: 'scenario files or folders' }),
      (a) => {
        if (usageError === undefined) code = validateCommand({ scenarios: a.scenarios as string[] }, io);
      },
    )
    .command('inspect <scenario>', 'the world at an instant, as YAML: cache entries, versions sent, status channel, pod workers, runtime, apiserver objects, requests in flight, faults', inspectOptions, (a) => {
      if (usageError === undefined) code = inspectCommand(inspectArgs(a), io);
    })
    .command('diff <inputs..>', 'two runs side by side: a scenario under both generations (or --seeds A,B), or two trace files', diffOptions, (a) => {
      if (usageError === undefined) code = diffCommand(diffArgs(a), io);
    })
    .command(
      'schema',
      'print the JSON Schema of the scenario format',
      (y) => y.option('output', { alias: 'o', type: 'string', describe: 'write it to FILE (whole or not at all)' }),
      (a) => {
        if (usageError === undefined) code = schemaCommand({ output: a.output }, io);
      },
    )
    .demandCommand(1, 'name a command: run, test, replay, validate, schema, diff, inspect')
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
