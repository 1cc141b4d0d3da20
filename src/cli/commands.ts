// The commands' options, as yargs builders, and the parsed arguments each handler takes (kept
// apart from main() so each stays short). This module imports only types and the option helpers:
// `kss --help` loads it and yargs, and a command's own modules load only when it runs.
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { Oracle } from '../explore/types.js';
import { DEFAULT_RUNS } from '../explore/defaults.js';
import type { Variant } from '../scenario/types.js';
import type { DiffArgs, ExploreArgs, InspectArgs, RunArgs, TestArgs, ViewArgs } from './args.js';
import { listOption, numberOption } from './options.js';

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


export const ONLY_CATEGORIES = ['status', 'api', 'runtime', 'pleg', 'worker', 'probe', 'fault', 'step', 'log', 'kubelet', 'mirror', 'invariant'] as const;

export function addViewOptions<T>(y: Argv<T>) {
  return y
    .option('pod', { type: 'string', describe: 'only this pod (name or ns/name): the timeline and diagram; the HTML opens filtered to it' })
    .option('from', { type: 'string', describe: 'diagram from this virtual time (a Go duration)' })
    .option('to', { type: 'string', describe: 'diagram up to this virtual time (a Go duration)' })
    .option('only', { type: 'string', describe: `timeline: only these kinds, comma-separated (${ONLY_CATEGORIES.join(',')})` })
    .option('html', { type: 'string', describe: 'write the self-contained HTML timeline to FILE' })
    .option('trace-format', { choices: ['jsonl', 'chrome', 'shiviz'] as const, default: 'jsonl' as const, describe: '--trace as JSON Lines, Chrome trace-event JSON (Perfetto), or a ShiViz log' });
}

export function viewArgs(a: { pod?: string; from?: string; to?: string; only?: string; html?: string; 'trace-format'?: 'jsonl' | 'chrome' | 'shiviz' }): ViewArgs {
  return { pod: a.pod, from: a.from, to: a.to, only: a.only, html: a.html, traceFormat: a['trace-format'] };
}

export function inspectOptions(y: Argv) {
  return y
    .positional('scenario', { type: 'string', demandOption: true, describe: 'path to a scenario YAML file' })
    .option('at', { type: 'string', demandOption: true, describe: 'the instant, a Go duration (after every event at it)' })
    .option('pod', { type: 'string', describe: 'only this pod (name or ns/name)' })
    .option('seed', { type: 'string', describe: 'seed (overrides spec.seed), a whole number' })
    .option('status-manager', { choices: ['classic', 'transitional', 'current'] as const, describe: 'generation (overrides spec.kubelet.statusManager)' });
}

export function inspectArgs(a: ArgumentsCamelCase<{ scenario?: string; at?: string; pod?: string; seed?: string; 'status-manager'?: Variant }>): InspectArgs {
  return { scenario: a.scenario as string, at: a.at, pod: a.pod, seed: a.seed, statusManager: a['status-manager'] };
}

export function diffOptions(y: Argv) {
  return y
    .positional('inputs', { type: 'string', array: true, demandOption: true, describe: 'a scenario file, or two trace files of kss run --trace' })
    .option('seeds', { type: 'string', describe: 'A,B: one generation under two seeds' })
    .option('generations', { type: 'string', describe: 'A,B: the two generations compared (default classic,current; also transitional)' })
    .option('status-manager', { choices: ['classic', 'transitional', 'current'] as const, describe: 'with --seeds: the generation' })
    .option('until', { type: 'string', describe: 'virtual end time, a Go duration' })
    .option('format', { choices: ['text', 'mermaid', 'shiviz', 'html'] as const, default: 'text' as const, describe: 'aligned text, two Mermaid diagrams (Markdown), one ShiViz log of both, or a self-contained HTML page' });
}

export function diffArgs(a: ArgumentsCamelCase<{ inputs?: string[]; seeds?: string; generations?: string; 'status-manager'?: Variant; until?: string; format: DiffArgs['format'] }>): DiffArgs {
  return { inputs: a.inputs as string[], seeds: a.seeds, generations: a.generations, statusManager: a['status-manager'], until: a.until, format: a.format };
}

type NumberOption = (name: string, opts?: { int?: boolean; min?: number }) => (v: unknown) => number | undefined;

/** The options of `kss explore` (main.ts registers the command with this builder). */
export function exploreBuilder(num: NumberOption) {
  return (y: Argv) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'a scenario file (or `merge`, then the shard folders)' })
      .positional('dirs', { type: 'string', array: true, describe: 'with merge: the --out folders of the shards' })
      .option('runs', { type: 'number', coerce: num('runs', { int: true, min: 1 }), describe: `runs to try (default ${DEFAULT_RUNS}); with --shard, of the whole search` })
      .option('time', { type: 'string', describe: 'a wall-clock budget instead of --runs (a Go duration: 30s, 5m)' })
      .option('strategy', { choices: ['random', 'pct', 'exhaustive'] as const, default: 'random' as const, describe: 'search strategy' })
      .option('depth', { type: 'number', coerce: num('depth', { int: true, min: 1 }), describe: 'pct: bug depth d (d−1 priority-change points; default 3)' })
      .option('max-deviations', { type: 'number', coerce: num('max-deviations', { int: true, min: 0 }), describe: 'exhaustive: most choices per run that differ from the default run (default 2)' })
      .option('seed', { type: 'number', coerce: num('seed', { int: true }), describe: 'base seed of the search (default spec.seed)' })
      .option('jobs', { alias: 'j', type: 'number', coerce: num('jobs', { int: true, min: 1 }), describe: 'worker threads (default 1)' })
      .option('shard', { type: 'string', describe: 'i/n: the i-th of n disjoint parts of the search' })
      .option('shard-from-env', { type: 'boolean', default: false, describe: 'the shard from JOB_COMPLETION_INDEX (+ --shard-total or KSS_SHARD_TOTAL) or CI_NODE_INDEX/CI_NODE_TOTAL' })
      .option('shard-total', { type: 'number', coerce: num('shard-total', { int: true, min: 1 }), describe: 'the number of shards, with --shard-from-env and JOB_COMPLETION_INDEX' })
      .option('oracle', { choices: ['invariants', 'expect', 'both'] as const, default: 'invariants' as const, describe: 'what counts as a failure' })
      .option('out', { alias: 'o', type: 'string', describe: 'output folder: report.json, finds/<id>.yaml, traces (default kss-explore)' })
      .option('reporter', { choices: ['pretty', 'json', 'junit'] as const, default: 'pretty' as const, describe: 'report format on stdout' })
      .option('ci', { type: 'boolean', default: false, describe: 'plain periodic progress lines even on a terminal' })
      .option('shrink', { type: 'boolean', default: true, describe: 'shrink each find (--no-shrink: keep it as found)' });
}

export function exploreArgsOf(a: Record<string, unknown>): ExploreArgs {
  return {
    scenario: a.scenario as string,
    dirs: a.dirs as string[] | undefined,
    runs: a.runs as number | undefined,
    time: a.time as string | undefined,
    strategy: a.strategy as ExploreArgs['strategy'],
    depth: a.depth as number | undefined,
    maxDeviations: a['max-deviations'] as number | undefined,
    seed: a.seed as number | undefined,
    jobs: a.jobs as number | undefined,
    shard: a.shard as string | undefined,
    shardFromEnv: a['shard-from-env'] as boolean,
    shardTotal: a['shard-total'] as number | undefined,
    oracle: a.oracle as Oracle,
    out: a.out as string | undefined,
    reporter: a.reporter as ExploreArgs['reporter'],
    ci: a.ci as boolean,
    shrink: a.shrink as boolean,
  };
}
