// ORACLE for test/model/strategic-merge-equivalence.test.ts: src/model/strategic-merge.ts as it was at
// commit 09b2144, before its performance work (plain, unoptimized ports of upstream's code). The
// property tests check that the optimized implementation gives the very same answers (values, key
// order, errors and their messages). Do not optimize this copy.

// Kubernetes strategic merge patch for the parts of a Pod that kss writes (metadata and status),
// ported from k8s.io/apimachinery/pkg/util/strategicpatch/patch.go:
//   createTwoWayMergePatch     ~ CreateTwoWayMergeMapPatch (client side: diffMaps / diffLists)
//   applyStrategicMergePatch   ~ StrategicMergeMapPatch    (server side: mergeMap / mergeSlice)
//
// Values are plain JSON-like data (as Go sees them after json.Unmarshal into map[string]any):
// `undefined` and `null` both mean "absent" (Go's omitempty never writes them), every other value
// is compared exactly (false, 0 and "" are values). Upstream reads patch strategies from Go struct
// tags; here a small PatchMeta tree says which lists are merged by which key.
//
// Patch objects are built with their keys in sorted order, as Go's encoding/json writes map keys,
// so JSON.stringify of a patch reads like the kubelet's log line.
//
// Not ported: merge lists of scalars (`$deleteFromPrimitiveList` is honoured on apply, never
// generated), `patchStrategy: replace` maps, three-way patches. Nothing in a Pod's status needs them.

type Obj = Record<string, unknown>;

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

const OBJECT_META: PatchMeta = {
  fields: {
    ownerReferences: { mergeKey: 'uid' },
  },
};

const POD_STATUS_FIELDS: Readonly<Record<string, FieldMeta>> = {
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

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/** SET_ELEMENT_ORDER + field, kept: one string per field rather than a new one per patch. */
const setElementOrderKeys = new Map<string, string>();
function setElementOrderKey(field: string): string {
  let k = setElementOrderKeys.get(field);
  if (k === undefined) setElementOrderKeys.set(field, (k = SET_ELEMENT_ORDER + field));
  return k;
}

function isAbsent(v: unknown): v is null | undefined {
  return v === undefined || v === null;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Value kinds as Go's reflect sees a decoded JSON value.
const KIND_MAP = 0;
const KIND_LIST = 1;
const KIND_SCALAR = 2;

function kindOf(v: unknown): number {
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

function isEmpty(o: Obj): boolean {
  for (const _ in o) return false;
  return true;
}

/** The same object with its keys in Go's encoding/json order (byte-wise sorted). */
function sortKeys(o: Obj): Obj {
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
  const keys = Object.keys(o);
  keys.sort();
  const r: Obj = {};
  for (const k of keys) r[k] = o[k];
  return r;
}

function mergeKeyString(v: unknown): string {
  // Upstream matches merge keys through fmt.Sprintf("%v"); for the string keys of a Pod that is the string.
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function allObjects(list: readonly unknown[]): boolean {
  for (const e of list) if (!isObj(e)) return false;
  return true;
}

// ------------------------------------------------------------------------------------------------
// Two-way diff (client side)

/**
 * CreateTwoWayMergePatch: a strategic merge patch that turns `original` into `modified`.
 * Added and changed fields carry their new value, removed fields are `null`, merge-keyed lists are
 * diffed element-wise (with `$patch: delete` for removed elements and `$setElementOrder/<field>`
 * when their content or order changed), other lists are replaced whole.
 *
 * The kubelet calls it as `createTwoWayMergePatch({status: old}, {metadata: {uid}, status: new})`;
 * equal statuses give exactly `{metadata: {uid}}` (the same `metadata` object that was passed in).
 * The patch may share sub-objects with `modified`; treat both as immutable.
 */
export function createTwoWayMergePatch(original: object, modified: object, meta: PatchMeta = POD_PATCH_META): Obj {
  return diffMaps(original as Obj, modified as Obj, meta, false);
}

// diffMaps
function diffMaps(original: Obj, modified: Obj, meta: PatchMeta | undefined, retainKeys: boolean): Obj {
  const patch: Obj = {};
  const fields = meta?.fields;
  for (const key in modified) {
    const mv = modified[key];
    if (isAbsent(mv)) continue;
    const ov = original[key];
    if (isAbsent(ov)) {
      patch[key] = mv; // added
      continue;
    }
    // The very same value, with no merge list below it (no patch metadata): nothing to diff.
    if (ov === mv && fields?.[key] === undefined) continue;
    if (key === DIRECTIVE) {
      // handleDirectiveMarker: only documents that are themselves patches carry one.
      if (ov !== mv) patch[key] = mv;
      continue;
    }
    const k = kindOf(ov);
    if (k !== kindOf(mv)) {
      patch[key] = mv; // the type changed
      continue;
    }
    if (k === KIND_MAP) {
      // handleMapDiff
      const sub = diffMaps(ov as Obj, mv as Obj, fields?.[key]?.meta, false);
      if (!isEmpty(sub)) patch[key] = sub;
    } else if (k === KIND_LIST) {
      // handleSliceDiff
      const fm = fields?.[key];
      if (fm?.mergeKey !== undefined && allObjects(ov as unknown[]) && allObjects(mv as unknown[])) {
        diffMergeList(key, ov as Obj[], mv as Obj[], fm, patch);
      } else if (!jsonEqual(ov, mv)) {
        patch[key] = mv;
      }
    } else if (ov !== mv) {
      patch[key] = mv; // replacePatchFieldIfNotEqual
    }
  }
  // updatePatchIfMissing: removed fields become null.
  for (const key in original) {
    if (!isAbsent(original[key]) && isAbsent(modified[key])) patch[key] = null;
  }
  if (retainKeys && (!isEmpty(patch) || hasAdditionalNewField(original, modified))) {
    const keep: string[] = [];
    for (const key in modified) if (!isAbsent(modified[key])) keep.push(key);
    patch[RETAIN_KEYS] = keep.sort();
  }
  return sortKeys(patch);
}

// hasAdditionalNewField: original holds a (non-null) field that modified lacks.
function hasAdditionalNewField(original: Obj, modified: Obj): boolean {
  for (const k in original) if (!isAbsent(original[k]) && isAbsent(modified[k])) return true;
  return false;
}

// diffLists + diffListsOfMaps for a list of objects with a merge key.
function diffMergeList(key: string, original: Obj[], modified: Obj[], fm: FieldMeta, patch: Obj): void {
  const mergeKey = fm.mergeKey!;
  if (original.length === 0) {
    if (modified.length > 0) patch[key] = modified; // the old list was empty: send the new one whole
    return;
  }
  const byKey = new Map<string, Obj>();
  for (const o of original) {
    const kv = o[mergeKey];
    if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(o)} does not contain declared merge key "${mergeKey}"`);
    const ks = mergeKeyString(kv);
    if (!byKey.has(ks)) byKey.set(ks, o);
  }
  // Changed and added elements, in the order of `modified` (normalizeSliceOrder).
  const patchList: unknown[] = [];
  const seen = new Set<string>();
  for (const m of modified) {
    const kv = m[mergeKey];
    if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(m)} does not contain declared merge key "${mergeKey}"`);
    const ks = mergeKeyString(kv);
    seen.add(ks);
    const o = byKey.get(ks);
    if (o === undefined) {
      patchList.push(m);
      continue;
    }
    if (o === m && fm.meta === undefined) continue; // the very same element: no difference
    const d = diffMaps(o, m, fm.meta, fm.retainKeys === true);
    if (!isEmpty(d)) {
      d[mergeKey] = kv;
      patchList.push(sortKeys(d));
    }
  }
  // Removed elements, appended in merge-key order (upstream walks both lists sorted by key).
  const removed: string[] = [];
  for (const ks of byKey.keys()) if (!seen.has(ks)) removed.push(ks);
  removed.sort();
  for (const ks of removed) patchList.push({ [DIRECTIVE]: 'delete', [mergeKey]: byKey.get(ks)![mergeKey] });

  // isOrderSame
  let orderSame = original.length === modified.length;
  for (let i = 0; orderSame && i < modified.length; i++) orderSame = original[i][mergeKey] === modified[i][mergeKey];

  if (patchList.length > 0) patch[key] = patchList;
  if ((patchList.length > 0 || !orderSame) && modified.length > 0) {
    patch[setElementOrderKey(key)] = modified.map((m) => ({ [mergeKey]: m[mergeKey] }));
  }
}

// ------------------------------------------------------------------------------------------------
// Apply (server side)

/**
 * StrategicMergeMapPatch: apply a strategic merge patch. `null` deletes a field, merge-keyed lists
 * are merged by key (honouring `$patch: delete|replace`, `$setElementOrder/<field>`,
 * `$retainKeys`, `$deleteFromPrimitiveList/<field>`), other lists and scalars are replaced.
 * Returns a new object and never mutates its inputs; unchanged sub-objects of `original` are
 * shared, and values taken from the patch are shared too unless they carry nulls or directives
 * (which are stripped, as decoding into a typed Go object would). Throws StrategicMergeError on a
 * malformed patch.
 */
export function applyStrategicMergePatch(original: object, patch: object, meta: PatchMeta = POD_PATCH_META): Obj {
  return mergeMap(original as Obj, patch as Obj, meta);
}

// mergeMap (MergeParallelList and IgnoreUnmatchedNulls both on, as on the server)
function mergeMap(original: Obj | undefined, patch: Obj, meta: PatchMeta | undefined): Obj {
  const directive = patch[DIRECTIVE];
  if (directive !== undefined) {
    // handleDirectiveInMergeMap
    if (directive === 'replace') return clean(patch) as Obj;
    if (directive === 'delete') return {};
    throw new StrategicMergeError(`invalid patch type ${JSON.stringify(directive)}`);
  }
  const out: Obj = original === undefined ? {} : { ...original };
  const fields = meta?.fields;
  let deleted = false;

  // applyRetainKeysDirective
  const retain = patch[RETAIN_KEYS];
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw new StrategicMergeError('$retainKeys must be a list');
    const keep = new Set<unknown>(retain);
    for (const k in patch) {
      if (isAbsent(patch[k]) || k.charCodeAt(0) === 36 /* $ */) continue;
      if (!keep.has(k)) throw new StrategicMergeError(`field ${k} is in the patch but not in $retainKeys`);
    }
    for (const k of Object.keys(out)) {
      if (!keep.has(k)) {
        delete out[k];
        deleted = true;
      }
    }
  }

  // mergePatchIntoOriginal: lists with a $setElementOrder directive, merged and ordered together.
  let ordered: Set<string> | null = null;
  for (const pk in patch) {
    if (pk.charCodeAt(0) !== 36 /* $ */ || !pk.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = pk.slice(SET_ELEMENT_ORDER.length);
    (ordered ??= new Set()).add(field);
    const order = patch[pk];
    if (!Array.isArray(order)) throw new StrategicMergeError(`${pk} must be a list`);
    const fm = fields?.[field];
    const mergeKey = fm?.mergeKey;
    const ov = out[field];
    const pv = patch[field];
    const origList = Array.isArray(ov) ? ov : undefined;
    const patchList = Array.isArray(pv) ? pv : undefined;
    if (!isAbsent(ov) && origList === undefined) throw new StrategicMergeError(`${field} is not a list`);
    if (!isAbsent(pv) && patchList === undefined) throw new StrategicMergeError(`${field} in the patch is not a list`);
    validatePatchWithSetOrderList(patchList, order, mergeKey);
    let merged: unknown[];
    if (origList !== undefined && patchList === undefined) merged = origList;
    else if (origList === undefined && patchList !== undefined) merged = clean(patchList) as unknown[];
    else if (origList !== undefined && patchList !== undefined) merged = mergeSliceHandler(origList, patchList, fm);
    else continue;
    if (mergeKey === undefined) {
      out[field] = merged; // ordering lists of scalars is not ported
      continue;
    }
    const patchItems: unknown[] = [];
    const serverOnly: unknown[] = [];
    for (const e of merged) (firstIndexOfKey(order, mergeKey, keyOf(e, mergeKey)) >= 0 ? patchItems : serverOnly).push(e);
    out[field] = normalizeElementOrder(patchItems, serverOnly, order, origList ?? [], mergeKey);
  }

  for (const pk in patch) {
    // (every directive key starts with "$"; the others skip the prefix tests)
    const directiveKey = pk.charCodeAt(0) === 36; /* $ */
    if (directiveKey && (pk === RETAIN_KEYS || pk.startsWith(SET_ELEMENT_ORDER))) continue;
    if (ordered !== null && ordered.has(pk)) continue;
    const pv = patch[pk];
    if (directiveKey && pk.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      // deleteFromSlice
      const field = pk.slice(DELETE_FROM_PRIMITIVE_LIST.length);
      const cur = out[field];
      if (Array.isArray(cur) && Array.isArray(pv)) {
        const del = new Set<unknown>(pv);
        out[field] = cur.filter((v) => !del.has(v));
      }
      continue;
    }
    if (isAbsent(pv)) {
      if (pk in out) {
        delete out[pk];
        deleted = true;
      }
      continue;
    }
    const ov = out[pk];
    if (isAbsent(ov)) {
      out[pk] = clean(pv);
      continue;
    }
    const k = kindOf(ov);
    if (k !== kindOf(pv)) {
      out[pk] = clean(pv);
      continue;
    }
    const fm = fields?.[pk];
    if (k === KIND_MAP) out[pk] = mergeMap(ov as Obj, pv as Obj, fm?.meta);
    else if (k === KIND_LIST) out[pk] = mergeSliceHandler(ov as unknown[], pv as unknown[], fm);
    else out[pk] = pv;
  }
  // A copy without the holes `delete` leaves (V8 keeps such an object in slow dictionary mode, and
  // the merged object is read many times over).
  return deleted ? { ...out } : out;
}

// mergeSliceHandler: merge-keyed lists are merged, every other list is replaced by the patch's.
function mergeSliceHandler(original: unknown[], patch: unknown[], fm: FieldMeta | undefined): unknown[] {
  if (fm?.mergeKey === undefined) return clean(patch) as unknown[];
  return mergeSlice(original, patch, fm.mergeKey, fm.meta);
}

// mergeSlice for lists of maps
function mergeSlice(original: unknown[], patch: unknown[], mergeKey: string, elemMeta: PatchMeta | undefined): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  if (!allObjects(original) || !allObjects(patch)) throw new StrategicMergeError(`cannot merge a list of non-objects by key "${mergeKey}"`);

  // mergeSliceWithSpecialElements
  let orig = original as Obj[];
  const plain: Obj[] = [];
  let replace = false;
  for (const p of patch as Obj[]) {
    const d = p[DIRECTIVE];
    if (d === undefined) {
      plain.push(p);
    } else if (d === 'delete') {
      const kv = p[mergeKey];
      if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(p)} does not contain declared merge key "${mergeKey}"`);
      const kept: Obj[] = [];
      for (const o of orig) if (o[mergeKey] !== kv) kept.push(o);
      orig = kept;
    } else if (d === 'replace') {
      replace = true;
    } else if (d === 'merge') {
      throw new StrategicMergeError('merging lists cannot yet be specified in the patch');
    } else {
      throw new StrategicMergeError(`invalid patch type ${JSON.stringify(d)}`);
    }
  }
  if (replace) return plain.map((p) => clean(p));

  // mergeSliceWithoutSpecialElements
  const merged: unknown[] = [...orig]; // (not slice(): V8's slice is slow on frozen arrays)
  for (const p of plain) {
    const kv = p[mergeKey];
    if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(p)} does not contain declared merge key "${mergeKey}"`);
    let i = 0;
    while (i < merged.length && (merged[i] as Obj)[mergeKey] !== kv) i++;
    if (i < merged.length) merged[i] = mergeMap(merged[i] as Obj, p, elemMeta);
    else merged.push(clean(p));
  }

  // Enforce the order: patch items in patch order, interleaved with server-only items.
  const patchItems: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const e of merged) (firstIndexOfKey(plain, mergeKey, keyOf(e, mergeKey)) >= 0 ? patchItems : serverOnly).push(e);
  return normalizeElementOrder(patchItems, serverOnly, plain, orig, mergeKey);
}

function keyOf(e: unknown, mergeKey: string): unknown {
  return isObj(e) ? e[mergeKey] : undefined;
}

/** The first index in `list` of an element with merge-key value kv (compared as Map keys are:
 *  SameValueZero), or -1. A linear scan: the lists of a pod are short. */
function firstIndexOfKey(list: readonly unknown[], mergeKey: string, kv: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const k = keyOf(list[i], mergeKey);
    if (k === kv || (k !== k && kv !== kv)) return i;
  }
  return -1;
}

// normalizeSliceOrder: stable sort by position in `order` (items not found keep their relative place at the end).
function normalizeSliceOrder(toSort: unknown[], order: readonly unknown[], mergeKey: string): unknown[] {
  if (toSort.length < 2) return toSort;
  const n = toSort.length;
  const pos: number[] = [];
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const p = firstIndexOfKey(order, mergeKey, keyOf(toSort[i], mergeKey));
    pos.push(p < 0 ? Number.MAX_SAFE_INTEGER : p);
    if (i > 0 && pos[i] < pos[i - 1]) sorted = false;
  }
  if (sorted) return toSort; // (a stable sort would keep it as it is)
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  idx.sort((a, b) => pos[a] - pos[b]); // stable
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(toSort[idx[i]]);
  return out;
}

// normalizeElementOrder + mergeSortedSlice: the patch's order takes precedence over the server's;
// a server-only item goes before a patch item only when the server list had it first.
function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
): unknown[] {
  const right = normalizeSliceOrder(patchItems, patchOrder, mergeKey);
  const left = normalizeSliceOrder(serverOnly, serverOrder, mergeKey);
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  const out: unknown[] = [];
  let i = 0, j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = firstIndexOfKey(serverOrder, mergeKey, keyOf(left[i], mergeKey));
      const ri = firstIndexOfKey(serverOrder, mergeKey, keyOf(right[j], mergeKey));
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

// validatePatchWithSetOrderList: the patch list's items must appear in $setElementOrder, in its order.
function validatePatchWithSetOrderList(patchList: unknown[] | undefined, order: unknown[], mergeKey: string | undefined): void {
  if (patchList === undefined || patchList.length === 0 || order.length === 0) return;
  let nonDelete = patchList;
  if (mergeKey !== undefined) {
    nonDelete = [];
    for (const p of patchList) if (!(isObj(p) && p[DIRECTIVE] === 'delete')) nonDelete.push(p);
  }
  let pi = 0, si = 0;
  while (pi < nonDelete.length && si < order.length) {
    const p = nonDelete[pi];
    if (isObj(p) && p[DIRECTIVE] !== undefined) {
      pi++;
      continue;
    }
    const equal = mergeKey === undefined ? p === order[si] : keyOf(p, mergeKey) === keyOf(order[si], mergeKey);
    if (equal) pi++;
    si++;
  }
  if (pi < nonDelete.length) {
    throw new StrategicMergeError(`the order in the patch list ${JSON.stringify(patchList)} doesn't match ${SET_ELEMENT_ORDER} list ${JSON.stringify(order)}`);
  }
}

/**
 * A value taken whole from a patch, as a typed Go decode would keep it: absent (null) fields and
 * `$` directives dropped, `$patch: delete` list elements dropped. Returns the same reference when
 * there is nothing to drop.
 */
function clean(v: unknown): unknown {
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
