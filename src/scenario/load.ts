// Loading a scenario: YAML (with positions) → zod schema + cross-checks → Scenario, or every
// issue found, each pointing at its place in the file.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parse, parseDocument, visit, type Document } from 'yaml';
import { buildScenario } from './build.js';
import { formatPath, fromZod, type Draft, type Issue, type PathSeg } from './issues.js';
import { scenarioSchema } from './schema.js';
import { crossCheck } from './semantics.js';
import type { Scenario, SourcePos } from './types.js';

/** A load that succeeded may still carry warnings (issues with severity 'warning'); a failed one
 *  lists its errors and warnings together, in file order. */
export type LoadResult = { ok: true; scenario: Scenario; warnings?: Issue[] } | { ok: false; issues: Issue[] };

/** Values set over the file's before it is checked (a parameter sweep): a path in the document
 *  (`spec.kubelet.apiQPS` as ['spec', 'kubelet', 'apiQPS']) and a YAML value (`5`, `10s`). */
export type Overrides = ReadonlyArray<readonly [path: readonly string[], yaml: string]>;

/** Load a scenario from its text. `file` names it in issues and in the Scenario. */
export function loadScenario(text: string, file = '<string>'): LoadResult {
  return load(text, file, sha256(Buffer.from(text, 'utf8')));
}

/** Read and load a scenario file; an unreadable file is an issue like any other. */
export function loadScenarioFile(path: string, overrides: Overrides = []): LoadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String((e as Error).message);
    return { ok: false, issues: [{ code: 'FILE_NOT_FOUND', message: `cannot read ${path}: ${why}`, file: path, line: 0, col: 0, path: '' }] };
  }
  return load(bytes.toString('utf8'), path, sha256(bytes), overrides);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function load(text: string, file: string, hash: string, overrides: Overrides = []): LoadResult {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (offset: number, end?: number): Pick<Issue, 'line' | 'col' | 'endCol'> => {
    const p = lines.linePos(offset);
    const e = end === undefined ? undefined : lines.linePos(end);
    return { line: p.line, col: p.col, endCol: e && e.line === p.line && e.col > p.col ? e.col : undefined };
  };

  if (doc.errors.length > 0) {
    const issues = doc.errors.map((e): Issue => ({ code: 'YAML_SYNTAX', message: e.message, file, ...at(e.pos[0], e.pos[1]), path: '' }));
    return { ok: false, issues: tidy(issues) };
  }
  if (doc.contents === null) return { ok: false, issues: [{ code: 'EMPTY_FILE', message: 'the file holds no YAML document', file, line: 1, col: 1, path: '' }] };

  // An alias whose anchor is not set before it, or aliases that expand too far, make toJS throw:
  // they are issues of the file like any other.
  const aliasIssues: Issue[] = [];
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) === undefined) {
        const r = node.range;
        aliasIssues.push({ code: 'YAML_ALIAS', message: `unresolved alias *${node.source}: the anchor &${node.source} must be set before the alias`, file, ...(r ? at(r[0], r[1]) : { line: 1, col: 1 }), path: '' });
      }
    },
  });
  if (aliasIssues.length > 0) return { ok: false, issues: tidy(aliasIssues) };
  for (const [path, yaml] of overrides) doc.setIn(path, doc.createNode(parse(yaml)));
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    return { ok: false, issues: [{ code: 'YAML_ALIAS', message: `the document cannot be read: ${(e as Error).message}`, file, line: 1, col: 1, path: '' }] };
  }
  const drafts: Draft[] = [];
  const parsed = scenarioSchema.safeParse(data, { reportInput: true, error: annotate });
  if (!parsed.success) for (const iss of parsed.error.issues) drafts.push(...fromZod(iss));
  drafts.push(...crossCheck(data));

  const place = (path: PathSeg[], atKey = false) => {
    const r = locate(doc, path, atKey);
    return r ? at(r[0], r[1]) : { line: 1, col: 1 };
  };
  const issues = tidy(
    drafts.map((d): Issue => {
      const { atKey, path, ...rest } = d;
      return compactIssue({ ...rest, file, ...place(path, atKey), path: formatPath(path) });
    }),
  );
  if (issues.some((i) => i.severity !== 'warning') || !parsed.success) return { ok: false, issues };
  const posOf = (path: PathSeg[]): SourcePos => {
    const { line, col } = place(path);
    return { line, col };
  };
  const scenario = buildScenario({ raw: parsed.data, file, sha256: hash, posOf });
  return issues.length > 0 ? { ok: true, scenario, warnings: issues } : { ok: true, scenario };
}

/** zod's error map sees the schema that raised an issue: note what it knows on the issue (the
 *  note survives into the final issue), so messages can suggest a key or say "integer". */
function annotate(iss: { code?: string; inst?: unknown; expected?: string }): undefined {
  const def = (iss.inst as { _zod?: { def?: { shape?: object; format?: string } } })?._zod?.def;
  if (iss.code === 'unrecognized_keys' && def?.shape) (iss as { known?: string[] }).known = Object.keys(def.shape);
  if (iss.code === 'invalid_type' && iss.expected === 'number' && /int/.test(def?.format ?? '')) iss.expected = 'int';
  return undefined;
}

/** The source range [start, end) of the node at `path`: the deepest node that exists (so a
 *  missing field points at its parent map), or the key itself when `atKey`. */
function locate(doc: Document, path: PathSeg[], atKey: boolean): [number, number] | undefined {
  let node: unknown = doc.contents;
  let key: { range?: [number, number, number] | null } | undefined;
  for (const [depth, seg] of path.entries()) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      key = pair.key as typeof key;
      // `key:` with nothing after it: the key is the better place to point at.
      const empty = isScalar(pair.value) && pair.value.value === null && pair.value.range?.[0] === pair.value.range?.[1];
      node = !pair.value || empty ? pair.key : pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
      node = node.items[seg];
      key = undefined;
    } else break;
    if (atKey && key && depth === path.length - 1) node = key;
  }
  const range = (node as { range?: [number, number, number] | null } | null)?.range;
  return range ? [range[0], range[1]] : undefined;
}

function compactIssue(i: Issue): Issue {
  return Object.fromEntries(Object.entries(i).filter(([, v]) => v !== undefined)) as Issue;
}

/** In file order, each issue once. */
function tidy(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues
    .map((i, n) => ({ i, n }))
    .sort((a, b) => a.i.line - b.i.line || a.i.col - b.i.col || a.n - b.n)
    .map(({ i }) => i)
    .filter((i) => {
      const id = `${i.line}:${i.col}:${i.code}:${i.path}:${i.message}`;
      return seen.has(id) ? false : (seen.add(id), true);
    });
}
