// The fast YAML reader's values (fast-yaml.ts reads the structure): plain scalars resolved as
// yaml 2.x's core schema does (yaml/dist/schema/core/*.js: null, bool, int as 0o, decimal or 0x,
// .inf/.nan, floats; everything else a string), one-line quoted scalars, folded block scalars, and
// offsets turned into places.

/** Where each container starts, and each list item (offsets into the text). */
export interface Offsets {
  starts: Map<object, number>;
  items: Map<unknown[], number[]>;
}

/** Thrown to give a text up to `yaml`. */
export const BAIL = Symbol('bail');
const INT = /^[-+]?[0-9]+$/;
const OCT = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const NAN_INF = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0' };

export function bail(): never {
  throw BAIL;
}

/** A plain scalar's value under the core schema (as yaml's resolver would give it). */
export function plainValue(s: string): unknown {
  const c = s.charCodeAt(0);
  // Only these can start a null, bool or number: the rest are strings at once.
  if (!(c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70 || c === 43 || c === 45 || c === 46 || (c >= 48 && c <= 57))) return s;
  if (s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
  if (OCT.test(s)) return parseInt(s.substring(2), 8);
  if (INT.test(s)) return parseInt(s, 10);
  if (HEX.test(s)) return parseInt(s.substring(2), 16);
  if (NAN_INF.test(s)) return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  if (FLOAT.test(s)) return parseFloat(s);
  return s;
}

/** A one-line quoted scalar at `j`: its string and the offset just past the closing quote. */
export function quoted(s: string, j: number): [string, number] {
  const q = s.charCodeAt(j);
  const nl = s.indexOf('\n', j);
  const eol = nl < 0 ? s.length : nl;
  if (q === 39) {
    let out = '';
    let k = j + 1;
    for (;;) {
      const close = s.indexOf("'", k);
      if (close < 0 || close > eol) bail();
      out += s.slice(k, close);
      if (s.charCodeAt(close + 1) !== 39) return [out, close + 1];
      out += "'";
      k = close + 2;
    }
  }
  let out = '';
  let k = j + 1;
  for (;;) {
    let m = k;
    while (m < eol && s.charCodeAt(m) !== 34 && s.charCodeAt(m) !== 92) m++;
    if (m >= eol) bail();
    out += s.slice(k, m);
    if (s.charCodeAt(m) === 34) return [out, m + 1];
    const e = s[m + 1];
    if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(m + 2, m + 6))) {
      const code = parseInt(s.slice(m + 2, m + 6), 16);
      if (code >= 0xd800 && code <= 0xdfff) bail();
      out += String.fromCharCode(code);
      k = m + 6;
    } else if (e !== undefined && e in ESCAPES) {
      out += ESCAPES[e];
      k = m + 2;
    } else bail();
  }
}


/** Folded lines: a single break between two lines becomes a space; n blank lines, n breaks. */
export function fold(lines: readonly string[]): string {
  let out = lines[0];
  let blanks = 0;
  for (let n = 1; n < lines.length; n++) {
    if (lines[n] === '') blanks++;
    else {
      out += blanks > 0 ? '\n'.repeat(blanks) + lines[n] : ` ${lines[n]}`;
      blanks = 0;
    }
  }
  return out;
}

/** The offset of the node at `path` (a container, or an item of a list), if the reader noted it
 *  and the path is there. */
export function offsetOf(data: unknown, offsets: Offsets, path: readonly (string | number)[]): number | undefined {
  let v: unknown = data;
  let parent: unknown;
  for (const seg of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, seg)) return undefined;
    parent = v;
    v = (v as Record<string | number, unknown>)[seg];
  }
  if (v !== null && typeof v === 'object') return offsets.starts.get(v);
  return Array.isArray(parent) ? offsets.items.get(parent)?.[path[path.length - 1] as number] : undefined;
}

/** Offset → 1-based line and column (as yaml's LineCounter counts them: UTF-16 units). */
export function lineColOf(text: string): (offset: number) => { line: number; col: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  };
}
