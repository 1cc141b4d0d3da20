// Loading a scenario: YAML (strict 1.2, with positions) → zod schema + cross-checks + the
// Kubernetes Pod schema → Scenario, or every issue found (the first MAX_ISSUES of them), each
// pointing at its place in the file. Every step is linear in the size of the document.
import { createHash } from 'node:crypto';
import { buildScenario } from './build.js';
import { formatPath, fromZod, type Draft, type Issue, type PathSeg } from './issues.js';
import { checkPodFields } from './k8s/podcheck.js';
import { fastParse, lineColOf, offsetOf } from './fast-yaml.js';
import { locator } from './locate.js';
import { readScenarioText, tooLarge } from './read.js';
import { plainScenarioSchema } from './plain-schema.js';
import { scenarioSchema } from './schema.js';
import { crossCheck } from './semantics.js';
import type { Scenario, SourcePos } from './types.js';
import { MAX_FILE_BYTES, parseYaml, yamlLib } from './yaml.js';

/** A load that succeeded may still carry warnings (issues with severity 'warning'); a failed one
 *  lists its errors and warnings together, in file order. On failure, `text` is the file's text when it could be read (for code frames: a caller need
 *  not read the file again, which for a FIFO or a device would block). */
export type LoadResult = { ok: true; scenario: Scenario; warnings?: Issue[] } | { ok: false; issues: Issue[]; text?: string };

/** At most this many issues are listed; one more says how many were left out. */
export const MAX_ISSUES = 100;

/** Values set over the file's before it is checked (a parameter sweep): a path in the document
 *  (`spec.kubelet.apiQPS` as ['spec', 'kubelet', 'apiQPS']) and a YAML value (`5`, `10s`). */
export type Overrides = ReadonlyArray<readonly [path: readonly string[], yaml: string]>;

/** Load a scenario from its text. `file` names it in issues and in the Scenario. `fast: false`
 *  reads it with the `yaml` library even when the fast reader could (the tests compare the two). */
export function loadScenario(text: string, file = '<string>', opts: { fast?: boolean } = {}): LoadResult {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_FILE_BYTES) return { ok: false, issues: [tooLarge(file, bytes.length)] };
  return load(text, file, sha256(bytes), [], opts.fast ?? true);
}

/** Read and load a scenario file; an unreadable file is an issue like any other. */
export function loadScenarioFile(path: string, overrides: Overrides = []): LoadResult {
  const r = readScenarioText(path);
  if ('issue' in r) return { ok: false, issues: [r.issue] };
  return loadScenarioRead(r.text, path, sha256(r.bytes), overrides);
}

/** Load a file already read (readScenarioText) whose bytes hash to `hash` (sha256, hex). */
export function loadScenarioRead(text: string, path: string, hash: string, overrides: Overrides = []): LoadResult {
  const result = load(text, path, hash, overrides);
  return result.ok ? result : { ...result, text };
}

/** sha256 of bytes (or of a string's UTF-8), in hex. */
export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function load(text: string, file: string, hash: string, overrides: Overrides = [], fast = true): LoadResult {
  if (fast && overrides.length === 0) {
    const fast = fastLoad(text, file, hash);
    if (fast) return fast;
  }
  const y = parseYaml(text, file);
  if (!y.ok) return { ok: false, issues: tidy(y.issues, file) };
  const { doc, at } = y;
  for (const [path, yaml] of overrides) doc.setIn(path, doc.createNode(yamlLib().parse(yaml)));

  // Aliases that expand too far make toJS throw: an issue of the file like any other.
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    return { ok: false, issues: [{ code: 'YAML_ALIAS', message: `the document cannot be read: ${(e as Error).message.split('\n')[0]}`, file, line: 1, col: 1, path: '' }] };
  }
  const parsed = scenarioSchema.safeParse(data, { reportInput: true, error: annotate });
  const own = [...checkPodFields(data), ...crossCheck(data)];
  // The Pod schema and zod may both refuse one value: say it once, in the Pod schema's words.
  const taken = new Set(own.map((d) => formatPath(d.path)));
  const drafts: Draft[] = [];
  if (!parsed.success) for (const iss of parsed.error.issues) for (const d of fromZod(iss)) if (!taken.has(formatPath(d.path))) drafts.push(d);
  drafts.push(...own);

  const locate = locator(doc);
  const place = (path: PathSeg[], atKey = false) => {
    const r = locate(path, atKey);
    return r ? at(r[0], r[1]) : { line: 1, col: 1 };
  };
  const issues = tidy(
    drafts.map((d): Issue => {
      const { atKey, path, ...rest } = d;
      return compactIssue({ ...rest, file, ...place(path, atKey), path: formatPath(path) });
    }),
    file,
  );
  if (issues.some((i) => i.severity !== 'warning') || !parsed.success) return { ok: false, issues };
  const posOf = (path: PathSeg[]): SourcePos => {
    const { line, col } = place(path);
    return { line, col };
  };
  const scenario = buildScenario({ raw: parsed.data, file, sha256: hash, posOf });
  return issues.length > 0 ? { ok: true, scenario, warnings: issues } : { ok: true, scenario };
}

/** The fast path: a file in the plain subset of YAML (fast-yaml.ts) that passes every check
 *  loads without the `yaml` library. Anything else (a file outside the subset, any issue, even a
 *  warning) is undefined, and load() reads the file again the full way, so what is reported and
 *  where is exactly as before. Places come from the fast reader's offsets; a path it does not
 *  know is found in the `yaml` document, parsed only then. */
function fastLoad(text: string, file: string, hash: string): LoadResult | undefined {
  const fast = fastParse(text);
  if (!fast) return undefined;
  const { data, offsets } = fast;
  const parsed = plainScenarioSchema.safeParse(data);
  if (!parsed.success || checkPodFields(data).length > 0 || crossCheck(data).length > 0) return undefined;
  const lineCol = lineColOf(text);
  let slow: ((path: PathSeg[]) => SourcePos) | undefined;
  const posOf = (path: PathSeg[]): SourcePos => {
    const offset = offsetOf(data, offsets, path);
    if (offset !== undefined) return lineCol(offset);
    slow ??= slowPlaces(text, file);
    return slow(path);
  };
  return { ok: true, scenario: buildScenario({ raw: parsed.data, file, sha256: hash, posOf }) };
}

/** Places found in the `yaml` document, as load() finds them. */
function slowPlaces(text: string, file: string): (path: PathSeg[]) => SourcePos {
  const y = parseYaml(text, file);
  if (!y.ok) return () => ({ line: 1, col: 1 });
  const locate = locator(y.doc);
  return (path) => {
    const r = locate(path, false);
    const { line, col } = r ? y.at(r[0]) : { line: 1, col: 1 };
    return { line, col };
  };
}

/** zod's error map sees the schema that raised an issue: note what it knows on the issue (the
 *  note survives into the final issue), so messages can suggest a key or say "integer". */
function annotate(iss: { code?: string; inst?: unknown; expected?: string }): undefined {
  const def = (iss.inst as { _zod?: { def?: { shape?: object; format?: string } } })?._zod?.def;
  if (iss.code === 'unrecognized_keys' && def?.shape) (iss as { known?: string[] }).known = Object.keys(def.shape);
  if (iss.code === 'invalid_type' && iss.expected === 'number' && /int/.test(def?.format ?? '')) iss.expected = 'int';
  return undefined;
}

/** Undefined fields dropped; text echoed from the file cut to a bounded length. */
function compactIssue(i: Issue): Issue {
  const cut = (v: unknown) => (typeof v === 'string' && v.length > 2000 ? `${v.slice(0, 2000)}… (${v.length - 2000} more characters)` : v);
  return Object.fromEntries(Object.entries(i).flatMap(([k, v]) => (v === undefined ? [] : [[k, cut(v)]]))) as unknown as Issue;
}

/** In file order, each issue once, at most MAX_ISSUES (then one saying how many more). */
function tidy(issues: Issue[], file: string): Issue[] {
  const seen = new Set<string>();
  const out = issues
    .map((i, n) => ({ i, n }))
    .sort((a, b) => a.i.line - b.i.line || a.i.col - b.i.col || a.n - b.n)
    .map(({ i }) => i)
    .filter((i) => {
      const id = `${i.line}:${i.col}:${i.code}:${i.path}:${i.message}`;
      return seen.has(id) ? false : (seen.add(id), true);
    });
  if (out.length <= MAX_ISSUES) return out;
  const next = out[MAX_ISSUES];
  const more = out.length - MAX_ISSUES;
  return [
    ...out.slice(0, MAX_ISSUES),
    { code: 'MORE_ISSUES', message: `and ${more} more issue${more === 1 ? '' : 's'} (only the first ${MAX_ISSUES} are listed; the next one is here)`, file, line: next.line, col: next.col, path: next.path },
  ];
}
