// Upstream's time.Now() is the scenario's epoch plus virtual time. Timestamps in pod statuses are
// RFC 3339 strings in UTC: whole seconds print as `2026-01-01T00:00:05Z`, sub-second instants as
// `2026-01-01T00:00:05.250Z`. One canonical spelling per instant, so string equality is instant
// equality (what SemanticDeepEqual does for metav1.Time).

export const DEFAULT_EPOCH = '2026-01-01T00:00:00Z';

export function parseRfc3339(s: string): number | undefined {
  // Accept RFC 3339 with Z or an offset, optional fraction.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
}

let lastAbsMs = Number.NaN;
let lastText = '';
/** Whole seconds formatted, as `2026-01-01T00:00:05` (empty: not a 4-digit year), by instant. */
const secondTexts = new Map<number, string>();

/** Canonical RFC 3339 text of an absolute instant in ms. (The status manager asks for "now" many
 *  times per instant: the last answer is kept; and the instants of one second share its text.) */
export function formatRfc3339(absMs: number): string {
  if (absMs === lastAbsMs) return lastText;
  const secondMs = Math.floor(absMs / 1000) * 1000;
  let secondText = secondTexts.get(secondMs);
  if (secondText === undefined) {
    const iso = new Date(secondMs).toISOString(); // 2026-01-01T00:00:05.000Z
    secondText = iso.length === 24 && iso.endsWith('.000Z') ? iso.slice(0, 19) : '';
    if (secondTexts.size > 4096) secondTexts.clear();
    secondTexts.set(secondMs, secondText);
  }
  if (secondText === '' || !Number.isInteger(absMs)) {
    const iso = new Date(absMs).toISOString(); // 2026-01-01T00:00:05.250Z
    lastText = iso.endsWith('.000Z') ? iso.slice(0, -5) + 'Z' : iso;
  } else {
    const ms = absMs - secondMs;
    lastText = ms === 0 ? `${secondText}Z` : `${secondText}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }
  lastAbsMs = absMs;
  return lastText;
}

const truncated = new Map<string, string>();

/** Truncate an RFC 3339 string to whole seconds (normalizeStatus's RFC3339 round-trip). */
export function truncateToSeconds(s: string): string {
  // Canonical whole-second text is already truncated.
  if (s.length === 20 && s.charCodeAt(19) === 90 /* Z */) return s;
  let out = truncated.get(s);
  if (out !== undefined) return out;
  const ms = parseRfc3339(s);
  out = ms === undefined ? s : formatRfc3339(Math.floor(ms / 1000) * 1000);
  if (truncated.size > 4096) truncated.clear();
  truncated.set(s, out);
  return out;
}

export class VClock {
  readonly epochMs: number;
  constructor(readonly engine: { readonly nowMs: number }, epoch: string = DEFAULT_EPOCH) {
    const ms = parseRfc3339(epoch);
    if (ms === undefined) throw new Error(`bad epoch ${epoch}`);
    this.epochMs = ms;
  }
  get nowMs(): number {
    return this.engine.nowMs;
  }
  /** metav1.Now(): the current virtual instant as RFC 3339 (with milliseconds when not whole). */
  now(): string {
    return formatRfc3339(this.epochMs + this.engine.nowMs);
  }
  /** RFC 3339 of epoch + virtual offset ms. */
  at(virtualMs: number): string {
    return formatRfc3339(this.epochMs + virtualMs);
  }
  /** Virtual ms of an RFC 3339 instant (may be negative). */
  toVirtual(s: string): number | undefined {
    const ms = parseRfc3339(s);
    return ms === undefined ? undefined : ms - this.epochMs;
  }
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };

/** Parse a Go duration string (`250ms`, `1m30s`, `-1m`, `0`) into ms. Undefined if malformed.
 *  A bare number other than 0 is malformed: the unit would be a guess. */
export function parseDuration(s: string): number | undefined {
  const str = s.trim();
  if (str === '0') return 0;
  const m = /^([+-])?((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(str);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  let total = 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g;
  let g: RegExpExecArray | null;
  while ((g = re.exec(str)) !== null) total += parseFloat(g[1]) * UNIT_MS[g[2]];
  return sign * Math.round(total);
}

/** Render ms as a short Go-style duration (`1m30s`, `250ms`, `0s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let r = Math.abs(ms);
  let out = '';
  const h = Math.floor(r / 3600000); r -= h * 3600000;
  const m = Math.floor(r / 60000); r -= m * 60000;
  if (h) out += `${h}h`;
  if (m) out += `${m}m`;
  if (r) out += r % 1000 === 0 ? `${r / 1000}s` : h || m || r >= 1000 ? `${r / 1000}s` : `${r}ms`;
  return (neg ? '-' : '') + out;
}
