// Reading the YAML of a scenario, strictly YAML 1.2 with the core schema: one document, no
// `%YAML`/`%TAG` directives, only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map,
// !!seq), scalar keys only, nesting at most MAX_DEPTH deep. These are checked on the parser's
// token tree, without recursion, before the document is composed: so input nested thousands deep
// is refused with a position rather than overflowing a stack later on.
import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as YamlLib from 'yaml';
import type { CST, Document, LineCounter } from 'yaml';
import { clip, type Issue } from './issues.js';

let lib: typeof YamlLib | undefined;
/** The `yaml` library, loaded the first time a file needs it: a file the fast reader takes
 *  (fast-yaml.ts) never does, and a cold `kss run` of one does not pay for loading it. */
export function yamlLib(): typeof YamlLib {
  return (lib ??= createRequire(import.meta.url)('yaml') as typeof YamlLib);
}

/** The largest scenario file read (bytes); larger ones are refused before they are parsed. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** The deepest nesting of maps and lists accepted (a Pod manifest needs about 15). */
export const MAX_DEPTH = 64;

const CORE_TAGS = new Set(['!', '!!str', '!!int', '!!float', '!!bool', '!!null', '!!map', '!!seq']);

export type Placer = (offset: number, end?: number) => Pick<Issue, 'line' | 'col' | 'endCol'>;

export function placer(lines: LineCounter): Placer {
  return (offset, end) => {
    const p = lines.linePos(offset);
    const e = end === undefined ? undefined : lines.linePos(end);
    return { line: p.line, col: p.col, endCol: e && e.line === p.line && e.col > p.col ? e.col : undefined };
  };
}

export type YamlResult = { ok: true; doc: Document.Parsed; at: Placer } | { ok: false; issues: Issue[] };

export function parseYaml(text: string, file: string): YamlResult {
  const { Composer, LineCounter, Parser } = yamlLib();
  const lines = new LineCounter();
  const at = placer(lines);
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const issue = (code: string, message: string, offset: number, end?: number): Issue => ({ code, message, file, ...at(offset, end), path: '' });
  const strict = checkTokens(tokens, issue);
  if (strict.length > 0) return { ok: false, issues: strict };

  // The library's own duplicate-key check scans the map for every key (quadratic in a map's
  // size): keys are checked below instead, with a set per map.
  const docs = [...new Composer({ version: '1.2', schema: 'core', prettyErrors: false, uniqueKeys: false }).compose(tokens.splice(0), true, text.length)];
  // (The token tree is let go as it is composed: the document keeps no reference to it.)
  if (docs.length === 0 || (docs.length === 1 && docs[0].contents === null && docs[0].errors.length === 0))
    return { ok: false, issues: [{ code: 'EMPTY_FILE', message: 'the file holds no YAML document', file, line: 1, col: 1, path: '' }] };
  if (docs.length > 1) {
    const start = docs[1].range[0];
    return { ok: false, issues: [issue('MULTIPLE_DOCUMENTS', 'a scenario file holds one YAML document; this is the start of a second one (after "---"): put each scenario in a file of its own', start)] };
  }
  const doc = docs[0];
  const errors = [...doc.errors, ...doc.warnings];
  if (errors.length > 0) return { ok: false, issues: errors.map((e) => issue('YAML_SYNTAX', e.message.split('\n')[0], e.pos[0], e.pos[1])) };
  const dups = duplicateKeys(doc, issue);
  if (dups.length > 0) return { ok: false, issues: dups };
  return { ok: true, doc, at };
}

/** Keys given twice in one map (each map's keys in a set) and unresolved aliases, in one pass
 *  over the document. */
function duplicateKeys(doc: Document.Parsed, issue: Issuer): Issue[] {
  const { isAlias, isMap, isScalar, isSeq } = yamlLib();
  const out: Issue[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0 && out.length < 1000) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? pair.key.value : pair.key;
        const id = typeof k === 'string' ? `s:${k}` : typeof k === 'number' || typeof k === 'boolean' || k === null ? `${typeof k}:${String(k)}` : k;
        if (seen.has(id)) {
          const r = (pair.key as { range?: [number, number, number] } | null)?.range;
          out.push(issue('YAML_SYNTAX', `Map keys must be unique: ${clip(String(k))} is given twice in this map`, r?.[0] ?? 0, r?.[1]));
        }
        seen.add(id);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) for (const item of node.items) stack.push(item);
    else if (isAlias(node) && node.resolve(doc) === undefined) {
      // An alias whose anchor is not set before it would make toJS throw.
      const [r, name] = [node.range, node.source.length <= 60 ? node.source : clip(node.source)];
      out.push(issue('YAML_ALIAS', `unresolved alias *${name}: the anchor &${name} must be set before the alias`, r?.[0] ?? 0, r?.[1]));
    }
  }
  return out;
}

type Issuer = (code: string, message: string, offset: number, end?: number) => Issue;
type Item = { start?: CST.SourceToken[]; key?: CST.Token | null; sep?: CST.SourceToken[]; value?: CST.Token };

/** Directives, tags, collection keys and depth, over the token tree with an explicit stack. */
function checkTokens(tokens: CST.Token[], issue: Issuer): Issue[] {
  const out: Issue[] = [];
  const props = (list: readonly CST.Token[] | undefined) => {
    for (const t of list ?? []) {
      if (t.type === 'tag' && !CORE_TAGS.has(t.source))
        out.push(
          issue(
            'YAML_TAG',
            `the tag ${clip(t.source)} is not part of YAML 1.2's core schema (only !!str, !!int, !!float, !!bool, !!null, !!map, !!seq): write the value plainly`,
            t.offset,
            t.offset + t.source.length,
          ),
        );
    }
  };
  const stack: Array<[CST.Token, number]> = [];
  for (const t of tokens) {
    if (t.type === 'directive') {
      out.push(issue('YAML_DIRECTIVE', `the directive ${clip(t.source)} is not accepted: a scenario is YAML 1.2 (core schema) and needs no directive`, t.offset, t.offset + t.source.length));
    } else if (t.type === 'document') {
      props(t.start);
      if (t.value) stack.push([t.value, 1]);
    }
  }
  while (stack.length > 0) {
    const [t, depth] = stack.pop()!;
    if (t.type === 'block-scalar') props(t.props);
    if (t.type !== 'block-map' && t.type !== 'block-seq' && t.type !== 'flow-collection') continue;
    if (depth > MAX_DEPTH) {
      out.push(issue('TOO_DEEP', `maps and lists are nested more than ${MAX_DEPTH} deep here; a scenario needs far fewer levels`, t.offset));
      break;
    }
    for (const item of t.items as Item[]) {
      props(item.start);
      props(item.sep);
      if (item.key && (item.key.type === 'block-map' || item.key.type === 'block-seq' || item.key.type === 'flow-collection'))
        out.push(issue('YAML_KEY', 'a map key must be a plain value (a string or a number), not a map or a list', item.key.offset));
      else if (item.key) stack.push([item.key, depth + 1]);
      if (item.value) stack.push([item.value, depth + 1]);
    }
    if (out.length > 1000) break;
  }
  return out;
}

/** The first byte that is not valid UTF-8, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  if (isUtf8(b)) return -1;
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= b.length) return i;
    for (let k = 1; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    if (n === 2 && ((c === 0xe0 && b[i + 1] < 0xa0) || (c === 0xed && b[i + 1] > 0x9f))) return i;
    if (n === 3 && ((c === 0xf0 && b[i + 1] < 0x90) || (c === 0xf4 && b[i + 1] > 0x8f))) return i;
    i += n + 1;
  }
  return -1;
}
