// The views of `kss run`: --format mermaid, --html FILE, --trace-format chrome|shiviz, and the
// --pod / --from / --to / --only filters. Options are declared here (addViewOptions) so that
// main.ts and run-command.ts change only by a line or two.
import { resolve } from 'node:path';
import { parseDuration } from '../model/time.js';
import type { RunResult } from '../world/run.js';
import { writeFileAtomic } from '../report/atomic.js';
import { mermaidLines } from '../report/mermaid.js';
import { htmlPage } from '../report/html.js';
import { chromeTraceText } from '../report/chrome-trace.js';
import { shivizText } from '../report/shiviz.js';
import { explainAssertion } from '../report/explain.js';
import type { FailedMark } from '../report/pretty.js';
import { EXIT_USAGE, type CliIO } from './io.js';
import { ONLY_CATEGORIES } from './commands.js';
import type { ViewArgs } from './args.js';

export type { ViewArgs };

export interface ParsedViews {
  pod?: string;
  fromMs?: number;
  toMs?: number;
  only?: string[];
}

/** The filters checked, or a usage message. */
export function parseViewArgs(a: ViewArgs): ParsedViews | string {
  const out: ParsedViews = {};
  if (a.pod !== undefined) out.pod = a.pod.includes('/') ? a.pod : `default/${a.pod}`;
  for (const k of ['from', 'to'] as const) {
    const v = a[k];
    if (v === undefined) continue;
    const ms = parseDuration(v);
    if (ms === undefined || ms < 0) return `error BAD_DURATION at --${k}: expected a Go duration such as 12.5s or 2m, got ${JSON.stringify(v)}`;
    if (k === 'from') out.fromMs = ms;
    else out.toMs = ms;
  }
  if (a.only !== undefined) {
    const parts = a.only.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const bad = parts.filter((p) => !(ONLY_CATEGORIES as readonly string[]).includes(p));
    if (bad.length > 0 || parts.length === 0) return `error BAD_OPTION at --only: expected a comma-separated list of ${ONLY_CATEGORIES.join(', ')}, got ${JSON.stringify(a.only)}`;
    out.only = parts;
  }
  return out;
}

/** The failed expectations of a run, for inline marks (with the pod each names, if any). */
export function failedMarks(r: RunResult, expect: ReadonlyArray<{ index: number; pod?: string }>): FailedMark[] {
  return r.assertions.filter((a) => !a.ok).map((a) => ({ index: a.index, kind: a.kind, line: a.line, message: a.message, atMs: a.atMs, pod: expect.find((e) => e.index === a.index)?.pod }));
}

/** The --trace file's lines in the chosen format. */
export function traceFileText(r: RunResult, format: ViewArgs['traceFormat'], jsonl: () => Iterable<string>): Iterable<string> {
  if (format === 'chrome') return [chromeTraceText(r.trace, { scenario: r.scenario.name, seed: r.seed, variant: r.variant, untilMs: r.untilMs })];
  if (format === 'shiviz') return [shivizText(r.trace, `${r.scenario.name} seed ${r.seed} ${r.variant}`)];
  return jsonl();
}

/** --html FILE: returns an exit code when writing failed. */
export function writeHtml(r: RunResult, file: string, marks: readonly FailedMark[], io: CliIO, pod?: string): number | undefined {
  const page = htmlPage({
    scenario: r.scenario.name, seed: r.seed, variant: r.variant, untilMs: r.untilMs, verdict: r.verdict, trace: r.trace, pod,
    notes: marks.map((m) => explainAssertion(m, r.trace)),
  });
  try {
    writeFileAtomic(resolve(io.cwd, file), [page]);
  } catch (err) {
    io.stderr(`error WRITE_FAILED at --html: could not write ${file}: ${(err as Error).message}\n`);
    return EXIT_USAGE;
  }
  return undefined;
}

export function printMermaid(r: RunResult, v: ParsedViews, io: CliIO, failed: readonly FailedMark[] = []): void {
  for (const line of mermaidLines(r.trace, { pod: v.pod, fromMs: v.fromMs, toMs: v.toMs, failed })) io.stdout(line + '\n');
}
