// Issues: bad input, collected rather than thrown. A zod issue or one of our own checks becomes a
// Draft (code, message, path); the loader then finds its place in the YAML and makes it an Issue.
import type { core } from 'zod';
import { MISSING, show } from './schema-values.js';

/** One problem in a scenario file, positioned like a compiler diagnostic. */
export interface Issue {
  code: string;
  message: string;
  file: string;
  line: number; // 1-based; 0 when the issue has no place in the text (FILE_NOT_FOUND)
  col: number; // 1-based
  /** One past the last column to underline, when the offending text sits on one line. */
  endCol?: number;
  /** Where in the document, e.g. spec.pods[1].spec.restartPolicy ("" for the whole file). */
  path: string;
  expected?: string;
  got?: string;
  /** 'warning' does not fail the load (rendered `warning CODE at path`); absent means 'error'. */
  severity?: 'warning';
}

export type PathSeg = string | number;

/** An issue before it has a position. `atKey` points it at the map key rather than its value. */
export interface Draft {
  code: string;
  message: string;
  path: PathSeg[];
  expected?: string;
  got?: string;
  atKey?: boolean;
  severity?: 'warning';
}

/** At most 60 characters of untrusted text, for a message. */
export function clip(s: string, max = 60): string {
  const q = JSON.stringify(s.length > max ? s.slice(0, max) : s);
  return s.length > max ? `${q}… (${s.length} characters)` : q;
}

/** `spec.pods[1].metadata.name`; keys that are not plain words are quoted: `annotations["a/b"]`. */
export function formatPath(path: readonly PathSeg[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment), in
 *  three rolling rows; past `limit` it stops and returns limit + 1. */
function editDistance(a: string, b: string, limit = 3): number {
  let prev2 = new Int32Array(b.length + 1);
  let prev = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[b.length];
}

/** The candidate closest to `word`, if it is near enough to be a likely typo. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  if (word.length > 100) return undefined; // no typo of a name is that long; and it bounds the cost
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) > 3) continue; // farther than any suggestion
    const d = editDistance(word.toLowerCase(), c.toLowerCase(), Math.min(3, bestD));
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.min(3, Math.floor(best.length / 3))) ? best : undefined;
}

export const suggest = (word: string, candidates: Iterable<string>): string => {
  const s = didYouMean(word, candidates);
  return s === undefined ? '' : `; did you mean "${s}"?`;
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'a map',
  record: 'a map',
  array: 'a list',
};

/** What an unknown key in a map at `path` is, by where the map sits. */
function unknownKeyCode(path: PathSeg[]): [code: string, what: string] {
  const p = formatPath(path);
  if (/^spec\.timeline\[\d+\]$/.test(p)) return ['UNKNOWN_ACTION', 'action'];
  if (/^spec\.expect\[\d+\]$/.test(p)) return ['UNKNOWN_ASSERTION', 'assertion kind'];
  if (p === 'spec.kubelet.featureGates') return ['UNKNOWN_KEY', 'feature gate'];
  return ['UNKNOWN_KEY', 'key'];
}

type ZodIssue = core.$ZodIssue & { input?: unknown; known?: string[]; params?: Record<string, unknown> };

/** Turn one zod issue (with `reportInput` on) into drafts. */
export function fromZod(iss: ZodIssue, prefix: PathSeg[] = []): Draft[] {
  const path = [...prefix, ...(iss.path as PathSeg[])];
  const missing = !('input' in iss) || iss.input === undefined;
  const got = show(iss.input);
  switch (iss.code) {
    case 'custom': {
      const p = iss.params ?? {};
      const code = typeof p.code === 'string' ? p.code : 'INVALID_VALUE';
      if (code === 'MISSING_FIELD') return [missingField(path, p.expected as string | undefined, iss.message)];
      return [{ code, message: iss.message, path, expected: p.expected as string | undefined, got: p.got as string | undefined, atKey: p.atKey === true }];
    }
    case 'invalid_type': {
      const expected = TYPE_NAMES[iss.expected] ?? iss.expected;
      if (missing) return [missingField(path, expected)];
      return [{ code: 'INVALID_TYPE', message: `expected ${expected}, got ${got}`, path, expected, got }];
    }
    case 'invalid_value': {
      const values = iss.values.map((v) => JSON.stringify(v));
      const expected = values.join(' | ');
      if (missing) return [missingField(path, expected)];
      // A long list reads better as a suggestion than spelled out.
      const message =
        values.length > 5 && typeof iss.input === 'string'
          ? `unknown value ${got}${suggest(iss.input, iss.values.map(String))}`
          : `expected ${expected}, got ${got}`;
      return [{ code: 'INVALID_VALUE', message, path, expected, got }];
    }
    case 'unrecognized_keys': {
      const [code, what] = unknownKeyCode(path);
      return iss.keys.map((key) => ({
        code,
        message: `unknown ${what} ${clip(key)}${suggest(key, iss.known ?? [])}`,
        path: [...path, key],
        expected: iss.known?.map((k) => `"${k}"`).join(' | '),
        got: clip(key),
        atKey: true,
      }));
    }
    case 'invalid_union': {
      // Follow the branch the value's kind was meant for: the first one that did not reject
      // the value's type outright. When every branch did, it is a plain type error.
      const rejectsKind = (b: ZodIssue) =>
        b.path.length === 0 && (b.code === 'invalid_type' || (b.code === 'invalid_value' && typeof b.input === 'object' && b.input !== null));
      const fits = iss.errors.find((branch) => !branch.some((b) => rejectsKind(b as ZodIssue)));
      if (fits) return fits.flatMap((b) => fromZod(b as ZodIssue, path));
      const expected = iss.errors
        .map(([b]) => (b?.code === 'invalid_type' ? (TYPE_NAMES[b.expected] ?? b.expected) : b?.code === 'invalid_value' ? b.values.map((v) => JSON.stringify(v)).join(' | ') : '?'))
        .join(' or ');
      if (missing) return [missingField(path, expected)];
      return [{ code: 'INVALID_TYPE', message: `expected ${expected}, got ${got}`, path, expected, got }];
    }
    case 'too_small':
    case 'too_big': {
      const bound = Number(iss.code === 'too_small' ? iss.minimum : iss.maximum);
      const op = iss.code === 'too_small' ? (iss.inclusive ? '>=' : '>') : iss.inclusive ? '<=' : '<';
      const expected =
        iss.origin === 'array'
          ? `${iss.code === 'too_small' ? 'at least' : 'at most'} ${bound} item${bound === 1 ? '' : 's'}`
          : iss.origin === 'string'
            ? `${iss.code === 'too_small' ? 'at least' : 'at most'} ${bound} character${bound === 1 ? '' : 's'}`
            : `a number ${op} ${bound}`;
      return [{ code: 'INVALID_VALUE', message: `expected ${expected}, got ${got}`, path, expected, got }];
    }
    default:
      return [{ code: 'INVALID_VALUE', message: iss.message, path, got: missing ? undefined : got }];
  }
}

function missingField(path: PathSeg[], expected?: string, message?: string): Draft {
  const field = path[path.length - 1];
  const text = message && message !== MISSING ? message : `missing required field "${field}"${expected ? `; expected ${expected}` : ''}`;
  return { code: 'MISSING_FIELD', message: text, path, expected };
}
