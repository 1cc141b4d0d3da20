// ORACLE for test/kubelet/status/semantic-equivalence.test.ts: src/kubelet/status/semantic.ts as it was
// at commit 09b2144, before its performance work. The property tests check that the optimized
// goJsonPodStatus gives the very same answers. Do not optimize this copy.
// Issue 13 §4 added two rules, here in their plain form: a `message` is written as encoding/json
// writes a Go string (each raw byte as U+FFFD), and a ResourceList (allocatedResources,
// limits, requests) with each quantity in canonical form.

// Go value semantics for pod statuses held as JSON-shaped TypeScript objects.
//
// A Go v1.PodStatus always has every non-pointer field (zero when unset); a TypeScript status may
// simply lack it. Two helpers bridge that:
//   - semanticDeepEqual: apimachinery's Semantic.DeepEqual (nil == empty slice/map, metav1.Time
//     compared by instant), treating a missing non-pointer field as its zero value;
//   - goJsonPodStatus: the shape encoding/json gives a v1.PodStatus (omitempty fields dropped,
//     non-omitempty zeros present, metav1.Time at whole seconds), used to build status patches so
//     that two statuses Go would marshal identically produce no diff here either.
import { parseRfc3339, truncateToSeconds } from '../../../../src/model/time.js';
import type { ContainerStatus, PodStatus } from '../../../../src/model/pod.js';
import { canonicalQuantity, parseQuantityValue } from '../../../../src/model/quantity.js';
import { goJsonString } from '../../../../src/kubelet/status/go-string.js';

/** A ResourceList as MarshalJSON writes it: every entry kept (map values are never omitted; a
 *  nil one is no entry), each quantity canonical; an empty map is omitted. */
function goJsonResourceList(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null) continue;
    const q = parseQuantityValue(v);
    out[k] = q === undefined ? v : canonicalQuantity(q);
  }
  if (Object.keys(out).length === 0) return undefined;
  return Object.entries(out).every(([k, v]) => o[k] === v) && Object.keys(out).length === Object.keys(o).length ? o : out;
}

/** Fields that are pointers in the Go types: nil and a pointer to a zero value differ. */
const POINTER_KEYS = new Set(['startTime', 'running', 'waiting', 'terminated', 'started', 'resources', 'user', 'stopSignal']);
/** metav1.Time fields of a pod status. */
const TIME_KEYS = new Set(['startTime', 'lastProbeTime', 'lastTransitionTime', 'startedAt', 'finishedAt']);
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** True when a value of field `key` is what Go would hold for an unset field (nil or zero). */
function isZero(v: unknown, key: string): boolean {
  if (v === undefined || v === null) return true;
  if (POINTER_KEYS.has(key)) return false;
  switch (typeof v) {
    case 'string':
      return v === '' || (v === GO_ZERO_TIME && TIME_KEYS.has(key));
    case 'boolean':
      return v === false;
    case 'number':
      return v === 0;
    case 'object': {
      if (Array.isArray(v)) return v.length === 0;
      const o = v as Record<string, unknown>;
      for (const k in o) if (!isZero(o[k], k)) return false;
      return true;
    }
    default:
      return false;
  }
}

function sameInstant(a: string, b: string): boolean {
  const x = parseRfc3339(a);
  return x !== undefined && x === parseRfc3339(b);
}

/** apiequality.Semantic.DeepEqual over JSON-shaped values (see the file comment). */
export function semanticDeepEqual(a: unknown, b: unknown, key = ''): boolean {
  if (a === b) return true;
  const az = isZero(a, key);
  const bz = isZero(b, key);
  if (az || bz) return az && bz;
  if (typeof a !== typeof b) return false;
  if (typeof a === 'string') return TIME_KEYS.has(key) && sameInstant(a, b as string);
  if (typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticDeepEqual(a[i], b[i], key)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k in ao) if (!semanticDeepEqual(ao[k], bo[k], k)) return false;
  for (const k in bo) if (!(k in ao) && !isZero(bo[k], k)) return false;
  return true;
}

/** Plain structural equality of JSON values (undefined members count as absent). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k in ao) if (ao[k] !== undefined && !jsonEqual(ao[k], bo[k])) return false;
  for (const k in bo) if (bo[k] !== undefined && !(k in ao && ao[k] !== undefined)) return false;
  return true;
}

/** metav1.Time's JSON form: RFC 3339 at whole seconds (sub-second precision is lost on the wire). */
function goJsonTime(s: string): string | undefined {
  const out = truncateToSeconds(s);
  return out === GO_ZERO_TIME ? undefined : out;
}

/** Drop what omitempty drops (zero values of non-pointer fields), keep pointer fields even when they
 *  point at a zero value, and put metav1.Time at whole seconds. Returns undefined for "omitted".
 *  An object or list already in that form is its own answer (copies are made only where something
 *  changes), so the answer may share parts with the input. */
function goJsonValue(v: unknown, key: string): unknown {
  if (v === undefined || v === null) return undefined;
  const ptr = POINTER_KEYS.has(key);
  if (typeof v === 'string') {
    if (TIME_KEYS.has(key)) return goJsonTime(v);
    if (key === 'message') return v === '' ? undefined : goJsonString(v);
    return v === '' && !ptr ? undefined : v;
  }
  if (typeof v === 'boolean' || typeof v === 'number') return (v === false || v === 0) && !ptr ? undefined : v;
  if (typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    // Elements are never omitted: a zero struct is {}, a scalar stays as it is.
    let list: unknown[] | null = null; // made at the first element that is not its own encoding
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      const x = e !== null && typeof e === 'object' ? (goJsonValue(e, key) ?? emptyStruct(e)) : e;
      if (list === null && x !== e) {
        list = [];
        for (let j = 0; j < i; j++) list.push(v[j]);
      }
      if (list !== null) list.push(x);
    }
    return list ?? v;
  }
  const o = v as Record<string, unknown>;
  if (key === 'allocatedResources' || key === 'limits' || key === 'requests') return goJsonResourceList(o);
  let out: Record<string, unknown> | null = null; // made at the first field that is not its own encoding
  let any = false;
  for (const k in o) {
    const f = o[k];
    const x = goJsonValue(f, k);
    if (out === null && (x !== f || x === undefined)) {
      out = {};
      for (const k2 in o) {
        if (k2 === k) break;
        out[k2] = o[k2];
      }
    }
    if (x !== undefined) {
      if (out !== null) out[k] = x;
      any = true;
    }
  }
  if (key === 'containerStatuses' || key === 'initContainerStatuses' || key === 'ephemeralContainerStatuses') {
    const cs = goJsonContainerStatus(out ?? o, o);
    return sameFields(cs, o) ? o : cs;
  }
  if (key === 'conditions') {
    if (out === null) {
      if (o.type !== undefined && o.status !== undefined) return o;
      out = { ...o };
    }
    out.type ??= '';
    out.status ??= '';
    return out;
  }
  if (key === 'terminated') {
    if (out === null) {
      if (o.exitCode !== undefined) return o;
      out = { ...o };
    }
    out.exitCode ??= 0;
    return out;
  }
  if (!any && !ptr) return undefined;
  return out ?? o;
}

/** The zero struct `{}` standing for an omitted value `v`: `v` itself when it is an empty object. */
function emptyStruct(v: unknown): object {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const _ in v) return {};
    return v;
  }
  return {};
}

/** Same own keys, in the same order, with identical values. */
function sameFields(a: object, b: object): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || (a as Record<string, unknown>)[ka[i]] !== (b as Record<string, unknown>)[kb[i]]) return false;
  }
  return true;
}

/** v1.ContainerStatus always carries name, state, lastState, ready, restartCount, image, imageID.
 *  (`orig` is the status `o` was encoded from: an empty state object of it stands for its own zero.) */
function goJsonContainerStatus(o: Record<string, unknown>, orig: Record<string, unknown>): ContainerStatus {
  return {
    name: (o.name as string) ?? '',
    state: (o.state as object) ?? emptyStruct(orig.state),
    lastState: (o.lastState as object) ?? emptyStruct(orig.lastState),
    ready: (o.ready as boolean) ?? false,
    restartCount: (o.restartCount as number) ?? 0,
    image: (o.image as string) ?? '',
    imageID: (o.imageID as string) ?? '',
    ...o,
  } as ContainerStatus;
}

/** The JSON form encoding/json gives a v1.PodStatus (see the file comment). Pure; the answer may
 *  share parts with the input (or be the input) where they are already in that form: treat both as
 *  immutable. */
export function goJsonPodStatus(s: PodStatus | undefined): PodStatus {
  return (goJsonValue(s ?? {}, '') as PodStatus | undefined) ?? {};
}
