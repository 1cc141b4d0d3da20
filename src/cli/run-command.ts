// `kss run <scenario>`: run one scenario and show its timeline and verdict.
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { loadScenarioFile, renderIssues } from '../scenario/index.js';
import { parseDuration } from '../model/time.js';
import { podStartup } from '../world/pod-startup.js';
import { runScenario, traceHeader, traceSummary, TOOL_VERSION, type RunResult } from '../world/run.js';
import type { ChoiceOptions, DrivenInfo } from '../engine/index.js';
import { ChoicesFileError, choicesLines, readChoicesFile, type ChoicesFile } from './choices-file.js';
import { prettyLines, makeChalk, formatT } from '../report/pretty.js';
import { writeFileAtomic } from '../report/atomic.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import type { Variant } from '../scenario/types.js';
import { failedMarks, parseViewArgs, printMermaid, traceFileText, writeHtml, type ViewArgs } from './views-output.js';

export interface RunArgs extends ViewArgs {
  scenario: string;
  seed?: number;
  until?: string;
  statusManager?: Variant;
  trace?: string;
  format: 'pretty' | 'json' | 'mermaid';
  stats: boolean;
  verbose: boolean;
  maxEvents?: number;
  quiet?: boolean;
  /** Drive the run from this choices file (docs/choices.md). */
  choices?: string;
  /** Write the run's choices to this file. */
  recordChoices?: string;
  /** Same-instant ties become choice points (left in insertion order unless --choices says). */
  ties?: boolean;
  /** ... drawn from the seed. */
  randomTies?: boolean;
}

export function replayCommand(file: string, seed: number, variant: Variant, driven?: DrivenInfo): string {
  const how = driven === undefined ? '' : `${driven.source !== undefined ? ` --choices ${driven.source}` : ''}${driven.ties === 'random' ? ' --random-ties' : driven.ties ? ' --ties' : ''}`;
  return `kss run ${file} --seed ${seed} --status-manager ${variant}${how}`;
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

export function* traceLines(r: RunResult): Generator<string> {
  yield JSON.stringify(traceHeader(r)) + '\n';
  for (const rec of r.trace) yield JSON.stringify(rec) + '\n';
  yield JSON.stringify(traceSummary(r)) + '\n';
}

export function verdictText(r: RunResult, color: boolean): string[] {
  const c = makeChalk(color);
  const out: string[] = [];
  for (const a of r.assertions) {
    const mark = a.ok ? c.green('✓') : c.red('✗');
    out.push(`${mark} expect[${a.index}] ${a.kind} (line ${a.line}): ${a.message}`);
  }
  for (const e of r.stepErrors) out.push(`${c.red('✗')} timeline[${e.index}] (line ${e.line}): ${e.message}`);
  for (const v of r.unexpectedViolations) {
    out.push(`${c.red('✗')} invariant ${String(v.invariant)} violated${v.pod ? ' for ' + v.pod : ''} at ${formatT(v.t).trim()} (event ${String(v.event ?? v.seq)}, seed ${r.seed}): ${String(v.message ?? '')}`);
  }
  if (r.end === 'runaway') out.push(`${c.red('✗')} ${r.endMessage}`);
  const verdict = r.verdict === 'pass' ? c.green.bold('PASS') : c.red.bold('FAIL');
  out.push(`${verdict} ${r.scenario.name} (seed ${r.seed}, ${r.variant}, ${r.events} events, ${formatT(r.untilMs).trim()} virtual)`);
  if (r.verdict === 'fail') out.push(`replay: ${replayCommand(r.scenario.file, r.seed, r.variant, r.driven)}`);
  return out;
}

export function runCommand(args: RunArgs, io: CliIO): number {
  if (typeof args.scenario !== 'string' || args.scenario === '') {
    io.stderr(`error USAGE: kss run needs a scenario file: kss run <scenario.yaml>\n`);
    return EXIT_USAGE;
  }
  const path = resolve(io.cwd, args.scenario);
  const loaded = loadScenarioFile(path);
  if (!loaded.ok) {
    const issues = loaded.issues.map((i) => (i.file === path ? { ...i, file: args.scenario } : i));
    io.stderr(renderIssues(issues, readSource(path)) + '\n');
    return EXIT_USAGE;
  }
  if (loaded.warnings?.length) {
    const warnings = loaded.warnings.map((i) => (i.file === path ? { ...i, file: args.scenario } : i));
    io.stderr(renderIssues(warnings, readSource(path)) + '\n');
  }
  const scenario = { ...loaded.scenario, file: args.scenario };
  let untilMs: number | undefined;
  if (args.until !== undefined) {
    untilMs = parseDuration(args.until);
    if (untilMs === undefined || untilMs < 0) {
      io.stderr(`error BAD_DURATION at --until: expected a Go duration such as 90s or 2m, got ${JSON.stringify(args.until)}\n`);
      return EXIT_USAGE;
    }
  }
  const driven = choiceOptions(args, io);
  if (typeof driven === 'number') return driven;
  const views = parseViewArgs(args);
  if (typeof views === 'string') {
    io.stderr(views + '\n');
    return EXIT_USAGE;
  }
  const t0 = performance.now(); // wall-clock-ok: --stats only
  const mem0 = process.memoryUsage().rss;
  const r = runScenario(scenario, { seed: args.seed ?? driven.seed, untilMs, variant: args.statusManager ?? driven.variant, maxEvents: args.maxEvents, choices: driven.choices });
  const wallMs = performance.now() - t0; // wall-clock-ok: --stats only
  if (args.recordChoices !== undefined && r.choices !== undefined) {
    const meta = { version: TOOL_VERSION, scenario: r.scenario.name, seed: r.seed, variant: r.variant, ties: r.driven?.ties ?? false };
    try {
      writeFileAtomic(resolve(io.cwd, args.recordChoices), choicesLines(meta, r.choices));
    } catch (err) {
      io.stderr(`error WRITE_FAILED at --record-choices: could not write ${args.recordChoices}: ${(err as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  if (args.trace !== undefined) {
    try {
      writeFileAtomic(resolve(io.cwd, args.trace), traceFileText(r, args.traceFormat, () => traceLines(r)));
    } catch (err) {
      io.stderr(`error WRITE_FAILED at --trace: could not write ${args.trace}: ${(err as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  const marks = failedMarks(r, scenario.expect);
  if (args.html !== undefined) {
    const failed = writeHtml(r, args.html, marks, io, views.pod);
    if (failed !== undefined) return failed;
  }
  if (args.format === 'mermaid') printMermaid(r, views, io, marks);
  else if (args.format === 'json') io.stdout(jsonResult(r) + '\n');
  else if (!args.quiet) {
    for (const line of prettyLines(r.trace, { color: io.color, verbose: args.verbose, pod: views.pod, only: views.only, failed: marks })) io.stdout(line + '\n');
    io.stdout('\n');
    for (const line of verdictText(r, io.color)) io.stdout(line + '\n');
  }
  if (args.stats) {
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
  return r.verdict === 'pass' ? EXIT_PASS : EXIT_FAIL;
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
function jsonResult(r: RunResult): string {
  return JSON.stringify({
    ...traceSummary(r),
    scenario: r.scenario.name,
    seed: r.seed,
    variant: r.variant,
    assertions: r.assertions,
    violations: r.unexpectedViolations,
    stepErrors: r.stepErrors,
    podStartup: podStartup(r.world.apiserver.history),
  });
}
