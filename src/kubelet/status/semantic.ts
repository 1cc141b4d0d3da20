// Go value semantics for pod statuses held as JSON-shaped TypeScript objects.
//
// A Go v1.PodStatus always has every non-pointer field (zero when unset); a TypeScript status may
// simply lack it. Two helpers bridge that:
//   - semanticDeepEqual: apimachinery's Semantic.DeepEqual (nil == empty slice/map, metav1.Time
//     compared by instant), treating a missing non-pointer field as its zero value;
//   - goJsonPodStatus: the shape encoding/json gives a v1.PodStatus (omitempty fields dropped,
//     non-omitempty zeros present, metav1.Time at whole seconds), used to build status patches so
//     that two statuses Go would marshal identically produce no diff here either.
import { parseRfc3339, truncateToSeconds } from '../../model/time.js';
import type { ContainerStatus, PodStatus } from '../../model/pod.js';
import { canonicalQuantity, cmpQuantity, parseQuantityValue } from '../../model/quantity.js';
import { goJsonString } from './go-string.js';

/** Fields that are pointers in the Go types: nil and a pointer to a zero value differ. (A switch
 *  rather than a Set: it is asked for nearly every scalar of a status, and needs no hashing.) */
function isPointerKey(key: string): boolean {
  switch (key) {
    case 'startTime': case 'running': case 'waiting': case 'terminated': case 'started': case 'resources': case 'user': case 'stopSignal':
      return true;
    default:
      return false;
  }
}

/** metav1.Time fields of a pod status. */
function isTimeKey(key: string): boolean {
  switch (key) {
    case 'startTime': case 'lastProbeTime': case 'lastTransitionTime': case 'startedAt': case 'finishedAt':
      return true;
    default:
      return false;
  }
}
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** True when a value of field `key` is what Go would hold for an unset field (nil or zero). */
function isZero(v: unknown, key: string): boolean {
  if (v === undefined || v === null) return true;
  if (isPointerKey(key)) return false;
  switch (typeof v) {
    case 'string':
      return v === '' || (v === GO_ZERO_TIME && isTimeKey(key));
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

/** v1.ResourceList fields of a pod status (map[ResourceName]resource.Quantity): a container
 *  status's allocatedResources and its resources' limits and requests (v1.27+). */
function isResourceListKey(key: string): boolean {
  return key === 'allocatedResources' || key === 'limits' || key === 'requests';
}

/** Semantic's func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 } for each key of two
 *  ResourceLists ("ignore formatting, only care that numeric value stayed the same"); the key sets
 *  must match. A value that is no quantity (upstream could not have decoded it) compares as is. */
function resourceListsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  if (ka.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  for (const k of ka) {
    if (!(k in b) || b[k] === undefined) return false;
    const x = parseQuantityValue(a[k]);
    const y = parseQuantityValue(b[k]);
    if (x === undefined || y === undefined ? a[k] !== b[k] : cmpQuantity(x, y) !== 0) return false;
  }
  return true;
}

/** A ResourceList as MarshalJSON writes it: each quantity in canonical form ("1000m" → "1"). */
function goJsonResourceList(o: Record<string, unknown>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | null = null;
  let any = false;
  for (const k in o) {
    const v = o[k];
    const q = v === undefined || v === null ? undefined : parseQuantityValue(v);
    const c = q === undefined ? v : canonicalQuantity(q);
    if (out === null && (c !== v || c === undefined || c === null)) {
      out = {};
      for (const k2 in o) {
        if (k2 === k) break;
        if (o[k2] !== undefined && o[k2] !== null) out[k2] = o[k2];
      }
    }
    if (c === undefined || c === null) continue; // (a nil map value is no entry)
    if (out !== null) out[k] = c;
    any = true;
  }
  return any ? (out ?? o) : undefined; // (omitempty: an empty map is left out)
}

/** apiequality.Semantic.DeepEqual over JSON-shaped values (see the file comment). */
export function semanticDeepEqual(a: unknown, b: unknown, key = ''): boolean {
  if (a === b) return true;
  const az = isZero(a, key);
  const bz = isZero(b, key);
  if (az || bz) return az && bz;
  if (isResourceListKey(key) && isPlainMap(a) && isPlainMap(b)) return resourceListsEqual(a, b);
  if (typeof a !== typeof b) return false;
  if (typeof a === 'string') return isTimeKey(key) && sameInstant(a, b as string);
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
  if (typeof v === 'string') {
    if (isTimeKey(key)) return goJsonTime(v);
    // A message cut mid-character by normalizeStatus holds raw bytes: encoding/json writes each as U+FFFD.
    if (key === 'message') return v === '' ? undefined : goJsonString(v);
    return v === '' && !isPointerKey(key) ? undefined : v;
  }
  if (typeof v === 'boolean' || typeof v === 'number') return (v === false || v === 0) && !isPointerKey(key) ? undefined : v;
  if (typeof v !== 'object') return v;
  return goJsonObject(v, key);
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** goJsonValue of an object or a list. */
function goJsonObject(v: object, key: string): unknown {
  if (isResourceListKey(key) && isPlainMap(v)) return goJsonResourceList(v);
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
  const containerStatus = key === 'containerStatuses' || key === 'initContainerStatuses' || key === 'ephemeralContainerStatuses';
  // A container status already in its Go form (as the kubelet's and the apiserver's are) is its
  // own answer, found without building the encoding of its fields first.
  if (containerStatus && isOwnContainerStatusForm(o)) return o;
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
  if (containerStatus) return goJsonContainerStatus(out ?? o, o);
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
  if (!any && !isPointerKey(key)) return undefined;
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

/** The fields goJsonContainerStatus puts first, in its order. */
const CONTAINER_STATUS_FIELDS = ['name', 'state', 'lastState', 'ready', 'restartCount', 'image', 'imageID'];

/**
 * Whether goJsonContainerStatus(enc, orig) would have exactly the fields of `orig` (same keys, same
 * order, identical values), where `enc` is goJsonObject's encoding of `orig`'s fields (each field
 * `k` whose goJsonValue `x` is not undefined, as `x`, in `orig`'s order); worked out field by field
 * without building `enc`. The built status has CONTAINER_STATUS_FIELDS first (each `enc`'s value,
 * else its default), then the other keys of `enc` in order; that equals `orig` when `orig` starts
 * with those seven fields, each its own encoding or (omitted) the very default, and every later
 * field of `orig` is its own (not omitted) encoding.
 */
function isOwnContainerStatusForm(orig: Record<string, unknown>): boolean {
  let i = 0;
  for (const k in orig) {
    const v = orig[k];
    const x = goJsonValue(v, k);
    if (i < CONTAINER_STATUS_FIELDS.length) {
      if (k !== CONTAINER_STATUS_FIELDS[i]) return false;
      if (x !== undefined ? x !== v : !isContainerStatusDefault(k, v)) return false;
    } else if (x === undefined || x !== v) {
      return false;
    }
    i++;
  }
  return i >= CONTAINER_STATUS_FIELDS.length;
}

/** Whether `v` is the very value goJsonContainerStatus defaults field `k` to (for state and
 *  lastState: `v` itself when it is an empty object, see emptyStruct). */
function isContainerStatusDefault(k: string, v: unknown): boolean {
  switch (k) {
    case 'state':
    case 'lastState':
      return v !== null && typeof v === 'object' && emptyStruct(v) === v;
    case 'ready':
      return v === false;
    case 'restartCount':
      return v === 0;
    default: // name, image, imageID
      return v === '';
  }
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
  if (s === undefined || !Object.isFrozen(s)) return (goJsonValue(s ?? {}, '') as PodStatus | undefined) ?? {};
  // A frozen status (the apiserver's stored one: the `original` of every patch while it stands) is
  // encoded once.
  let out = goJsonOfFrozen.get(s);
  if (out === undefined) goJsonOfFrozen.set(s, (out = (goJsonValue(s, '') as PodStatus | undefined) ?? {}));
  return out;
}

const goJsonOfFrozen = new WeakMap<PodStatus, PodStatus>();
