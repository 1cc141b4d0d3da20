// The commands' options, as yargs builders (kept apart from main() so each stays short).
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { RunArgs } from './run-command.js';
import type { TestArgs } from './test-command.js';
import { listOption, numberOption } from './options.js';
import { addViewOptions, viewArgs } from './views-output.js';

export function runOptions(y: Argv) {
  return addViewOptions(y)
    .positional('scenario', { type: 'string', demandOption: true, describe: 'path to a scenario YAML file' })
    .option('seed', { type: 'string', coerce: numberOption('seed', { int: true }), describe: 'seed (overrides spec.seed)' })
    .option('until', { type: 'string', describe: 'virtual end time, a Go duration (overrides spec.until)' })
    .option('status-manager', { choices: ['classic', 'transitional', 'current'] as const, describe: 'status manager generation (overrides spec.kubelet.statusManager)' })
    .option('trace', { type: 'string', describe: 'write the trace as JSON Lines to FILE (whole or not at all)' })
    .option('format', { choices: ['pretty', 'json', 'mermaid'] as const, default: 'pretty' as const, describe: 'output format (mermaid: a sequence diagram)' })
    .option('stats', { type: 'boolean', default: false, describe: 'print events, wall time, virtual seconds per wall second, peak memory to stderr' })
    .option('verbose', { alias: 'v', type: 'boolean', default: false, describe: 'also show the kubelet\'s verbose (V-level) log lines' })
    .option('max-events', { type: 'string', coerce: numberOption('max-events', { int: true, min: 1 }), describe: 'stop a runaway run after this many events (default 50,000,000)' })
    .option('choices', { type: 'string', describe: 'drive the run from the choices in FILE (JSON or JSON Lines; the seed decides past its end)' })
    .option('record-choices', { type: 'string', describe: 'write every choice the run makes to FILE as JSON Lines (whole or not at all)' })
    .option('ties', { type: 'boolean', default: false, describe: 'make ties between same-instant events choice points (in insertion order unless --choices orders them)' })
    .option('random-ties', { type: 'boolean', default: false, describe: 'the same, with ties drawn from the seed unless --choices orders them' });
}

export function testOptions(y: Argv) {
  return y
    .positional('paths', { type: 'string', array: true, describe: 'scenario files or folders (searched recursively; folders named fixtures or bad are skipped)' })
    .option('tag', { type: 'string', coerce: listOption, describe: 'only scenarios with this tag (--tag a --tag b, or --tag a,b: any of them)' })
    .option('grep', { type: 'string', describe: 'only scenarios whose name or path matches this regular expression' })
    .option('shard', { type: 'string', describe: 'i/n: run the i-th of n disjoint parts of the sorted list' })
    .option('seeds', { type: 'string', coerce: numberOption('seeds', { int: true, min: 1 }), describe: 'run each scenario under N consecutive seeds' })
    .option('seed', { type: 'string', coerce: numberOption('seed', { int: true }), describe: 'first seed (default: each scenario\'s spec.seed)' })
    .option('status-manager', { choices: ['classic', 'transitional', 'current'] as const, describe: 'run every scenario under this generation' })
    .option('jobs', { alias: 'j', type: 'string', coerce: numberOption('jobs', { int: true, min: 1 }), describe: 'worker threads (default min(CPUs, 4)); 1 runs in-process' })
    .option('reporter', { choices: ['pretty', 'junit', 'json'] as const, default: 'pretty' as const, describe: 'report format' })
    .option('output', { alias: 'o', type: 'string', describe: 'write the junit/json report to FILE (whole or not at all)' })
    .option('update', { type: 'boolean', default: false, describe: 'write or rewrite the golden files' })
    .option('ci', { type: 'boolean', default: false, describe: 'a missing golden file fails its scenario' })
    .option('bail', { type: 'boolean', default: false, describe: 'stop after the first failure' })
    .option('timeout', { type: 'string', coerce: numberOption('timeout', { min: 0 }), describe: 'wall-clock seconds per case before it fails (cases then run on worker threads, even with -j 1)' })
    .option('max-events', { type: 'string', coerce: numberOption('max-events', { int: true, min: 1 }), describe: 'stop a runaway run after this many events' })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'show failures and the summary only' })
    .option('sweep', { type: 'string', describe: "FIELD=V1,V2,...: each scenario once per value (e.g. 'spec.kubelet.apiQPS=5,10,50'), reported as a table" });
}

export function replayOptions(y: Argv) {
  return y
    .positional('trace', { type: 'string', demandOption: true, describe: 'a trace written by kss run --trace' })
    .positional('scenario', { type: 'string', describe: 'the scenario file (default: found by the header\'s file name beside the trace or here, checked by its sha256)' })
    .option('max-events', { type: 'string', coerce: numberOption('max-events', { int: true, min: 1 }), describe: 'stop a runaway run after this many events' });
}

type Parsed<F extends (y: Argv) => Argv<unknown>> = ArgumentsCamelCase<ReturnType<F> extends Argv<infer T> ? T : never>;

export function runArgs(a: Parsed<typeof runOptions>): RunArgs {
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

export function testArgs(a: Parsed<typeof testOptions>): TestArgs {
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
