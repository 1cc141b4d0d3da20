// The value schemas of the scenario format: durations, ranges, times, status maps, names and pod
// references, each a zod schema that checks one value and turns it into what the Scenario holds.
// schema.ts builds the document's schema from them.
import { z } from 'zod';
import { normalizePodRef } from '../model/pod.js';
import { parseDuration, parseRfc3339 } from '../model/time.js';
import type { Latency, LatencyRange } from './types.js';

/** A value one of our own checks refused. The loader turns it into an Issue of that code. */
export class Refusal {
  constructor(
    readonly code: string,
    readonly expected: string,
    readonly hint?: string,
  ) {}
}

/** How a value looks in a message: scalars as JSON, collections by their kind. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (v !== null && typeof v === 'object') return 'a map';
  if (typeof v === 'string' && v.length > 60) return `${JSON.stringify(v.slice(0, 60))}… (${v.length} characters)`;
  return JSON.stringify(v);
}

/** The message of a plain missing field; the loader writes the real one. */
export const MISSING = 'missing';

/** A scalar checked by our own function. `json` is what the JSON Schema says about it. */
export function value<T>(json: Record<string, unknown>, check: (v: unknown) => T | Refusal) {
  return z
    .unknown()
    .transform((v, ctx): T => {
      if (v === undefined) {
        ctx.addIssue({ code: 'custom', message: MISSING, params: { code: 'MISSING_FIELD', expected: json.description } });
        return z.NEVER;
      }
      const r = check(v);
      if (r instanceof Refusal) {
        const got = show(v);
        const message = `expected ${r.expected}, got ${got}` + (r.hint ? `: ${r.hint}` : '');
        ctx.addIssue({ code: 'custom', message, input: v, params: { code: r.code, expected: r.expected, got } });
        return z.NEVER;
      }
      return r;
    })
    .meta(json);
}

// ---- durations, ranges, times ----

const DURATION = 'a duration like "500ms", "10s" or "1m30s"';

/** ms of a duration value, or a Refusal. YAML's number 0 is allowed (as Go's "0" is). */
function durationMs(v: unknown, positive = false): number | Refusal {
  const ms = v === 0 ? 0 : typeof v === 'string' ? parseDuration(v) : undefined;
  if (ms === undefined) return new Refusal('BAD_DURATION', DURATION, typeof v === 'number' ? 'a bare number has no unit' : undefined);
  const expected = positive ? DURATION.replace(/^a /, 'a positive ') : DURATION;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DURATION_MS) return new Refusal('BAD_DURATION', expected, `it may be at most ${MAX_DURATION_TEXT}`);
  if (ms < 0) return new Refusal('BAD_DURATION', expected, 'it must not be negative');
  if (typeof v === 'string' && !wholeMs(v)) return new Refusal('BAD_DURATION', expected, "kss's clock counts whole milliseconds");
  if (positive && ms === 0) return new Refusal('BAD_DURATION', expected, 'it must be more than 0');
  return ms;
}

/** The longest duration (and `@` offset) accepted: 100 years, so every instant stays a 4-digit year. */
export const MAX_DURATION_MS = 100 * 365.25 * 24 * 3600 * 1000;
const MAX_DURATION_TEXT = '100 years (876600h)';
export const MAX_SECONDS = MAX_DURATION_MS / 1000;

/** Whether a Go duration is a whole number of milliseconds (`1.5ms`, `10us` are not). */
function wholeMs(s: string): boolean {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
  let total = 0;
  for (const g of s.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) total += parseFloat(g[1]) * units[g[2]];
  return Math.abs(total - Math.round(total)) < 1e-6;
}

const durationJson = { type: 'string', description: 'Go duration: 250ms, 10s, 1m30s' };
export const duration = value(durationJson, (v) => durationMs(v));
export const positiveDuration = value(durationJson, (v) => durationMs(v, true));

/** A duration or one keyword (`forever`, `ignore`, `never`). */
export function durationOr<K extends string>(keyword: K) {
  const json = { type: 'string', description: `Go duration, or "${keyword}"` };
  return value(json, (v): number | K | Refusal => {
    if (v === keyword) return keyword;
    const ms = durationMs(v);
    return ms instanceof Refusal ? new Refusal('BAD_DURATION', `${DURATION} or "${keyword}"`, ms.hint) : ms;
  });
}

/** `A..B`, inclusive; a single duration means exactly that long. */
export function parseRange(v: unknown): LatencyRange | Refusal {
  const expected = 'a range like "1ms..5ms"';
  if (typeof v !== 'string' && v !== 0) return new Refusal('BAD_RANGE', expected);
  const parts = String(v).split('..');
  if (parts.length > 2 || String(v).includes('...')) return new Refusal('BAD_RANGE', expected);
  const [a, b] = [parseDuration(parts[0]), parseDuration(parts[parts.length - 1])];
  if (a === undefined || b === undefined || a < 0 || b < 0) return new Refusal('BAD_RANGE', expected);
  if (a > b) return new Refusal('BAD_RANGE', expected, `the lower bound ${parts[0].trim()} is above the upper bound ${parts[1].trim()}`);
  return { minMs: a, maxMs: b };
}
export const range = value({ type: 'string', description: 'latency range A..B, inclusive (e.g. 1ms..5ms)' }, parseRange);

export const DEFAULT_LATENCY: LatencyRange = { minMs: 1, maxMs: 5 };
export const VERBS = ['get', 'patch', 'delete', 'create'] as const;

/** The map form of a latency: verb → range. */
export const latencyVerbs = { get: range.optional(), patch: range.optional(), delete: range.optional(), create: range.optional() };

/** A latency from one range (every verb) or the map form (the verbs not named default). */
export function toLatency(l: LatencyRange | { get?: LatencyRange; patch?: LatencyRange; delete?: LatencyRange; create?: LatencyRange }): Latency {
  if ('minMs' in l) return { get: { ...l }, patch: { ...l }, delete: { ...l }, create: { ...l } };
  const pick = (r: LatencyRange | undefined) => ({ ...(r ?? DEFAULT_LATENCY) });
  return { get: pick(l.get), patch: pick(l.patch), delete: pick(l.delete), create: pick(l.create) };
}

/** A latency: one range for every verb, or a map verb → range (the verbs not named default). */
export const latency = z.union([z.strictObject(latencyVerbs), range]).transform(toLatency);

/** `@<duration>`: epoch + duration. Checked here, resolved in build.ts (it needs the epoch). */
export function atTimeMs(s: string): number | undefined {
  const ms = s.startsWith('@') ? parseDuration(s.slice(1)) : undefined;
  return ms !== undefined && Math.abs(ms) <= MAX_DURATION_MS ? ms : undefined;
}
const BAD_TIME = 'a time like "@5s", "@-1m" or "@1.250s"';

/** An RFC 3339 instant, or an `@<duration>` (metadata.deletionTimestamp). */
export const instant = value({ type: 'string', description: 'RFC 3339 time or @<duration>' }, (v) => {
  if (typeof v === 'string' && v.startsWith('@')) return atTimeMs(v) === undefined ? new Refusal('BAD_TIME', BAD_TIME) : v;
  const ms = typeof v === 'string' ? parseRfc3339(v) : undefined;
  if (ms === undefined) return new Refusal('BAD_TIME', 'an RFC 3339 time like "2026-01-01T00:00:00Z"');
  return ms >= YEAR_1000 && ms < YEAR_9000 ? (v as string) : new Refusal('BAD_TIME', 'an RFC 3339 time from year 1000 to 8999');
});

/** The instants a file may name (epoch, deletionTimestamp): with offsets of up to 100 years every
 *  instant of a run stays a 4-digit year. */
export const [YEAR_1000, YEAR_9000] = [Date.UTC(1000, 0, 1), Date.UTC(9000, 0, 1)];

// ---- status values ----

export const OPERATORS = ['$exists', '$ne', '$len'] as const;

type AddIssue = (path: (string | number)[], code: string, expected: string, got: unknown, atKey?: boolean) => void;

/** Check `@` times and `$` operators inside a status value (operators only where allowed). */
function checkStatusValue(v: unknown, path: (string | number)[], ops: boolean, add: AddIssue): void {
  if (typeof v === 'string') {
    if (v.startsWith('@') && atTimeMs(v) === undefined) add(path, 'BAD_TIME', BAD_TIME, v);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => checkStatusValue(x, [...path, i], ops, add));
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = [...path, k];
      if (!k.startsWith('$')) checkStatusValue(x, p, ops, add);
      else if (!ops) add(p, 'INVALID_VALUE', 'a status field (matcher operators belong in expect)', k, true);
      else if (!(OPERATORS as readonly string[]).includes(k)) add(p, 'INVALID_VALUE', OPERATORS.map((o) => `"${o}"`).join(' | '), k, true);
      else if (k === '$exists' && typeof x !== 'boolean') add(p, 'INVALID_TYPE', 'true or false', x);
      else if (k === '$len' && !(Number.isInteger(x) && (x as number) >= 0)) add(p, 'INVALID_VALUE', 'a list length (an integer >= 0)', x);
      else if (k === '$ne') checkStatusValue(x, p, ops, add);
    }
  }
}

/** A status map (a v1.PodStatus, or in expect a pattern over one). */
export function status(ops: boolean) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((v, ctx) =>
      checkStatusValue(v, [], ops, (path, code, expected, got, atKey) =>
        ctx.addIssue({ code: 'custom', path, input: got, message: `expected ${expected}, got ${show(got)}`, params: { code, expected, got: show(got), atKey } }),
      ),
    )
    .meta({ description: ops ? 'status pattern: subset match; $exists, $ne, $len, @<duration>' : 'v1.PodStatus; @<duration> times' });
}

// ---- names ----

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function named(re: RegExp, max: number, expected: string) {
  return value({ type: 'string', pattern: re.source, maxLength: max, description: expected }, (v) => {
    if (typeof v !== 'string') return new Refusal('INVALID_TYPE', 'a string');
    return re.test(v) && v.length <= max ? v : new Refusal('INVALID_VALUE', expected);
  });
}
export const dnsLabel = named(DNS_LABEL, 63, 'a DNS label (lowercase letters, digits and "-", at most 63 characters)');
export const dnsSubdomain = named(DNS_SUBDOMAIN, 253, 'a DNS subdomain (lowercase letters, digits, "-" and ".")');
/** A label value (validation.IsValidLabelValue), not empty. */
export const labelValue = named(/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/, 63, 'a label value (letters, digits, "-", "_" and ".", starting and ending with a letter or digit, at most 63 characters)');
/** A label value as validation.IsValidLabelValue takes it: empty, or as labelValue. */
export const labelValueOrEmpty = named(/^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/, 63, 'a label value (empty, or letters, digits, "-", "_" and ".", starting and ending with a letter or digit, at most 63 characters)');

/** A qualified name (validation.IsQualifiedName: a label key, a taint key): an optional DNS
 *  subdomain prefix and "/", then at most 63 letters, digits, "-", "_" and ".", starting and ending
 *  with a letter or digit. */
const QUALIFIED = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
export function isQualifiedName(v: string): boolean {
  const name = v.slice(v.indexOf('/') + 1);
  return QUALIFIED.test(v) && name.length <= 63 && v.length - name.length <= 254;
}
export function qualifiedName(what: string, example: string) {
  return value({ type: 'string', pattern: QUALIFIED.source, description: `${what}: a qualified name like ${example}` }, (v) => {
    if (typeof v !== 'string') return new Refusal('INVALID_TYPE', 'a string');
    return isQualifiedName(v) ? v : new Refusal('INVALID_VALUE', `a qualified name like ${example}`);
  });
}

/** An object's labels: each key a qualified name (validation.IsQualifiedName), each value a label
 *  value (empty allowed). */
export const labels = z
  .record(z.string(), labelValueOrEmpty)
  .superRefine((v, ctx) => {
    const expected = 'a label key: a qualified name like node.kubernetes.io/exclude-disruption';
    for (const k of Object.keys(v)) {
      if (!isQualifiedName(k)) ctx.addIssue({ code: 'custom', path: [k], input: k, message: `expected ${expected}, got ${show(k)}`, params: { code: 'INVALID_VALUE', expected, got: show(k), atKey: true } });
    }
  });

/** `name` or `namespace/name`, normalized to "namespace/name". */
export const podRef = value({ type: 'string', description: 'pod: name (namespace default) or namespace/name' }, (v) => {
  const expected = 'a pod reference "name" or "namespace/name"';
  if (typeof v !== 'string') return new Refusal('INVALID_TYPE', expected);
  const parts = v.split('/');
  if (parts.length > 2 || parts.some((p) => !DNS_SUBDOMAIN.test(p))) return new Refusal('INVALID_VALUE', expected);
  return normalizePodRef(v);
});
