// `kss replay <trace.jsonl>`: run a trace's scenario again, with the seed, generation and end time
// its header names, and require the same bytes. Exit 0 byte-identical; 1 the traces diverge (the
// first diverging line is shown); 2 the trace or its scenario cannot be used (missing, not a kss
// trace, the scenario file changed since: its sha256 differs, or it does not load).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { loadScenarioFileCached } from '../scenario/index.js';
import { renderLoadIssues } from '../testing/load.js';
import { replayCommandFor } from '../testing/replay-line.js';
import { kindOf } from '../testing/source.js';
import { runScenario, TOOL_VERSION, type RunResult } from '../world/run.js';
import { locateScenario, parseTraceHeader, sha256File, type TraceHeader } from './trace-header.js';
import { makeChalk } from '../report/pretty.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import { traceLines } from './run-command.js';
import { ChoicesFileError, readChoicesFile } from './choices-file.js';
import type { ChoiceOptions, DrivenInfo } from '../engine/index.js';

export { parseTraceHeader, sha256File, type TraceHeader } from './trace-header.js';

export interface ReplayArgs {
  trace: string;
  /** The scenario file (default: found from the header, see locateScenario). */
  scenario?: string;
  maxEvents?: number;
  /** Unchanged lines shown before the first divergence (default 2). */
  context?: number;
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

/** What a path is when it exists and is not a regular file (a folder, a FIFO, a device): reading
 *  one could block or never end. */
function nonRegular(path: string): string | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? undefined : kindOf(st);
  } catch {
    return undefined; // missing: the read says so
  }
}

export function replayCommandRun(args: ReplayArgs, io: CliIO): number {
  const refuse = (msg: string) => {
    io.stderr(`${msg}\n`);
    return EXIT_USAGE;
  };
  if (typeof args.trace !== 'string' || args.trace === '') {
    io.stderr(`kss replay needs a trace file: kss replay <trace.jsonl>\nrun 'kss replay --help' for usage\n`);
    return EXIT_USAGE;
  }
  const tracePath = resolve(io.cwd, args.trace);
  const kind = nonRegular(tracePath);
  if (kind !== undefined) return refuse(`${args.trace}: error NOT_REGULAR: is ${kind}, not a trace file`);
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
  const where = locateScenario(header, tracePath, io.cwd, args.scenario);
  if (!where.ok) return refuse(where.message);
  const scenarioPath = where.path;
  const sha = sha256File(scenarioPath);
  if (sha !== header.sha256) {
    return refuse(`error SCENARIO_CHANGED: ${args.scenario ?? scenarioPath} is not the trace's scenario: its sha256 is ${sha}, the trace has ${header.sha256}`);
  }
  const versionNote = header.kss !== TOOL_VERSION;
  if (versionNote) io.stderr(`${makeChalk(io.color).yellow('note:')} the trace was written by kss ${header.kss}, this is kss ${TOOL_VERSION}: a difference may come from the tool itself\n`);
  const loaded = loadScenarioFileCached(scenarioPath, io.scenarioCache);
  if (!loaded.ok) {
    io.stderr(renderLoadIssues(loaded, scenarioPath, basename(scenarioPath)) + '\n');
    return EXIT_USAGE;
  }
  const scenario = { ...loaded.scenario, file: header.file }; // the header names it by file name: so does the replay
  const choices = drivenChoices(header, io.cwd, dirname(tracePath));
  if (typeof choices === 'string') return refuse(choices);
  const r = runScenario(scenario, { seed: header.seed, variant: header.variant, untilMs: header.until, maxEvents: args.maxEvents ?? header.maxEvents, choices });
  return compareTrace(args, io, { text, fileLines, endsWithNewline, header, versionNote, r, scenarioShown: args.scenario ?? basename(scenarioPath) });
}

interface Compared {
  text: string;
  fileLines: string[];
  endsWithNewline: boolean;
  header: TraceHeader;
  versionNote: boolean;
  r: RunResult;
  scenarioShown: string;
}

/** The replay's lines against the file's, line by line: the first difference, in words. */
function compareTrace(args: ReplayArgs, io: CliIO, x: Compared): number {
  const c = makeChalk(io.color);
  const { fileLines, header, r } = x;
  const context = args.context ?? 2;
  let i = 0;
  const recent: string[] = [];
  for (const chunk of traceLines(r)) {
    let actual = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
    const expected = fileLines[i];
    if (i === 0 && x.versionNote && expected !== undefined) {
      // Compare the header apart from the tool version.
      actual = actual.replace(`"kss":${JSON.stringify(TOOL_VERSION)}`, `"kss":${JSON.stringify(header.kss)}`);
    }
    if (expected === undefined) {
      io.stdout(`${c.red('DIVERGED')} ${args.trace}: the file ends after line ${i}; the replay goes on:\n`);
      for (const l of recent) io.stdout(`  ${l}\n`);
      io.stdout(c.green(`+ actual (replay), line ${i + 1}: ${actual}`) + '\n');
      return EXIT_FAIL;
    }
    if (expected !== actual) {
      io.stdout(`${c.red('DIVERGED')} ${args.trace}: first difference at line ${i + 1}\n`);
      for (let k = 0; k < recent.length; k++) io.stdout(c.dim(`  line ${i - recent.length + k + 1}: ${recent[k]}`) + '\n');
      io.stdout(c.red(`- expected (${args.trace}), line ${i + 1}: ${expected}`) + '\n');
      io.stdout(c.green(`+ actual (replay), line ${i + 1}: ${actual}`) + '\n');
      const hint = fieldHint(expected, actual);
      if (hint !== undefined) io.stdout(`  ${hint}\n`);
      const maxEvents = header.maxEvents !== undefined && header.maxEvents !== r.maxEvents ? header.maxEvents : args.maxEvents;
      io.stdout(`replay: ${replayCommandFor(x.scenarioShown, { seed: header.seed, variant: header.variant, untilMs: header.until, maxEvents })}\n`);
      return EXIT_FAIL;
    }
    recent.push(expected);
    if (recent.length > context) recent.shift();
    i++;
  }
  if (i < fileLines.length) {
    io.stdout(`${c.red('DIVERGED')} ${args.trace}: the replay ends after line ${i}; the file goes on:\n`);
    io.stdout(c.red(`- expected (${args.trace}), line ${i + 1}: ${fileLines[i]}`) + '\n');
    return EXIT_FAIL;
  }
  if (!x.endsWithNewline || x.text.includes('\r')) {
    io.stdout(`${c.red('DIVERGED')} ${args.trace}: every line matches, but the bytes differ (${x.text.includes('\r') ? 'CR line ends' : 'no newline at the end'})\n`);
    return EXIT_FAIL;
  }
  io.stdout(
    `${c.green('IDENTICAL')} ${args.trace}: ${i} lines, byte for byte${x.versionNote ? ' (apart from the tool version)' : ''} (${header.scenario ?? r.scenario.name}, seed ${header.seed}, ${header.variant})\n`,
  );
  return EXIT_PASS;
}
