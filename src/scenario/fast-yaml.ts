// A fast reader for the plain subset of YAML that scenario files are written in (what kss's
// generators write, and most hand-written files): block maps and lists, one-line flow maps and
// lists, plain and quoted one-line scalars, `>`/`|` block scalars (clip or strip), comments.
// It gives the same data as the `yaml` library's parse + toJS with the core schema, and the
// offsets of containers and list items. Anything outside the subset, anything doubtful, and every
// error make it give up (return undefined): the caller then reads the file with `yaml`, which
// says exactly what is wrong and where. So it never decides what a file means on its own; a test
// (test/scenario/fast-yaml.test.ts) compares its data and offsets with `yaml`'s on every scenario
// in the repository and on mutated and generated texts.
//
// Scalars, places and block-scalar folding: fast-yaml-values.ts.
import { BAIL, bail, fold, plainValue, quoted, type Offsets } from './fast-yaml-values.js';

export { lineColOf, offsetOf, plainValue, type Offsets } from './fast-yaml-values.js';

export interface FastDoc {
  data: Record<string, unknown>;
  offsets: Offsets;
}

/** The deepest nesting read here (the loader refuses more than 64; deeper files go to `yaml`). */
const DEPTH = 60;
/** Characters that make a file go to `yaml` wherever they are: controls (tabs too), CR, BOM, and
 *  the separators YAML treats as line breaks in places. */
const UNUSUAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\u2028\u2029]/;
const KEY = /[A-Za-z_$][A-Za-z0-9_.\/$-]*/y;

/** The data and offsets of `text`, or undefined when `yaml` must read it. */
export function fastParse(text: string): FastDoc | undefined {
  if (UNUSUAL.test(text)) return undefined;
  try {
    return new Reader(text).document();
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

class Reader {
  private i = 0;
  private depth = 0;
  readonly offsets: Offsets = { starts: new Map(), items: new Map() };
  constructor(private readonly s: string) {}

  document(): FastDoc {
    const at = this.nextLine();
    if (at < 0 || this.indentOf(at) !== 0) bail();
    const data = this.blockMap(0, at);
    if (this.nextLine() >= 0) bail();
    return { data, offsets: this.offsets };
  }

  /** From the start of a line, past blank and comment-only lines: the offset of the next line's
   *  first character (this.i at its line start), or -1 at the end. A document marker gives up. */
  private nextLine(): number {
    const s = this.s;
    for (;;) {
      const start = this.i;
      if (start >= s.length) return -1;
      let j = start;
      while (s.charCodeAt(j) === 32) j++;
      const c = s.charCodeAt(j);
      if (j < s.length && c !== 10 && c !== 35) {
        if (j === start && (s.startsWith('---', j) || s.startsWith('...', j) || c === 37)) bail();
        return j;
      }
      const nl = s.indexOf('\n', j);
      this.i = nl < 0 ? s.length : nl + 1;
    }
  }

  private indentOf(at: number): number {
    return at - this.i;
  }

  /** The rest of the line from `j` is spaces and maybe a comment: go to the next line. */
  private endLine(j: number): void {
    const s = this.s;
    while (s.charCodeAt(j) === 32) j++;
    if (j < s.length && s.charCodeAt(j) !== 10) {
      if (s.charCodeAt(j) !== 35 || s.charCodeAt(j - 1) !== 32) bail();
      j = s.indexOf('\n', j);
      if (j < 0) j = s.length;
    }
    this.i = j + 1;
  }

  private enter(): void {
    if (++this.depth > DEPTH) bail();
  }

  /** A map whose keys start at column `col`; the first key at `at` (maybe mid-line, after `- `). */
  private blockMap(col: number, at: number): Record<string, unknown> {
    this.enter();
    const out: Record<string, unknown> = {};
    this.offsets.starts.set(out, at);
    for (;;) {
      const [key, colon] = this.key(at, false);
      if (key === '__proto__' || Object.hasOwn(out, key)) bail();
      out[key] = this.mapValue(col, colon + 1);
      const next = this.nextLine();
      if (next < 0) break;
      const ind = this.indentOf(next);
      if (ind < col) break;
      if (ind > col || this.s.charCodeAt(next) === 45) bail();
      at = next;
    }
    this.depth--;
    return out;
  }

  /** A key at `at` and the offset of its `:` (followed by a space or the end of the line). */
  private key(at: number, flow: boolean): [string, number] {
    const s = this.s;
    let key: string;
    let end: number;
    const c = s.charCodeAt(at);
    if (c === 34 || c === 39) [key, end] = quoted(this.s, at);
    else {
      KEY.lastIndex = at;
      if (!KEY.test(s)) bail();
      end = KEY.lastIndex;
      key = s.slice(at, end);
      if (plainValue(key) !== key) bail(); // null, true, false: not string keys
    }
    const after = s.charCodeAt(end + 1);
    if (s.charCodeAt(end) !== 58 || !(after === 32 || (!flow && (after === 10 || end + 1 >= s.length)))) bail();
    return [key, end];
  }

  /** The value after `key:` (from `j`, just past the colon) of a map at column `col`. */
  private mapValue(col: number, j: number): unknown {
    const s = this.s;
    while (s.charCodeAt(j) === 32) j++;
    const c = s.charCodeAt(j);
    if (j >= s.length || c === 10 || c === 35) {
      if (c === 35 && s.charCodeAt(j - 1) !== 32) bail();
      this.endLine(j);
      const next = this.nextLine();
      if (next < 0) return null;
      const ind = this.indentOf(next);
      if (ind > col) return this.blockNode(ind, next);
      if (ind === col && s.charCodeAt(next) === 45 && this.isDash(next)) return this.blockSeq(col, next);
      return null;
    }
    return this.inlineValue(col, j);
  }

  /** A value on its own line(s) at column `col`: a map or a list. */
  private blockNode(col: number, at: number): unknown {
    if (this.s.charCodeAt(at) === 45 && this.isDash(at)) return this.blockSeq(col, at);
    return this.blockMap(col, at);
  }

  private isDash(at: number): boolean {
    const n = this.s.charCodeAt(at + 1);
    return n === 32 || n === 10 || at + 1 >= this.s.length;
  }

  /** A list whose dashes are at column `col`, the first at `at`. */
  private blockSeq(col: number, at: number): unknown[] {
    this.enter();
    const s = this.s;
    const out: unknown[] = [];
    const items: number[] = [];
    this.offsets.starts.set(out, at);
    this.offsets.items.set(out, items);
    for (;;) {
      let j = at + 1;
      while (s.charCodeAt(j) === 32) j++;
      const c = s.charCodeAt(j);
      if (j >= s.length || c === 10 || c === 35) bail(); // `-` alone: the item on the next lines
      items.push(j);
      const itemCol = col + (j - at);
      if (c === 45 && this.isDash(j)) out.push(this.blockSeq(itemCol, j));
      else if (this.looksLikeKey(j)) out.push(this.blockMap(itemCol, j));
      else out.push(this.inlineValue(col, j));
      const next = this.nextLine();
      if (next < 0) break;
      const ind = this.indentOf(next);
      if (ind < col) break;
      if (ind > col || s.charCodeAt(next) !== 45 || !this.isDash(next)) bail();
      at = next;
    }
    this.depth--;
    return out;
  }

  /** Whether a key and `: ` start at `j` (a quoted key, or a plain key that is a whole word). */
  private looksLikeKey(j: number): boolean {
    const s = this.s;
    const c = s.charCodeAt(j);
    if (c === 34 || c === 39) {
      const close = s.indexOf(String.fromCharCode(c), j + 1);
      // (a quoted item with a colon after it is taken as a key; key() checks the rest)
      return close > 0 && s.charCodeAt(close + 1) === 58 && s.lastIndexOf('\n', close) < j;
    }
    KEY.lastIndex = j;
    if (!KEY.test(s)) return false;
    const end = KEY.lastIndex;
    const after = s.charCodeAt(end + 1);
    return s.charCodeAt(end) === 58 && (after === 32 || after === 10 || end + 1 >= s.length);
  }

  /** A value that starts on this line at `j` and ends it (a scalar, a flow collection or a block
   *  scalar's header); `col` is the column of the collection it belongs to. */
  private inlineValue(col: number, j: number): unknown {
    const s = this.s;
    const c = s.charCodeAt(j);
    let v: unknown;
    let end: number;
    if (c === 123 || c === 91) [v, end] = this.flow(j);
    else if (c === 34 || c === 39) [v, end] = quoted(this.s, j);
    else if (c === 62 || c === 124) return this.blockScalar(col, j);
    else [v, end] = this.plain(j, false);
    this.endLine(end);
    return v;
  }

  /** A plain scalar from `j`: in block context to the end of the line or ` #`; in flow context
   *  also to `,[]{}`. A `: ` inside (a key where a value belongs) gives up. */
  private plain(j: number, flow: boolean): [unknown, number] {
    const s = this.s;
    const c = s.charCodeAt(j);
    // Indicators that cannot start a plain scalar (or start one only in ways not read here).
    if (c === 35 || c === 38 || c === 42 || c === 33 || c === 37 || c === 64 || c === 96 || c === 124 || c === 62 || c === 44 || c === 93 || c === 125 || c === 63 || c === 58) bail();
    if (c === 45 && (s.charCodeAt(j + 1) === 32 || s.charCodeAt(j + 1) === 10)) bail();
    let k = j;
    let last = j; // one past the last non-space character
    for (; k < s.length; k++) {
      const ch = s.charCodeAt(k);
      if (ch === 10) break;
      if (ch === 32) continue;
      if (ch === 35 && s.charCodeAt(k - 1) === 32) break;
      if (ch === 58) {
        const n = s.charCodeAt(k + 1);
        if (n === 32 || n === 10 || k + 1 >= s.length || (flow && (n === 44 || n === 91 || n === 93 || n === 123 || n === 125))) bail();
      }
      if (flow && (ch === 44 || ch === 91 || ch === 93 || ch === 123 || ch === 125)) break;
      last = k + 1;
    }
    return [plainValue(s.slice(j, last)), last];
  }

  /** A flow map or list at `j` that closes on the same line: its data and the offset past it. */
  private flow(j: number): [unknown, number] {
    this.enter();
    const s = this.s;
    const isMap = s.charCodeAt(j) === 123;
    const close = isMap ? 125 : 93;
    const out: Record<string, unknown> | unknown[] = isMap ? {} : [];
    this.offsets.starts.set(out, j);
    const items: number[] = [];
    if (!isMap) this.offsets.items.set(out as unknown[], items);
    let k = this.space(j + 1);
    if (s.charCodeAt(k) === close) return this.flowEnd(out, k);
    for (;;) {
      let v: unknown;
      if (isMap) {
        const [key, colon] = this.key(k, true);
        if (key === '__proto__' || Object.hasOwn(out, key)) bail();
        [v, k] = this.flowNode(this.space(colon + 1));
        (out as Record<string, unknown>)[key] = v;
      } else {
        items.push(k);
        [v, k] = this.flowNode(k);
        (out as unknown[]).push(v);
      }
      k = this.space(k);
      const c = s.charCodeAt(k);
      if (c === close) return this.flowEnd(out, k);
      if (c !== 44) bail();
      k = this.space(k + 1);
      if (s.charCodeAt(k) === close) bail(); // a trailing comma
    }
  }

  private flowEnd(out: unknown, k: number): [unknown, number] {
    this.depth--;
    return [out, k + 1];
  }

  private flowNode(k: number): [unknown, number] {
    const c = this.s.charCodeAt(k);
    if (c === 123 || c === 91) return this.flow(k);
    if (c === 34 || c === 39) return quoted(this.s, k);
    if (c === 10 || k >= this.s.length) bail();
    return this.plain(k, true);
  }

  /** Past spaces on this line (a line break or a comment inside a flow collection gives up). */
  private space(k: number): number {
    while (this.s.charCodeAt(k) === 32) k++;
    const c = this.s.charCodeAt(k);
    if (c === 10 || c === 35 || k >= this.s.length) bail();
    return k;
  }

  /** `>`, `>-`, `|` or `|-` at `j`, in a collection at column `col`: the lines below it that are
   *  indented alike (more indented lines and leading blank lines give up). */
  private blockScalar(col: number, j: number): string {
    const s = this.s;
    const folded = s.charCodeAt(j) === 62;
    const strip = s.charCodeAt(j + 1) === 45;
    this.endLine(j + (strip ? 2 : 1));
    const lines: string[] = [];
    let indent = -1;
    while (this.i < s.length) {
      const start = this.i;
      const nl = s.indexOf('\n', start);
      const end = nl < 0 ? s.length : nl;
      let k = start;
      while (s.charCodeAt(k) === 32) k++;
      if (k === end) {
        if (indent < 0 || k - start > indent) bail(); // leading blank line, or spaces as content
        lines.push('');
      } else {
        const ind = k - start;
        if (indent < 0) {
          if (ind <= col) bail(); // an empty block scalar
          indent = ind;
        }
        if (ind < indent) {
          if (ind > col) bail();
          break;
        }
        if (ind > indent) bail();
        lines.push(s.slice(k, end));
      }
      this.i = end + 1;
    }
    if (indent < 0) bail();
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    // The loop ended on the next content line's start (or the end): nextLine() picks up there.
    if (this.i > s.length) this.i = s.length;
    const body = folded ? fold(lines) : lines.join('\n');
    return strip ? body : `${body}\n`;
  }
}
