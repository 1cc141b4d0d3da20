// Golden traces: what a scenario's run decided and sent, kept beside the scenario as
// `<name>.golden.jsonl`, compared by `kss test`, rewritten by `kss test --update`.
//
// What a golden holds, and why (README "Golden traces"):
// - line 1, a header: `{"golden":"kss/v1","scenario":…,"seed":…,"variant":…}` (no tool version:
//   a release alone must not invalidate every golden);
// - then, in trace order, every event whose type starts with `status.`, `api.` or `runtime.`, plus
//   `invariant.violation`: the status manager's decisions (set, same, reject, drop, sync, skip,
//   recreated, delete…), every request the kubelet sent and every request the apiserver served or
//   failed, and what the containers did. Fields: `t`, `type`, `actor`, `pod` first, then the
//   event's own fields with keys sorted at every depth (JSON key order is not behaviour). A write
//   that the apiserver served (api.create / api.patch / api.update / api.delete) also carries
//   `stored`: the object's uid, deletionTimestamp and status as stored at that resourceVersion
//   (null once removed), so a change in *what* was sent shows, not only that something was sent;
// - last, the final state: one `{"final":"apiserver",…}` line per stored pod and one
//   `{"final":"kubelet",…}` line per status-manager cache entry (version, apiStatusVersion,
//   podIsFinished, status), so a decision that never reached the apiserver shows too.
// - left out: `seq` (renumbered by any added event, even a log line), log lines, timeline steps and
//   faults (they are the scenario's input, not its outcome), pleg / worker / probe chatter, and
//   the text of invariant messages (only the invariant and the pod).
// So a golden changes exactly when what the status manager decided or sent changes, and not when
// the tool reorders fields, adds log lines or renumbers events.
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import type { TraceRecord } from '../model/trace.js';

export const GOLDEN_FORMAT = 'kss/v1';
export const GOLDEN_PREFIXES: readonly string[] = ['status.', 'api.', 'runtime.'];

type RecordLike = TraceRecord;

export interface GoldenSource {
  scenario: { name: string };
  seed: number;
  variant: string;
  trace: readonly RecordLike[];
  /** The apiserver's stored object at a resourceVersion (null: removed by that write). */
  storedAt?: (resourceVersion: number) => { uid?: string; deletionTimestamp?: string; status?: unknown } | null | undefined;
  /** Final-state lines (see above), already in a stable order. */
  final?: readonly Record<string, unknown>[];
}

/** Events that wrote to the apiserver's store when they succeeded. */
export const WRITE_EVENTS: ReadonlySet<string> = new Set(['api.create', 'api.patch', 'api.update', 'api.delete']);

/** `scenarios/basics/job.yaml` → `scenarios/basics/job.golden.jsonl`. */
export function goldenPathFor(scenarioFile: string): string {
  const ext = extname(scenarioFile);
  return join(dirname(scenarioFile), `${basename(scenarioFile, ext)}.golden.jsonl`);
}

export function isGoldenEvent(type: string): boolean {
  return type === 'invariant.violation' || GOLDEN_PREFIXES.some((p) => type.startsWith(p));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

const HEAD_FIELDS = new Set(['t', 'seq', 'actor', 'type', 'pod']);

/** Fields the trace carries for the views (what a request sent, what a write wrote, what the cache
 *  holds after a status.set) and a golden leaves out: a golden shows what was stored, as `stored`,
 *  last; what was sent and cached shows in the stored objects and the final state. */
export const TRACE_ONLY_FIELDS: ReadonlySet<string> = new Set(['sent', 'wrote', 'cached', 'stored']);

export function goldenRecord(r: RecordLike, storedAt?: GoldenSource['storedAt']): string {
  const o: Record<string, unknown> = { t: r.t, type: r.type, actor: r.actor };
  if (r.pod !== undefined) o.pod = r.pod;
  if (r.type === 'invariant.violation') {
    o.invariant = r.invariant;
    return JSON.stringify(o);
  }
  for (const k of Object.keys(r).sort()) {
    if (HEAD_FIELDS.has(k) || TRACE_ONLY_FIELDS.has(k)) continue;
    const v = r[k];
    if (v !== undefined) o[k] = canonical(v);
  }
  if (WRITE_EVENTS.has(r.type) && r.resourceVersion !== undefined) {
    const rv = Number(r.resourceVersion);
    // The store's history when given (a finished run), else the record's own `stored` (a trace file).
    const obj = storedAt !== undefined && Number.isFinite(rv) ? storedAt(rv) : r.stored;
    if (obj !== undefined) o.stored = canonical(obj);
  }
  return JSON.stringify(o);
}

/** `final` and `pod` first, the rest sorted. */
function canonicalFinal(f: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = { final: f.final };
  if (f.pod !== undefined) o.pod = f.pod;
  for (const k of Object.keys(f).sort()) if (k !== 'final' && k !== 'pod' && f[k] !== undefined) o[k] = canonical(f[k]);
  return o;
}

/** The golden lines of a run (without newlines). */
export function goldenLines(r: GoldenSource): string[] {
  const lines = [JSON.stringify({ golden: GOLDEN_FORMAT, scenario: r.scenario.name, seed: r.seed, variant: r.variant })];
  for (const rec of r.trace) if (isGoldenEvent(rec.type)) lines.push(goldenRecord(rec, r.storedAt));
  for (const f of r.final ?? []) lines.push(JSON.stringify(canonicalFinal(f)));
  return lines;
}

export function goldenText(lines: readonly string[]): string {
  return lines.map((l) => l + '\n').join('');
}

/** The golden file's lines, or undefined when there is none. Tolerates CRLF and a missing final newline. */
export function readGolden(path: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function writeGolden(path: string, lines: readonly string[]): void {
  writeFileAtomic(path, lines.map((l) => l + '\n'));
}

// ---- diff --------------------------------------------------------------------------------------

export interface DiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
  /** Most output lines (default 80); the rest is counted, not shown. */
  maxLines?: number;
  /** Labels of the two sides (default "expected" / "actual"). */
  labels?: [string, string];
}

type Op = { kind: ' ' | '-' | '+'; a: number; b: number }; // a, b: 0-based indexes (of the line in a or b)

/** Myers' O((N+M)D) shortest edit script; undefined when more than maxD edits are needed. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const nv = v;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && nv[off + k - 1] < nv[off + k + 1]) ? nv[off + k + 1] : nv[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      nv[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = nv;
    if (found >= 0) break;
  }
  if (found < 0) return undefined;
  // Backtrack through the saved frontiers.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const pv = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && pv[off + k - 1] < pv[off + k + 1]) ? k + 1 : k - 1;
    const prevX = pv[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: ' ', a: --x, b: --y });
    if (x === prevX) ops.push({ kind: '+', a: x, b: --y });
    else ops.push({ kind: '-', a: --x, b: y });
  }
  while (x > 0 && y > 0) ops.push({ kind: ' ', a: --x, b: --y });
  return ops.reverse();
}

/**
 * A unified diff of two line lists, `- expected` / `+ actual`, with line numbers, or [] when they
 * are equal. Falls back to "first differing line" when the edit script would be huge.
 */
export function diffLines(expected: readonly string[], actual: readonly string[], opts: DiffOptions = {}): string[] {
  const context = opts.context ?? 3;
  const maxLines = opts.maxLines ?? 80;
  const [la, lb] = opts.labels ?? ['expected', 'actual'];
  // Common prefix and suffix first: goldens usually differ in a few places.
  let pre = 0;
  while (pre < expected.length && pre < actual.length && expected[pre] === actual[pre]) pre++;
  if (pre === expected.length && pre === actual.length) return [];
  let suf = 0;
  while (suf < expected.length - pre && suf < actual.length - pre && expected[expected.length - 1 - suf] === actual[actual.length - 1 - suf]) suf++;
  const midA = expected.slice(pre, expected.length - suf);
  const midB = actual.slice(pre, actual.length - suf);
  let ops = myers(midA, midB, 2000);
  const out: string[] = [`--- ${la}`, `+++ ${lb}`];
  if (ops === undefined) {
    // Too different for a minimal diff: show where they part and what follows on each side.
    out.push(`@@ first difference at line ${pre + 1} (the rest differs too much for a line diff) @@`);
    for (let i = Math.max(0, pre - context); i < pre; i++) out.push(`  ${expected[i]}`);
    const half = Math.max(1, Math.floor((maxLines - out.length) / 2));
    for (let i = pre; i < Math.min(expected.length, pre + half); i++) out.push(`- ${expected[i]}`);
    for (let i = pre; i < Math.min(actual.length, pre + half); i++) out.push(`+ ${actual[i]}`);
    return out;
  }
  // Re-base the ops onto whole-file indexes, with the common prefix and suffix as context.
  const all: Op[] = [];
  for (let i = 0; i < pre; i++) all.push({ kind: ' ', a: i, b: i });
  for (const o of ops) all.push({ kind: o.kind, a: o.a + pre, b: o.b + pre });
  for (let i = 0; i < suf; i++) all.push({ kind: ' ', a: expected.length - suf + i, b: actual.length - suf + i });
  ops = all;
  // Group into hunks: runs of changes with `context` unchanged lines around them.
  const changed = ops.map((o) => o.kind !== ' ');
  const keep = new Array<boolean>(ops.length).fill(false);
  for (let i = 0; i < ops.length; i++) {
    if (!changed[i]) continue;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) keep[j] = true;
  }
  let shown = 0;
  let hidden = 0;
  let i = 0;
  while (i < ops.length) {
    if (!keep[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length && keep[j]) j++;
    const hunk = ops.slice(i, j);
    const aStart = hunk.find((o) => o.kind !== '+')?.a ?? hunk[0].a;
    const bStart = hunk.find((o) => o.kind !== '-')?.b ?? hunk[0].b;
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    // Unified-diff convention: an empty range names the line before it.
    const lines = [`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`];
    for (const o of hunk) lines.push(`${o.kind} ${o.kind === '+' ? actual[o.b] : expected[o.a]}`);
    for (const l of lines) {
      if (shown < maxLines) {
        out.push(l);
        shown++;
      } else if (l.startsWith('-') || l.startsWith('+')) hidden++;
    }
    i = j;
  }
  if (hidden > 0) out.push(`… and ${hidden} more differing line(s)`);
  return out;
}

// ---- pointing at the difference inside a line -------------------------------------------------

function firstJsonDifference(a: unknown, b: unknown, path: string): { path: string; a: unknown; b: unknown } | undefined {
  if (a === b) return undefined;
  const isObj = (v: unknown) => v !== null && typeof v === 'object';
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstJsonDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isObj(a) && isObj(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(ra), ...Object.keys(rb)])]) {
      const d = firstJsonDifference(ra[k], rb[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return undefined;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : { path, a, b };
}

function showValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s.length > 160 ? s.slice(0, 157) + '...' : s;
}

/**
 * Where two golden line lists first differ, in words: the line, and, when both lines are JSON, the
 * first field that differs (`line 9: stored.status.phase: expected "Pending", got "Running"`).
 * Undefined when they are equal.
 */
export function firstDifference(expected: readonly string[], actual: readonly string[]): string | undefined {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  if (i === expected.length && i === actual.length) return undefined;
  if (i >= expected.length) return `line ${i + 1}: the run has more lines than the golden (${actual.length} vs ${expected.length})`;
  if (i >= actual.length) return `line ${i + 1}: the run ends before the golden does (${actual.length} vs ${expected.length} lines)`;
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(expected[i]);
    b = JSON.parse(actual[i]);
  } catch {
    return `line ${i + 1}`;
  }
  const d = firstJsonDifference(a, b, '');
  if (d === undefined) return `line ${i + 1}: same values, other formatting`;
  return `line ${i + 1}: ${d.path || 'the line'}: expected ${showValue(d.a)}, got ${showValue(d.b)}`;
}
