// `kss run <scenario>`: run one scenario and show its timeline and verdict.
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadScenarioFileCached } from '../scenario/index.js';
import { renderLoadIssues } from '../testing/load.js';
import { formatDuration, parseDuration } from '../model/time.js';
import { podStartup } from '../world/pod-startup.js';
import { isClusterRun, type LoadSummary } from '../world/load-report.js';
import { runScenario, traceHeader, traceSummary, TOOL_VERSION, type RunResult } from '../world/run.js';
import type { ChoiceOptions } from '../engine/index.js';
import { ChoicesFileError, choicesLines, readChoicesFile, type ChoicesFile } from './choices-file.js';
import { failedMarks, parseViewArgs, printMermaid, traceFileText, writeHtml, type ViewArgs } from './views-output.js';
import { prettyLines, makeChalk, formatT } from '../report/pretty.js';
import { isStdoutTarget, OutputError, prepareOutput, writeFileAtomic } from '../report/atomic.js';
import { TraceStream } from '../report/trace-stream.js';
import { checkScenarioSource, sourceErrorText } from '../testing/source.js';
import { replayCommandFor } from '../testing/replay-line.js';
import { echo } from './options.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import type { Variant } from '../scenario/types.js';
import type { RunArgs } from './args.js';

export type { RunArgs };

/** The command that reproduces a run: the options that changed it, and no others. */
export function replayCommand(r: RunResult, given: { untilMs?: number; maxEvents?: number } = {}): string {
  const line = replayCommandFor(r.scenario.file, { seed: r.seed, variant: r.variant, untilMs: given.untilMs, maxEvents: given.maxEvents });
  const d = r.driven;
  if (d === undefined) return line;
  return `${line}${d.source !== undefined ? ` --choices ${d.source}` : ''}${d.ties === 'random' ? ' --random-ties' : d.ties ? ' --ties' : ''}`;
}

/** The choices options of `kss run`, or an exit code after a bad choices file. */
function choiceOptions(args: RunArgs, io: CliIO): { choices?: ChoiceOptions; seed?: number; variant?: Variant } | number {
  if (args.choices === undefined && args.recordChoices === undefined && !args.ties && !args.randomTies) return {};
  let file: ChoicesFile | undefined;
  if (args.choices !== undefined) {
    try {
      file = readChoicesFile(resolve(io.cwd, args.choices), args.choices);
    } catch (err) {
      if (!(err instanceof ChoicesFileError)) throw err;
      io.stderr(err.message + '\n');
      return EXIT_USAGE;
    }
  }
  const ties = args.randomTies ? 'random' : args.ties ? true : (file?.ties ?? false);
  const choices: ChoiceOptions = { record: args.recordChoices !== undefined, ties };
  if (file !== undefined) {
    choices.replay = file.steps;
    choices.source = args.choices;
  }
  return { choices, seed: file?.seed, variant: file?.variant };
}

/** --record-choices: the run's choice log, whole or not at all; an exit code when it cannot be written. */
function writeChoices(r: RunResult, args: RunArgs, io: CliIO): number | undefined {
  if (args.recordChoices === undefined || r.choices === undefined) return undefined;
  const meta = { version: TOOL_VERSION, scenario: r.scenario.name, seed: r.seed, variant: r.variant, ties: r.driven?.ties ?? false };
  try {
    writeFileAtomic(resolve(io.cwd, args.recordChoices), choicesLines(meta, r.choices));
  } catch (err) {
    io.stderr(`error WRITE_FAILED at --record-choices: could not write ${args.recordChoices}: ${(err as Error).message}\n`);
    return EXIT_USAGE;
  }
  return undefined;
}

export function* traceLines(r: RunResult): Generator<string> {
  yield JSON.stringify(traceHeader(r)) + '\n';
  for (const rec of r.trace) yield JSON.stringify(rec) + '\n';
  yield JSON.stringify(traceSummary(r)) + '\n';
}

export function verdictText(r: RunResult, color: boolean, replay: string = replayCommand(r)): string[] {
  const c = makeChalk(color);
  const out: string[] = [];
  for (const a of r.assertions) {
    const mark = a.ok ? c.green('✓') : c.red('✗');
    out.push(`${mark} expect[${a.index}] ${a.kind} (line ${a.line}): ${a.message}`);
  }
  for (const e of r.stepErrors) out.push(`${c.red('✗')} timeline[${e.index}] (line ${e.line}): ${e.message}`);
  for (const v of r.unexpectedViolations) {
    out.push(`${c.red('✗')} invariant ${String(v.invariant)} violated${v.pod ? ' for ' + v.pod : ''}${typeof v.node === 'string' ? ' on ' + v.node : ''} at ${formatT(v.t).trim()} (event ${String(v.event ?? v.seq)}, seed ${r.seed}): ${String(v.message ?? '')}`);
  }
  if (r.end === 'runaway') out.push(`${c.red('✗')} ${r.endMessage}`);
  const verdict = r.verdict === 'pass' ? c.green.bold('PASS') : c.red.bold('FAIL');
  out.push(`${verdict} ${r.scenario.name} (seed ${r.seed}, ${r.variant}, ${r.events} events, ${formatT(r.untilMs).trim()} virtual)`);
  if (r.load !== undefined) out.push(loadLine(r.load));
  if (r.verdict === 'fail') out.push(`replay: ${replay}`);
  return out;
}

/** A cluster run's request storm, in one line. */
export function loadLine(l: LoadSummary): string {
  const conv = l.convergeMs === null ? 'not converged at the end' : `converged ${formatDuration(l.convergeMs)} after the last step (at ${formatDuration(l.convergedAtMs!)})`;
  const levels = Object.entries(l.rejectedByLevel).map(([k, v]) => `${k} ${v}`).join(', ');
  return `load: ${l.served} requests served, peak ${l.peakPerSecond}/s at ${formatDuration(l.peakAtMs)}${l.lastStepMs > 0 ? ` (${l.peakSinceLastStep}/s from the last step, ${formatDuration(l.lastStepMs)})` : ''}; ${l.tooManyRequests} × 429${levels ? ` (${levels})` : ''}, ${l.retries} retries, ${l.timeouts} timeouts; ${conv}`;
}

/** --until as ms, or why it is refused. */
export function untilOption(text: string): number | string {
  const ms = parseDuration(text);
  if (ms === undefined) return `error BAD_DURATION at --until: expected a Go duration such as 90s or 2m, got ${echo(text)}`;
  if (ms < 0 || text.trim().startsWith('-')) return `error BAD_DURATION at --until: the end time must not be negative, got ${echo(text)}`;
  if (!Number.isSafeInteger(ms)) return `error BAD_DURATION at --until: ${echo(text)} is too long (at most ${Number.MAX_SAFE_INTEGER} ms)`;
  return ms;
}

export function runCommand(args: RunArgs, io: CliIO): number {
  if (typeof args.scenario !== 'string' || args.scenario === '') {
    io.stderr(`error USAGE: kss run needs a scenario file: kss run <scenario.yaml>\n`);
    return EXIT_USAGE;
  }
  const path = resolve(io.cwd, args.scenario);
  const src = checkScenarioSource(path, args.scenario);
  if (!src.ok) {
    io.stderr(sourceErrorText(args.scenario, src) + '\n');
    return EXIT_USAGE;
  }
  let untilMs: number | undefined;
  if (args.until !== undefined) {
    const u = untilOption(args.until);
    if (typeof u === 'string') {
      io.stderr(u + '\n');
      return EXIT_USAGE;
    }
    untilMs = u;
  }
  const tracePath = args.trace === undefined || isStdoutTarget(args.trace) ? args.trace : resolve(io.cwd, args.trace);
  if (tracePath !== undefined) {
    try {
      prepareOutput(tracePath); // before the run: a wrong path must not cost a whole run
    } catch (err) {
      io.stderr(`error WRITE_FAILED at --trace: cannot write ${args.trace}: ${(err as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  const loaded = loadScenarioFileCached(path, io.scenarioCache);
  if (!loaded.ok) {
    io.stderr(renderLoadIssues(loaded, path, args.scenario) + '\n');
    return EXIT_USAGE;
  }
  if (loaded.warnings?.length) io.stderr(renderLoadIssues(loaded, path, args.scenario) + '\n');
  const scenario = { ...loaded.scenario, file: args.scenario };
  const driven = choiceOptions(args, io);
  if (typeof driven === 'number') return driven;
  const views = parseViewArgs(args);
  if (typeof views === 'string') {
    io.stderr(views + '\n');
    return EXIT_USAGE;
  }
  const t0 = performance.now(); // wall-clock-ok: --stats only
  const mem0 = process.memoryUsage().rss;
  const out = traceOutput(args, tracePath, driven.choices !== undefined, io, isClusterRun(scenario));
  if (typeof out === 'number') return out;
  const r = runStreaming(() => runScenario(scenario, { seed: args.seed ?? driven.seed, untilMs, variant: args.statusManager ?? driven.variant, maxEvents: args.maxEvents, choices: driven.choices, load: isClusterRun(scenario), ...out }), out.traceSink);
  const wallMs = performance.now() - t0; // wall-clock-ok: --stats only
  const choicesFailed = writeChoices(r, args, io);
  if (choicesFailed !== undefined) return choicesFailed;
  // With --trace - (or /dev/stdout), the trace is stdout's: the human report goes to stderr.
  const human = isStdoutTarget(tracePath) ? io.stderr : io.stdout;
  if (tracePath !== undefined) {
    try {
      if (out.traceSink !== undefined) out.traceSink.finish(traceSummary(r));
      else writeFileAtomic(tracePath, traceFileText(r, args.traceFormat, () => traceLines(r)), io.stdout);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = err instanceof OutputError ? e.message : e.code === 'ENOSPC' ? 'no space left on the device (ENOSPC)' : e.message;
      io.stderr(`error WRITE_FAILED at --trace: could not write ${args.trace}: ${why}\n`);
      return EXIT_USAGE;
    }
  }
  const replay = replayCommand(r, { untilMs, maxEvents: args.maxEvents });
  const marks = failedMarks(r, scenario.expect);
  if (args.html !== undefined) {
    const failed = writeHtml(r, args.html, marks, io, views.pod);
    if (failed !== undefined) return failed;
  }
  if (args.format === 'mermaid') printMermaid(r, views, io, marks);
  else printRun(r, args, io, { human, replay, wallMs, mem0, views, marks });
  if (args.format === 'mermaid' && args.stats) printStats(r, io, wallMs, mem0);
  return r.verdict === 'pass' ? EXIT_PASS : EXIT_FAIL;
}

/** The run, with a streamed trace's temporary file dropped if it throws. */
function runStreaming(run: () => RunResult, sink: TraceStream | undefined): RunResult {
  try {
    return run();
  } catch (err) {
    sink?.abort();
    throw err;
  }
}

/** How the run's trace is kept: a JSON Lines --trace of a run not driven by choices is streamed to
 *  its file while the run makes it; the whole trace is kept only when something reads it after the
 *  run (the pretty timeline, Mermaid, --html, a chrome or shiviz --trace, a driven run's --trace, a
 *  cluster run's load summary).
 *  `kss run --format json` keeps only what its assertions need. An exit code when the --trace file
 *  cannot be opened. */
export function traceOutput(args: RunArgs, tracePath: string | undefined, drivenRun: boolean, io: CliIO, clusterRun = false): { keepTrace: boolean; traceSink?: TraceStream } | number {
  let traceSink: TraceStream | undefined;
  if (tracePath !== undefined && (args.traceFormat ?? 'jsonl') === 'jsonl' && !drivenRun) {
    try {
      traceSink = new TraceStream(tracePath, io.stdout);
    } catch (err) {
      io.stderr(`error WRITE_FAILED at --trace: could not write ${args.trace}: ${(err as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  // a cluster run's load summary (RunResult.load) reads the kept trace
  const reads = clusterRun || args.format === 'mermaid' || (args.format !== 'json' && !args.quiet) || args.html !== undefined || (tracePath !== undefined && traceSink === undefined);
  return { keepTrace: reads, traceSink };
}

/** What kss run prints: the JSON verdict or the timeline and verdict, and --stats. */
function printRun(
  r: RunResult,
  args: RunArgs,
  io: CliIO,
  o: { human: (s: string) => void; replay: string; wallMs: number; mem0: number; views: Exclude<ReturnType<typeof parseViewArgs>, string>; marks: ReturnType<typeof failedMarks> },
): void {
  const { human, replay, wallMs, mem0, views, marks } = o;
  if (args.format === 'json') {
    human(jsonResult(r, replay) + '\n');
  } else if (!args.quiet) {
    const color = io.color && human === io.stdout;
    for (const line of prettyLines(r.trace, { color, verbose: args.verbose, pod: views.pod, only: views.only, failed: marks })) human(line + '\n');
    human('\n');
    for (const line of verdictText(r, color, replay)) human(line + '\n');
  }
  if (args.stats) printStats(r, io, wallMs, mem0);
}

/** --stats, on stderr. */
function printStats(r: RunResult, io: CliIO, wallMs: number, mem0: number): void {
  {
    const stats = {
      events: r.events,
      traceEvents: r.traceEvents,
      wallMs: Math.round(wallMs),
      eventsPerSec: Math.round(r.events / Math.max(wallMs / 1000, 1e-9)),
      virtualSecPerWallSec: Math.round(r.untilMs / Math.max(wallMs, 1e-9)),
      peakRssMb: Math.round(Math.max(process.memoryUsage().rss, mem0) / 1048576),
    };
    io.stderr(`stats ${JSON.stringify(stats)}\n`);
  }
}

/** The scenario's text, for code frames; undefined when it cannot be read. */
export function readSource(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `kss run --format json`: the summary, the verdict's parts, and the pod startup latency. */
function jsonResult(r: RunResult, replay: string): string {
  return JSON.stringify({
    ...traceSummary(r),
    scenario: r.scenario.name,
    seed: r.seed,
    variant: r.variant,
    assertions: r.assertions,
    violations: r.unexpectedViolations,
    stepErrors: r.stepErrors,
    replay: r.verdict === 'fail' ? replay : undefined,
    podStartup: podStartup(r.world.apiserver.history),
    load: r.load,
  });
}
