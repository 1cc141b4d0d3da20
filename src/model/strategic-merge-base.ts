// k8s.io/apimachinery/pkg/util/strategicpatch: what the diff and the apply share (patch
// metadata, the directives, Go's value kinds and DeepEqual, key order, and stripping a patch's
// value). See strategic-merge.ts.

export type Obj = Record<string, unknown>;

/** Per-field patch metadata of an object type (upstream: struct tags read by LookupPatchMetadata). */
export interface PatchMeta {
  readonly fields?: Readonly<Record<string, FieldMeta>>;
}

export interface FieldMeta {
  /** `patchStrategy:"merge" patchMergeKey:<mergeKey>`: a list of objects merged element-wise. */
  readonly mergeKey?: string;
  /** `patchStrategy:"merge,retainKeys"`: element patches carry a `$retainKeys` list. */
  readonly retainKeys?: boolean;
  /** Metadata of the field's value (a nested object) or of a merge list's elements. */
  readonly meta?: PatchMeta;
}

/** A malformed patch or document (upstream returns these as errors; the apiserver answers 422). */
export class StrategicMergeError extends Error {
  override readonly name = 'StrategicMergeError';
}

export const OBJECT_META: PatchMeta = {
  fields: {
    ownerReferences: { mergeKey: 'uid' },
  },
};

export const POD_STATUS_FIELDS: Readonly<Record<string, FieldMeta>> = {
  conditions: { mergeKey: 'type' },
  podIPs: { mergeKey: 'ip' },
  hostIPs: { mergeKey: 'ip' },
  resourceClaimStatuses: { mergeKey: 'name', retainKeys: true },
};

/**
 * The Pod's patch metadata as upstream's core/v1 types declare it. Note that upstream declares the
 * container status lists (`containerStatuses`, `initContainerStatuses`,
 * `ephemeralContainerStatuses`) without a patch strategy (`+listType=atomic`): a change anywhere in
 * one replaces the whole list. spec §6 says "container statuses by name"; the code wins.
 */
export const POD_PATCH_META: PatchMeta = {
  fields: {
    metadata: { meta: OBJECT_META },
    status: { meta: { fields: POD_STATUS_FIELDS } },
  },
};

/** The Pod's patch metadata as spec §6 words it: container status lists also merged by `name`. */
export const POD_PATCH_META_MERGE_CONTAINER_STATUSES: PatchMeta = {
  fields: {
    metadata: { meta: OBJECT_META },
    status: {
      meta: {
        fields: {
          ...POD_STATUS_FIELDS,
          containerStatuses: { mergeKey: 'name' },
          initContainerStatuses: { mergeKey: 'name' },
          ephemeralContainerStatuses: { mergeKey: 'name' },
        },
      },
    },
  },
};

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder/';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/** SET_ELEMENT_ORDER + field, kept: one string per field rather than a new one per patch. */
export const setElementOrderKeys = new Map<string, string>();
export function setElementOrderKey(field: string): string {
  let k = setElementOrderKeys.get(field);
  if (k === undefined) setElementOrderKeys.set(field, (k = SET_ELEMENT_ORDER + field));
  return k;
}

export function isAbsent(v: unknown): v is null | undefined {
  return v === undefined || v === null;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Value kinds as Go's reflect sees a decoded JSON value.
export const KIND_MAP = 0;
export const KIND_LIST = 1;
export const KIND_SCALAR = 2;

export function kindOf(v: unknown): number {
  if (Array.isArray(v)) return KIND_LIST;
  return typeof v === 'object' && v !== null ? KIND_MAP : KIND_SCALAR;
}

/** Deep equality as Go's reflect.DeepEqual sees two json.Unmarshal'ed documents, with
 *  undefined and null both standing for an absent field. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isAbsent(a) || isAbsent(b)) return isAbsent(a) && isAbsent(b);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Obj, bo = b as Obj;
  let na = 0;
  for (const k in ao) {
    const av = ao[k];
    if (isAbsent(av)) continue;
    na++;
    if (!jsonEqual(av, bo[k])) return false;
  }
  let nb = 0;
  for (const k in bo) if (!isAbsent(bo[k])) nb++;
  return na === nb;
}

export function isEmpty(o: Obj): boolean {
  for (const _ in o) return false;
  return true;
}

/** The same object with its keys in Go's encoding/json order (byte-wise sorted). */
export function sortKeys(o: Obj): Obj {
  // (for-in walks the keys in Object.keys order; no array unless they need sorting)
  let prev: string | undefined;
  let sorted = true;
  for (const k in o) {
    if (prev !== undefined && prev > k) {
      sorted = false;
      break;
    }
    prev = k;
  }
  if (sorted) return o;
  const keys = sortStrings(Object.keys(o));
  const r: Obj = {};
  for (const k of keys) r[k] = o[k];
  return r;
}

/** `a` sorted in place as Array.prototype.sort() sorts strings (by UTF-16 code units); an
 *  insertion sort, quicker than sort() on the few keys of a patch object. */
export function sortStrings(a: string[]): string[] {
  for (let i = 1; i < a.length; i++) {
    const s = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > s) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = s;
  }
  return a;
}

export function mergeKeyString(v: unknown): string {
  // Upstream matches merge keys through fmt.Sprintf("%v"); for the string keys of a Pod that is the string.
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function allObjects(list: readonly unknown[]): boolean {
  // (an indexed loop: for-of makes an iterator, and V8 does not always elide it on frozen arrays)
  for (let i = 0; i < list.length; i++) if (!isObj(list[i])) return false;
  return true;
}

/**
 * A value taken whole from a patch, as a typed Go decode would keep it: absent (null) fields and
 * `$` directives dropped, `$patch: delete` list elements dropped. Returns the same reference when
 * there is nothing to drop.
 */
export function clean(v: unknown): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      const drop = isObj(e) && e[DIRECTIVE] === 'delete';
      const c = drop ? undefined : clean(e);
      if (out === null && (drop || c !== e)) out = v.slice(0, i);
      if (out !== null && !drop) out.push(c);
    }
    return out ?? v;
  }
  if (isObj(v)) {
    let out: Obj | null = null;
    for (const k in v) {
      const e = v[k];
      const drop = isAbsent(e) || k.charCodeAt(0) === 36; /* $ */
      const c = drop ? undefined : clean(e);
      if (out === null && (drop || c !== e)) {
        out = {};
        for (const k2 in v) {
          if (k2 === k) break;
          out[k2] = v[k2];
        }
      }
      if (out !== null && !drop) out[k] = c;
    }
    return out ?? v;
  }
  return v;
}
