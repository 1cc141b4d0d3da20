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
  const keys = sortStrings(Object.keys(o));
  const r: Obj = {};
  for (const k of keys) r[k] = o[k];
  return r;
}

/** `a` sorted in place as Array.prototype.sort() sorts strings (by UTF-16 code units); an
 *  insertion sort, quicker than sort() on the few keys of a patch object. */
function sortStrings(a: string[]): string[] {
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

function mergeKeyString(v: unknown): string {
  // Upstream matches merge keys through fmt.Sprintf("%v"); for the string keys of a Pod that is the string.
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function allObjects(list: readonly unknown[]): boolean {
  // (an indexed loop: for-of makes an iterator, and V8 does not always elide it on frozen arrays)
  for (let i = 0; i < list.length; i++) if (!isObj(list[i])) return false;
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
  return sortKeys(diffMaps(original as Obj, modified as Obj, meta, false) ?? {});
}

// diffMaps, without its final sort: the patch with its keys in the order they were found, or null
// for an empty patch (made only once there is something to put in it). Callers sort it (sortKeys)
// once they have added what they add (diffListsOfMaps adds the merge key).
function diffMaps(original: Obj, modified: Obj, meta: PatchMeta | undefined, retainKeys: boolean): Obj | null {
  let patch: Obj | null = null;
  const fields = meta?.fields;
  let kept = 0; // fields of `original` that `modified` has too
  for (const key in modified) {
    const mv = modified[key];
    if (isAbsent(mv)) continue;
    const ov = original[key];
    if (isAbsent(ov)) {
      (patch ??= {})[key] = mv; // added
      continue;
    }
    // (Not counted: what may come from Object.prototype rather than from `original`'s own fields,
    // i.e. its methods and __proto__; counting too few only costs the full updatePatchIfMissing walk.)
    if (typeof ov !== 'function' && key !== '__proto__') kept++;
    // The very same value, with no merge list below it (no patch metadata): nothing to diff.
    if (ov === mv && fields?.[key] === undefined) continue;
    if (key === DIRECTIVE) {
      // handleDirectiveMarker: only documents that are themselves patches carry one.
      if (ov !== mv) (patch ??= {})[key] = mv;
      continue;
    }
    const k = kindOf(ov);
    if (k !== kindOf(mv)) {
      (patch ??= {})[key] = mv; // the type changed
      continue;
    }
    if (k === KIND_MAP) {
      // handleMapDiff
      const sub = diffMaps(ov as Obj, mv as Obj, fields?.[key]?.meta, false);
      if (sub !== null) (patch ??= {})[key] = sortKeys(sub);
    } else if (k === KIND_LIST) {
      // handleSliceDiff
      const fm = fields?.[key];
      if (fm?.mergeKey !== undefined && allObjects(ov as unknown[]) && allObjects(mv as unknown[])) {
        patch = diffMergeList(key, ov as Obj[], mv as Obj[], fm, patch);
      } else if (!jsonEqual(ov, mv)) {
        (patch ??= {})[key] = mv;
      }
    } else if (ov !== mv) {
      (patch ??= {})[key] = mv; // replacePatchFieldIfNotEqual
    }
  }
  // updatePatchIfMissing: removed fields become null (there are some when `original` has more
  // fields than those `modified` kept).
  let present = 0;
  for (const key in original) if (!isAbsent(original[key])) present++;
  if (present > kept) {
    for (const key in original) {
      if (!isAbsent(original[key]) && isAbsent(modified[key])) (patch ??= {})[key] = null;
    }
  }
  if (retainKeys && (patch !== null || hasAdditionalNewField(original, modified))) {
    const keep: string[] = [];
    for (const key in modified) if (!isAbsent(modified[key])) keep.push(key);
    (patch ??= {})[RETAIN_KEYS] = keep.sort();
  }
  return patch;
}

// hasAdditionalNewField: original holds a (non-null) field that modified lacks.
function hasAdditionalNewField(original: Obj, modified: Obj): boolean {
  for (const k in original) if (!isAbsent(original[k]) && isAbsent(modified[k])) return true;
  return false;
}

// diffLists + diffListsOfMaps for a list of objects with a merge key: its entries added to `patch`
// (made if null and needed), which is returned.
function diffMergeList(key: string, original: Obj[], modified: Obj[], fm: FieldMeta, patch: Obj | null): Obj | null {
  const mergeKey = fm.mergeKey!;
  if (original.length === 0) {
    if (modified.length > 0) (patch ??= {})[key] = modified; // the old list was empty: send the new one whole
    return patch;
  }
  // The merge-key strings of `original` (a linear search: the lists of a pod are short); an
  // element of `original` whose key string came earlier in the list is never looked at.
  const origKeys: string[] = [];
  for (let i = 0; i < original.length; i++) {
    const o = original[i];
    const kv = o[mergeKey];
    if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(o)} does not contain declared merge key "${mergeKey}"`);
    origKeys.push(mergeKeyString(kv));
  }
  // Changed and added elements, in the order of `modified` (normalizeSliceOrder).
  let patchList: unknown[] | null = null;
  const seen: boolean[] = new Array<boolean>(original.length).fill(false); // by index of first occurrence
  for (let j = 0; j < modified.length; j++) {
    const m = modified[j];
    const kv = m[mergeKey];
    if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(m)} does not contain declared merge key "${mergeKey}"`);
    const i = origKeys.indexOf(mergeKeyString(kv));
    if (i < 0) {
      (patchList ??= []).push(m);
      continue;
    }
    seen[i] = true;
    const o = original[i];
    if (o === m && fm.meta === undefined) continue; // the very same element: no difference
    const d = diffMaps(o, m, fm.meta, fm.retainKeys === true);
    if (d !== null) {
      d[mergeKey] = kv;
      (patchList ??= []).push(sortKeys(d)); // (one sort, with the merge key in)
    }
  }
  // Removed elements, appended in merge-key order (upstream walks both lists sorted by key).
  let removed: string[] | null = null;
  for (let i = 0; i < original.length; i++) {
    if (!seen[i] && origKeys.indexOf(origKeys[i]) === i) (removed ??= []).push(origKeys[i]);
  }
  if (removed !== null) {
    sortStrings(removed);
    for (let r = 0; r < removed.length; r++) {
      (patchList ??= []).push({ [DIRECTIVE]: 'delete', [mergeKey]: original[origKeys.indexOf(removed[r])][mergeKey] });
    }
  }

  // isOrderSame
  let orderSame = original.length === modified.length;
  for (let i = 0; orderSame && i < modified.length; i++) orderSame = original[i][mergeKey] === modified[i][mergeKey];

  if (patchList !== null) (patch ??= {})[key] = patchList;
  if ((patchList !== null || !orderSame) && modified.length > 0) {
    const order: Obj[] = [];
    for (let i = 0; i < modified.length; i++) order.push({ [mergeKey]: modified[i][mergeKey] });
    (patch ??= {})[setElementOrderKey(key)] = order;
  }
  return patch;
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
  const fields = meta?.fields;

  // applyRetainKeysDirective (the keys it removes are left out of `out` below)
  const retain = patch[RETAIN_KEYS];
  let keep: Set<unknown> | null = null;
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw new StrategicMergeError('$retainKeys must be a list');
    keep = new Set<unknown>(retain);
    for (const k in patch) {
      if (isAbsent(patch[k]) || k.charCodeAt(0) === 36 /* $ */) continue;
      if (!keep.has(k)) throw new StrategicMergeError(`field ${k} is in the patch but not in $retainKeys`);
    }
  }

  // `out` starts as a copy of `original` without the fields the patch deletes (those $retainKeys
  // leaves out, and those the patch sets to null: see the main loop below). Copying only what is
  // kept, rather than copying all and then using `delete`, gives the same keys in the same order
  // and keeps `out` a fast-mode object (V8 turns an object with deleted keys into a slow
  // dictionary, and the merged object is read many times over).
  let out: Obj;
  const nulled = deletedFields(patch);
  if (original === undefined) {
    out = {};
  } else if (keep === null && nulled === null) {
    out = { ...original };
  } else {
    out = {};
    for (const k in original) {
      if ((keep !== null && !keep.has(k)) || (nulled !== null && nulled.includes(k))) continue;
      out[k] = original[k];
    }
  }

  // mergePatchIntoOriginal: lists with a $setElementOrder directive, merged and ordered together.
  let ordered: string[] | null = null; // (few: a linear search)
  for (const pk in patch) {
    if (pk.charCodeAt(0) !== 36 /* $ */ || !pk.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = pk.slice(SET_ELEMENT_ORDER.length);
    (ordered ??= []).push(field);
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
    // (a list taken from the patch is copied, as normalizeElementOrder would: the result is not
    // the patch's own list)
    const orderKeys = keysOf(order, mergeKey);
    const mergedKeys = keysOf(merged, mergeKey);
    const serverKeys = origList === undefined ? EMPTY_KEYS : keysOf(origList, mergeKey);
    out[field] = merged === patchList ? normalizeElementOrder(partition(merged, mergedKeys, orderKeys), orderKeys, serverKeys) : orderElements(merged, mergedKeys, orderKeys, serverKeys);
  }

  for (const pk in patch) {
    // (every directive key starts with "$"; the others skip the prefix tests)
    const directiveKey = pk.charCodeAt(0) === 36; /* $ */
    if (directiveKey && (pk === RETAIN_KEYS || pk.startsWith(SET_ELEMENT_ORDER))) continue;
    if (ordered !== null && ordered.includes(pk)) continue;
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
    if (isAbsent(pv)) continue; // a deleted field: left out of `out` above (see deletedFields)
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
  return out;
}

/** The fields a patch deletes in mergeMap's main loop (or null for none): those it sets to null,
 *  unless the main loop skips the key (a $retainKeys, $setElementOrder/ or
 *  $deleteFromPrimitiveList/ directive, or a list that a $setElementOrder directive orders). */
function deletedFields(patch: Obj): string[] | null {
  let out: string[] | null = null;
  let ordersLists = false; // the patch holds a $setElementOrder directive
  for (const pk in patch) {
    const directiveKey = pk.charCodeAt(0) === 36; /* $ */
    if (directiveKey && pk.startsWith(SET_ELEMENT_ORDER)) ordersLists = true;
    if (!isAbsent(patch[pk])) continue;
    if (directiveKey && (pk === RETAIN_KEYS || pk.startsWith(SET_ELEMENT_ORDER) || pk.startsWith(DELETE_FROM_PRIMITIVE_LIST))) continue;
    (out ??= []).push(pk);
  }
  if (out !== null && ordersLists) {
    out = out.filter((k) => !(SET_ELEMENT_ORDER + k in patch));
    if (out.length === 0) return null;
  }
  return out;
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

  // mergeSliceWithSpecialElements. `plain` (the patch's elements without a directive) is the
  // patch itself until an element with a directive turns up.
  let orig = original as Obj[];
  let plain = patch as Obj[];
  let replace = false;
  for (let i = 0; i < patch.length; i++) {
    const p = patch[i] as Obj;
    const d = p[DIRECTIVE];
    if (d === undefined) {
      if (plain !== patch) plain.push(p);
      continue;
    }
    if (plain === patch) {
      plain = [];
      for (let j = 0; j < i; j++) plain.push(patch[j] as Obj);
    }
    if (d === 'delete') {
      const kv = p[mergeKey];
      if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(p)} does not contain declared merge key "${mergeKey}"`);
      const kept: Obj[] = [];
      for (let j = 0; j < orig.length; j++) if (orig[j][mergeKey] !== kv) kept.push(orig[j]);
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

  // mergeSliceWithoutSpecialElements (keys[i] is the merge-key value of merged[i])
  const merged: unknown[] = [...orig]; // (not slice(): V8's slice is slow on frozen arrays)
  const origKeys = keysOf(orig, mergeKey);
  const keys = [...origKeys];
  const plainKeys: unknown[] = [];
  for (let j = 0; j < plain.length; j++) {
    const p = plain[j];
    const kv = p[mergeKey];
    if (isAbsent(kv)) throw new StrategicMergeError(`map ${JSON.stringify(p)} does not contain declared merge key "${mergeKey}"`);
    plainKeys.push(kv);
    let i = 0;
    while (i < merged.length && keys[i] !== kv) i++;
    if (i < merged.length) merged[i] = mergeMap(merged[i] as Obj, p, elemMeta);
    else merged.push(clean(p));
    keys[i] = keyOf(merged[i], mergeKey);
  }

  // Enforce the order: patch items in patch order, interleaved with server-only items.
  return orderElements(merged, keys, plainKeys, origKeys);
}

function keyOf(e: unknown, mergeKey: string): unknown {
  return isObj(e) ? e[mergeKey] : undefined;
}

// The ordering below works on the merge-key values of the elements, read once per list: `keys`
// holds keyOf(element, mergeKey) for each element of its list, in the same order.

const EMPTY_KEYS: readonly unknown[] = Object.freeze([]);

function keysOf(list: readonly unknown[], mergeKey: string): unknown[] {
  const keys: unknown[] = new Array(list.length); // (sized at once: no growing)
  for (let i = 0; i < list.length; i++) keys[i] = keyOf(list[i], mergeKey);
  return keys;
}

/** The first index of merge-key value kv in `keys` (compared as Map keys are: SameValueZero), or -1.
 *  A linear scan: the lists of a pod are short. */
function indexOfKey(keys: readonly unknown[], kv: unknown): number {
  // (indexOf compares with ===, which is SameValueZero for every value but NaN)
  return kv === kv ? keys.indexOf(kv) : keys.findIndex((k) => k !== k);
}

/** A list's elements and their merge-key values. */
interface Keyed {
  readonly items: unknown[];
  readonly keys: unknown[];
}

/** The elements whose key is in `patchKeys` (patch items) and the others (server-only items), each
 *  in list order. */
function partition(items: readonly unknown[], keys: readonly unknown[], patchKeys: readonly unknown[]): { patchItems: Keyed; serverOnly: Keyed } {
  const patchItems: Keyed = { items: [], keys: [] };
  const serverOnly: Keyed = { items: [], keys: [] };
  for (let i = 0; i < items.length; i++) {
    const to = indexOfKey(patchKeys, keys[i]) >= 0 ? patchItems : serverOnly;
    to.items.push(items[i]);
    to.keys.push(keys[i]);
  }
  return { patchItems, serverOnly };
}

/** normalizeElementOrder(partition(items, keys, patchKeys), patchKeys, serverKeys), which is
 *  `items` itself (not a copy) when they are already in that order (see keepsOrder). */
function orderElements(items: unknown[], keys: readonly unknown[], patchKeys: readonly unknown[], serverKeys: readonly unknown[]): unknown[] {
  if (keepsOrder(keys, patchKeys, serverKeys)) return items;
  return normalizeElementOrder(partition(items, keys, patchKeys), patchKeys, serverKeys);
}

/**
 * Whether normalizeElementOrder would leave a list with merge-key values `keys` as it is: when
 * every key is found in `serverKeys`, at strictly increasing positions, and the keys found in
 * `patchKeys` are at increasing positions there. Why that is enough: the keys are then distinct;
 * partition splits the list into two subsequences, each in list order; normalizeSliceOrder keeps
 * both as they are (each is sorted already: the patch items by their patchKeys position, the
 * server-only items by their serverKeys position); and the merge, which takes the head with the
 * smaller serverKeys position (both are found, and never equal), takes them back in list order.
 */
function keepsOrder(keys: readonly unknown[], patchKeys: readonly unknown[], serverKeys: readonly unknown[]): boolean {
  let lastServer = -1;
  let lastPatch = -1;
  for (let i = 0; i < keys.length; i++) {
    const s = indexOfKey(serverKeys, keys[i]);
    if (s <= lastServer) return false; // (not found, or not after the previous one)
    lastServer = s;
    const p = indexOfKey(patchKeys, keys[i]);
    if (p >= 0) {
      if (p < lastPatch) return false;
      lastPatch = p;
    }
  }
  return true;
}

// normalizeSliceOrder: stable sort by position in `order` (items not found keep their relative place at the end).
function normalizeSliceOrder(toSort: Keyed, orderKeys: readonly unknown[]): Keyed {
  const n = toSort.items.length;
  if (n < 2) return toSort;
  const pos: number[] = [];
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const p = indexOfKey(orderKeys, toSort.keys[i]);
    pos.push(p < 0 ? Number.MAX_SAFE_INTEGER : p);
    if (i > 0 && pos[i] < pos[i - 1]) sorted = false;
  }
  if (sorted) return toSort; // (a stable sort would keep it as it is)
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  idx.sort((a, b) => pos[a] - pos[b]); // stable
  const out: Keyed = { items: [], keys: [] };
  for (let i = 0; i < n; i++) {
    out.items.push(toSort.items[idx[i]]);
    out.keys.push(toSort.keys[idx[i]]);
  }
  return out;
}

// normalizeElementOrder + mergeSortedSlice: the patch's order takes precedence over the server's;
// a server-only item goes before a patch item only when the server list had it first.
function normalizeElementOrder(
  parts: { patchItems: Keyed; serverOnly: Keyed },
  patchOrderKeys: readonly unknown[],
  serverOrderKeys: readonly unknown[],
): unknown[] {
  const right = normalizeSliceOrder(parts.patchItems, patchOrderKeys);
  const left = normalizeSliceOrder(parts.serverOnly, serverOrderKeys);
  if (left.items.length === 0) return right.items;
  if (right.items.length === 0) return left.items;
  const out: unknown[] = [];
  let i = 0, j = 0;
  while (i < left.items.length || j < right.items.length) {
    if (i >= left.items.length) out.push(right.items[j++]);
    else if (j >= right.items.length) out.push(left.items[i++]);
    else {
      const li = indexOfKey(serverOrderKeys, left.keys[i]);
      const ri = indexOfKey(serverOrderKeys, right.keys[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left.items[i++]);
      else out.push(right.items[j++]);
    }
  }
  return out;
}

// validatePatchWithSetOrderList: the patch list's items must appear in $setElementOrder, in its order.
// (Upstream first copies the list without its `$patch: delete` items; here they are stepped over.)
function validatePatchWithSetOrderList(patchList: unknown[] | undefined, order: unknown[], mergeKey: string | undefined): void {
  if (patchList === undefined || patchList.length === 0 || order.length === 0) return;
  const n = patchList.length;
  let pi = nextNonDelete(patchList, 0, mergeKey);
  let si = 0;
  while (pi < n && si < order.length) {
    const p = patchList[pi];
    if (isObj(p) && p[DIRECTIVE] !== undefined) {
      pi = nextNonDelete(patchList, pi + 1, mergeKey);
      continue;
    }
    const equal = mergeKey === undefined ? p === order[si] : keyOf(p, mergeKey) === keyOf(order[si], mergeKey);
    if (equal) pi = nextNonDelete(patchList, pi + 1, mergeKey);
    si++;
  }
  if (pi < n) {
    throw new StrategicMergeError(`the order in the patch list ${JSON.stringify(patchList)} doesn't match ${SET_ELEMENT_ORDER} list ${JSON.stringify(order)}`);
  }
}

/** The first index from i of an item that is not a `$patch: delete` element (lists with a merge
 *  key only), or list.length. */
function nextNonDelete(list: readonly unknown[], i: number, mergeKey: string | undefined): number {
  if (mergeKey === undefined) return i;
  while (i < list.length) {
    const p = list[i];
    if (!(isObj(p) && p[DIRECTIVE] === 'delete')) break;
    i++;
  }
  return i;
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
