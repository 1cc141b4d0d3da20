// `kss replay <trace.jsonl>`: run a trace's scenario again, with the seed, generation and end time
// its header names, and require the same bytes. Exit 0 byte-identical; 1 the traces diverge (the
// first diverging line is shown); 2 the trace or its scenario cannot be used (missing, not a kss
// trace, the scenario file changed since: its sha256 differs, or it does not load).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { loadScenarioFile } from '../scenario/index.js';
import { renderLoadIssues } from '../testing/load.js';
import type { Variant } from '../scenario/types.js';
import { runScenario, TOOL_VERSION } from '../world/run.js';
import { makeChalk } from '../report/pretty.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import { traceLines } from './run-command.js';
import { ChoicesFileError, readChoicesFile } from './choices-file.js';
import type { ChoiceOptions, DrivenInfo } from '../engine/index.js';

export interface ReplayArgs {
  trace: string;
  maxEvents?: number;
  /** Unchanged lines shown before the first divergence (default 2). */
  context?: number;
}

export interface TraceHeader {
  kss: string;
  type: 'header';
  scenario: string;
  file: string;
  sha256: string;
  seed: number;
  variant: Variant;
  until: number;
  /** How a driven run was driven (absent for a plain seeded run). */
  choices?: DrivenInfo;
}

/** The header of a trace file, or why it is not one. */
export function parseTraceHeader(line: string | undefined): TraceHeader | string {
  if (line === undefined || line.trim() === '') return 'the file is empty';
  let h: unknown;
  try {
    h = JSON.parse(line);
  } catch {
    return 'line 1 is not JSON';
  }
  if (h === null || typeof h !== 'object' || (h as { type?: unknown }).type !== 'header') return 'line 1 is not a kss trace header ({"type":"header",…})';
  const o = h as Record<string, unknown>;
  const want: Array<[string, string]> = [
    ['kss', 'string'],
    ['file', 'string'],
    ['sha256', 'string'],
    ['seed', 'number'],
    ['variant', 'string'],
    ['until', 'number'],
  ];
  for (const [k, t] of want) if (typeof o[k] !== t) return `the header has no ${t} field ${JSON.stringify(k)}`;
  if (o.variant !== 'classic' && o.variant !== 'transitional' && o.variant !== 'current') return `the header's variant is ${JSON.stringify(o.variant)}, expected "classic", "transitional" or "current"`;
  return h as TraceHeader;
}

/** A driven trace's choices (its header's `choices`), read again from the file it names; or why not. */
function drivenChoices(header: TraceHeader, cwd: string, traceDir: string): ChoiceOptions | undefined | string {
  const d = header.choices;
  if (d === undefined) return undefined;
  if (d.driver) return `error DRIVEN_ONLINE: the trace's choices came from a driver (a search), not from a file; replay it with kss run --choices and the choices the search recorded`;
  if (d.source === undefined) return { ties: d.ties };
  const candidates = isAbsolute(d.source) ? [d.source] : [resolve(cwd, d.source), resolve(traceDir, d.source)];
  const path = candidates.find((p) => existsSync(p));
  if (path === undefined) return `error CHOICES_MISSING: the trace was driven by the choices in ${d.source}, which is missing (looked at ${[...new Set(candidates)].join(', ')}); cannot replay`;
  try {
    return { replay: readChoicesFile(path, d.source).steps, ties: d.ties, source: d.source };
  } catch (err) {
    if (err instanceof ChoicesFileError) return err.message;
    throw err;
  }
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Which field of two JSON lines differs first, in words, when both are objects. */
function fieldHint(expected: string, actual: string): string | undefined {
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(expected);
    b = JSON.parse(actual);
  } catch {
    return undefined;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return undefined;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])];
  for (const k of keys) {
    const x = JSON.stringify(ra[k]);
    const y = JSON.stringify(rb[k]);
    if (x !== y) {
      const show = (s: string | undefined) => (s === undefined ? 'absent' : s.length > 120 ? s.slice(0, 117) + '...' : s);
      return `first differing field: ${k} (${show(x)} in the file, ${show(y)} in the replay)`;
    }
  }
  return 'same fields and values, in another order';
}

/** Where the trace's scenario is: the header names it as `kss run` was given it, relative to where
 *  it ran (most likely here), else beside the trace. Its bytes must be the ones the trace ran. */
function locateScenario(header: TraceHeader, tracePath: string, cwd: string): string | { refusal: string } {
  const candidates = isAbsolute(header.file) ? [header.file] : [resolve(cwd, header.file), resolve(dirname(tracePath), header.file)];
  const scenarioPath = candidates.find((p) => existsSync(p));
  if (scenarioPath === undefined) {
    return { refusal: `error SCENARIO_MISSING: the trace's scenario ${header.file} is missing (looked at ${[...new Set(candidates)].join(', ')}); cannot replay` };
  }
  const sha = sha256File(scenarioPath);
  if (sha !== header.sha256) {
    return {
      refusal:
        `error SCENARIO_CHANGED: ${header.file} changed since the trace was written: its sha256 is ${sha}, the trace has ${header.sha256}; ` +
        `a replay would run another scenario (restore the file, or write a new trace with kss run ${header.file} --trace FILE)`,
    };
  }
  return scenarioPath;
}

/** The replay's lines against the file's, line by line: the number of lines that match, or -1
 *  after showing the first difference (with `context` lines before it). */
function compareLines(chunks: Iterable<string>, fileLines: readonly string[], o: { trace: string; context: number; header: TraceHeader; versionNote: boolean }, io: CliIO): number {
  const c = makeChalk(io.color);
  let i = 0;
  const recent: string[] = [];
  for (const chunk of chunks) {
    let actual = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
    let expected = fileLines[i];
    if (i === 0 && o.versionNote && expected !== undefined) {
      // Compare the header apart from the tool version.
      actual = actual.replace(`"kss":${JSON.stringify(TOOL_VERSION)}`, `"kss":${JSON.stringify(o.header.kss)}`);
    }
    if (expected === undefined) {
      io.stdout(`${c.red('DIVERGED')} ${o.trace}: the file ends after line ${i}; the replay goes on:\n`);
      for (const l of recent) io.stdout(`  ${l}\n`);
      io.stdout(c.green(`+ actual (replay), line ${i + 1}: ${actual}`) + '\n');
      return -1;
    }
    if (expected !== actual) {
      io.stdout(`${c.red('DIVERGED')} ${o.trace}: first difference at line ${i + 1}\n`);
      for (let k = 0; k < recent.length; k++) io.stdout(c.dim(`  line ${i - recent.length + k + 1}: ${recent[k]}`) + '\n');
      io.stdout(c.red(`- expected (${o.trace}), line ${i + 1}: ${expected}`) + '\n');
      io.stdout(c.green(`+ actual (replay), line ${i + 1}: ${actual}`) + '\n');
      const hint = fieldHint(expected, actual);
      if (hint !== undefined) io.stdout(`  ${hint}\n`);
      io.stdout(`replay: kss run ${o.header.file} --seed ${o.header.seed} --status-manager ${o.header.variant}\n`);
      return -1;
    }
    recent.push(expected);
    if (recent.length > o.context) recent.shift();
    i++;
  }
  if (i < fileLines.length) {
    io.stdout(`${c.red('DIVERGED')} ${o.trace}: the replay ends after line ${i}; the file goes on:\n`);
    io.stdout(c.red(`- expected (${o.trace}), line ${i + 1}: ${fileLines[i]}`) + '\n');
    return -1;
  }
  return i;
}

export function replayCommandRun(args: ReplayArgs, io: CliIO): number {
  const c = makeChalk(io.color);
  const refuse = (msg: string) => {
    io.stderr(`${msg}\n`);
    return EXIT_USAGE;
  };
  if (typeof args.trace !== 'string' || args.trace === '') {
    io.stderr(`kss replay needs a trace file: kss replay <trace.jsonl>\nrun 'kss replay --help' for usage\n`);
    return EXIT_USAGE;
  }
  const tracePath = resolve(io.cwd, args.trace);
  let text: string;
  try {
    text = readFileSync(tracePath, 'utf8');
  } catch (err) {
    return refuse(`error NOT_FOUND: cannot read trace ${args.trace}: ${(err as Error).message}`);
  }
  const fileLines = text.split('\n');
  const endsWithNewline = fileLines.length > 0 && fileLines[fileLines.length - 1] === '';
  if (endsWithNewline) fileLines.pop();
  const header = parseTraceHeader(fileLines[0]);
  if (typeof header === 'string') return refuse(`error NOT_A_TRACE: ${args.trace}: ${header}`);

  const scenarioPath = locateScenario(header, tracePath, io.cwd);
  if (typeof scenarioPath !== 'string') return refuse(scenarioPath.refusal);
  const versionNote = header.kss !== TOOL_VERSION;
  if (versionNote) io.stderr(`${c.yellow('note:')} the trace was written by kss ${header.kss}, this is kss ${TOOL_VERSION}: a difference may come from the tool itself\n`);

  const loaded = loadScenarioFile(scenarioPath);
  if (!loaded.ok) {
    io.stderr(renderLoadIssues(loaded, scenarioPath, header.file) + '\n');
    return EXIT_USAGE;
  }
  const scenario = { ...loaded.scenario, file: header.file };
  const choices = drivenChoices(header, io.cwd, dirname(tracePath));
  if (typeof choices === 'string') return refuse(choices);
  const r = runScenario(scenario, { seed: header.seed, variant: header.variant, untilMs: header.until, maxEvents: args.maxEvents, choices });

  const matched = compareLines(traceLines(r), fileLines, { trace: args.trace, context: args.context ?? 2, header, versionNote }, io);
  if (matched < 0) return EXIT_FAIL;
  const i = matched;
  if (!endsWithNewline || text.includes('\r')) {
    io.stdout(`${c.red('DIVERGED')} ${args.trace}: every line matches, but the bytes differ (${text.includes('\r') ? 'CR line ends' : 'no newline at the end'})\n`);
    return EXIT_FAIL;
  }
  io.stdout(
    `${c.green('IDENTICAL')} ${args.trace}: ${i} lines, byte for byte${versionNote ? ' (apart from the tool version)' : ''} (${header.scenario ?? r.scenario.name}, seed ${header.seed}, ${header.variant})\n`,
  );
  return EXIT_PASS;
}
