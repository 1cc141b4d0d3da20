// Strict Pod validation: every Pod manifest and every PodStatus a step or an assertion carries is
// checked against the Kubernetes v1 schema (pod-schema.data.ts, generated from kubernetes-models'
// OpenAPI definitions): unknown fields, wrong types and values outside an enum, as kubectl's strict
// field validation does. Required fields are not checked (the apiserver defaults most of them, and
// a status pattern names only what it matches). The schema is compiled once per process; a check
// is one walk over the value, linear in its size.
import { clip, formatPath, suggest, type Draft, type PathSeg } from '../issues.js';
import { show } from '../schema-values.js';
import { parseRfc3339 } from '../../model/time.js';
import { POD_TYPES } from './pod-schema.data.js';

type Node =
  | { k: 'string' | 'boolean' | 'integer' | 'number' | 'time' | 'string|number' | 'any'; what: string }
  | { k: 'enum'; values: readonly string[]; set: ReadonlySet<string>; what: string }
  | { k: 'list' | 'map'; of: Node; what: string }
  | { k: 'obj'; name: string; fields: Map<string, Node>; what: string };

const WHAT: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  integer: 'an integer',
  number: 'a number',
  time: 'an RFC 3339 time like "2026-01-01T00:00:05Z" (or @<duration>)',
  'string|number': 'a string or a number',
  any: 'anything',
};

/** Go field names that differ from their JSON names beyond case: the name a reader of the Go
 *  source would write, and the field it is. */
const GO_NAMES: Record<string, string> = { lastTerminationState: 'lastState', deprecatedServiceAccount: 'serviceAccount' };

/** The key each item of a merged list must carry: the lists the apiserver merges by a key
 *  (patchMergeKey, as model/strategic-merge.ts declares them) and the container statuses, which
 *  the kubelet matches by name. An item without it cannot be merged or matched. */
const LIST_KEYS: Record<string, string> = {
  'core.v1.PodCondition': 'type',
  'core.v1.PodIP': 'ip',
  'core.v1.HostIP': 'ip',
  'core.v1.PodResourceClaimStatus': 'name',
  'core.v1.ContainerStatus': 'name',
  'meta.v1.OwnerReference': 'uid',
};

const compiled = new Map<string, Node>();
function compile(expr: string): Node {
  const hit = compiled.get(expr);
  if (hit) return hit;
  let node: Node;
  if (expr.startsWith('[]')) node = { k: 'list', of: compile(expr.slice(2)), what: 'a list' };
  else if (expr.startsWith('{}')) node = { k: 'map', of: compile(expr.slice(2)), what: 'a map' };
  else if (expr.startsWith('enum:')) {
    const values = expr.slice(5).split('|');
    node = { k: 'enum', values, set: new Set(values), what: values.map((v) => JSON.stringify(v)).join(' | ') };
  } else if (expr in WHAT) node = { k: expr as 'string', what: WHAT[expr] };
  else {
    const fields = new Map<string, Node>();
    const obj: Node = { k: 'obj', name: expr, fields, what: `a map (${typeName(expr)})` };
    compiled.set(expr, obj); // before the fields: a type may refer to itself
    const shape = POD_TYPES[expr];
    if (!shape) throw new Error(`pod schema: no type ${expr}`);
    for (const [f, t] of Object.entries(shape)) fields.set(f, compile(t));
    return obj;
  }
  compiled.set(expr, node);
  return node;
}

/** core.v1.PodSpec → v1.PodSpec, as kubectl explain names it. */
const typeName = (n: string) => n.replace(/^core\./, '').replace(/^meta\.v1\./, 'meta/v1.');

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export type PodCheckMode = 'manifest' | 'status' | 'pattern';

/** Check `value` against the schema type `type` (e.g. "core.v1.PodStatus"), appending drafts. */
export function checkK8s(value: unknown, type: string, path: PathSeg[], mode: PodCheckMode, out: Draft[]): void {
  walk(value, compile(type), path, mode, out);
}

function walk(v: unknown, t: Node, path: PathSeg[], mode: PodCheckMode, out: Draft[]): void {
  if (v === null || v === undefined || t.k === 'any') return; // null is "unset" to the apiserver
  if (isMap(v) && Object.keys(v).some((k) => k.startsWith('$'))) {
    // A matcher ({$ne: v}, {$exists}, {$len}) in expect; elsewhere schema.ts refuses `$` keys.
    if (mode === 'pattern' && '$ne' in v) walk(v.$ne, t, [...path, '$ne'], mode, out);
    const rest = Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('$')));
    if (Object.keys(rest).length > 0 && (t.k === 'obj' || t.k === 'map')) walk(rest, t, path, mode, out);
    return;
  }
  const bad = (): void => {
    out.push({ code: 'INVALID_TYPE', message: `expected ${t.what}, got ${show(v)}`, path, expected: t.what, got: show(v) });
  };
  switch (t.k) {
    case 'string':
      return void (typeof v === 'string' || bad());
    case 'boolean':
      return void (typeof v === 'boolean' || bad());
    case 'number':
      return void (typeof v === 'number' || bad());
    case 'time':
      // `@<duration>` is checked (and resolved) by the loader itself.
      return void ((typeof v === 'string' && (v.startsWith('@') || parseRfc3339(v) !== undefined)) || bad());
    case 'integer':
      return void (Number.isInteger(v) || bad());
    case 'string|number':
      return void (typeof v === 'string' || typeof v === 'number' || bad());
    case 'enum': {
      if (typeof v !== 'string') return bad();
      if (t.set.has(v)) return;
      const hint = suggest(v, t.values);
      const message = t.values.length > 8 ? `unknown value ${show(v)}${hint}` : `expected ${t.what}, got ${show(v)}${hint}`;
      return void out.push({ code: 'INVALID_VALUE', message, path, expected: t.values.length > 8 ? undefined : t.what, got: show(v) });
    }
    case 'list':
      if (!Array.isArray(v)) return bad();
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        // A null field is unset (the loader drops it, as the apiserver's decoding does); a null
        // list item is no value at all.
        if (item === null && mode !== 'pattern' && t.of.k !== 'any') out.push({ code: 'INVALID_TYPE', message: `expected ${t.of.what}, got null`, path: [...path, i], expected: t.of.what, got: 'null' });
        else walk(item, t.of, [...path, i], mode, out);
        const key = t.of.k === 'obj' && mode !== 'pattern' ? LIST_KEYS[t.of.name] : undefined;
        if (key && isMap(item) && (item[key] === undefined || item[key] === null || item[key] === ''))
          out.push({ code: 'MISSING_FIELD', message: `missing required field "${key}": each ${typeName((t.of as { name: string }).name)} in this list is known by its ${key} (not empty)`, path: [...path, i], expected: key });
      }
      return;
    case 'map':
      if (!isMap(v)) return bad();
      for (const k of Object.keys(v)) walk(v[k], t.of, [...path, k], mode, out);
      return;
    case 'obj':
      if (!isMap(v)) return bad();
      for (const k of Object.keys(v)) {
        const f = t.fields.get(k);
        if (f) walk(v[k], f, [...path, k], mode, out);
        else unknownField(k, t, [...path, k], out);
      }
  }
}

function unknownField(key: string, t: Extract<Node, { k: 'obj' }>, path: PathSeg[], out: Draft[]): void {
  const goName = GO_NAMES[key];
  const hint = goName && t.fields.has(goName) ? `; did you mean "${goName}"? (${key} is the Go name; the field is ${goName})` : suggest(key, t.fields.keys());
  out.push({ code: 'UNKNOWN_KEY', message: `unknown field ${clip(key)} in ${typeName(t.name)}${hint}`, path, got: clip(key), atKey: true });
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (isMap(v) ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Where a scenario carries Pods and PodStatuses, checked: spec.pods, spec.staticPods (less
 *  their x-kss), setPodStatus / externalPatch statuses, apiserver / kubelet assertion statuses. */
export function checkPodFields(doc: unknown): Draft[] {
  const out: Draft[] = [];
  const spec = obj(obj(doc)?.spec);
  if (!spec) return out;
  for (const where of ['pods', 'staticPods'] as const)
    list(spec[where]).forEach((p, i) => {
      const m = obj(p);
      if (!m) return; // zod says what a pod entry must be
      const { 'x-kss': x, ...manifest } = m;
      const found: Draft[] = [];
      checkK8s(manifest, 'core.v1.Pod', ['spec', where, i], 'manifest', found);
      // `x-kss.unchecked` names fields whose value may lie outside the schema's enum (an upstream
      // test's made-up phase); their type and shape are still checked, so a run cannot trip on them.
      const unchecked = list(obj(x)?.unchecked).filter((u): u is string => typeof u === 'string');
      const skip = (d: Draft) => {
        if (d.code !== 'INVALID_VALUE') return false;
        const rel = formatPath(d.path.slice(3));
        return unchecked.some((u) => rel === u || rel.startsWith(`${u}.`) || rel.startsWith(`${u}[`));
      };
      out.push(...found.filter((d) => !skip(d)));
    });
  list(spec.timeline).forEach((s, i) => {
    for (const action of ['setPodStatus', 'externalPatch'] as const) {
      const st = obj(obj(s)?.[action])?.status;
      if (st !== undefined) checkK8s(st, 'core.v1.PodStatus', ['spec', 'timeline', i, action, 'status'], 'status', out);
    }
  });
  list(spec.expect).forEach((e, i) => {
    for (const kind of ['apiserver', 'kubelet'] as const) {
      const st = obj(obj(e)?.[kind])?.status;
      if (st !== undefined) checkK8s(st, 'core.v1.PodStatus', ['spec', 'expect', i, kind, 'status'], 'pattern', out);
    }
  });
  return out;
}
