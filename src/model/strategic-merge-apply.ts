// k8s.io/apimachinery/pkg/util/strategicpatch/patch.go: applying a patch (server side),
// StrategicMergeMapPatch with mergeMap and mergeSlice. See strategic-merge.ts.
import { allObjects, clean, DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE, type FieldMeta, isAbsent, KIND_LIST, KIND_MAP, kindOf, type Obj, type PatchMeta, POD_PATCH_META, RETAIN_KEYS, SET_ELEMENT_ORDER, StrategicMergeError } from './strategic-merge-base.js';
import { EMPTY_KEYS, keyOf, keysOf, normalizeElementOrder, orderElements, partition, validatePatchWithSetOrderList } from './strategic-merge-order.js';

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
export function mergeMap(original: Obj | undefined, patch: Obj, meta: PatchMeta | undefined): Obj {
  const directive = patch[DIRECTIVE];
  if (directive !== undefined) {
    // handleDirectiveInMergeMap
    if (directive === 'replace') return clean(patch) as Obj;
    if (directive === 'delete') return {};
    throw new StrategicMergeError(`invalid patch type ${JSON.stringify(directive)}`);
  }
  const fields = meta?.fields;

  const out = keptFields(original, applyRetainKeysDirective(patch), deletedFields(patch));
  const ordered = mergePatchIntoOriginal(out, patch, fields);

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

// applyRetainKeysDirective: the keys $retainKeys keeps (null: no directive); the keys it removes
// are left out of mergeMap's `out`.
export function applyRetainKeysDirective(patch: Obj): Set<unknown> | null {
  const retain = patch[RETAIN_KEYS];
  if (retain === undefined) return null;
  if (!Array.isArray(retain)) throw new StrategicMergeError('$retainKeys must be a list');
  const keep = new Set<unknown>(retain);
  for (const k in patch) {
    if (isAbsent(patch[k]) || k.charCodeAt(0) === 36 /* $ */) continue;
    if (!keep.has(k)) throw new StrategicMergeError(`field ${k} is in the patch but not in $retainKeys`);
  }
  return keep;
}

/** mergeMap's `out` to start from: a copy of `original` without the fields the patch deletes
 *  (those $retainKeys leaves out, and those the patch sets to null: see mergeMap's main loop).
 *  Copying only what is kept, rather than copying all and then using `delete`, gives the same
 *  keys in the same order and keeps `out` a fast-mode object (V8 turns an object with deleted
 *  keys into a slow dictionary, and the merged object is read many times over). */
export function keptFields(original: Obj | undefined, keep: Set<unknown> | null, nulled: string[] | null): Obj {
  if (original === undefined) return {};
  if (keep === null && nulled === null) return { ...original };
  const out: Obj = {};
  for (const k in original) {
    if ((keep !== null && !keep.has(k)) || (nulled !== null && nulled.includes(k))) continue;
    out[k] = original[k];
  }
  return out;
}

// mergePatchIntoOriginal: the lists with a $setElementOrder directive, merged and ordered together
// into `out`. Returns their fields (null: none; few, so a linear search), which mergeMap's main
// loop then skips.
export function mergePatchIntoOriginal(out: Obj, patch: Obj, fields: Readonly<Record<string, FieldMeta>> | undefined): string[] | null {
  let ordered: string[] | null = null;
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
  return ordered;
}

/** The fields a patch deletes in mergeMap's main loop (or null for none): those it sets to null,
 *  unless the main loop skips the key (a $retainKeys, $setElementOrder/ or
 *  $deleteFromPrimitiveList/ directive, or a list that a $setElementOrder directive orders). */
export function deletedFields(patch: Obj): string[] | null {
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
export function mergeSliceHandler(original: unknown[], patch: unknown[], fm: FieldMeta | undefined): unknown[] {
  if (fm?.mergeKey === undefined) return clean(patch) as unknown[];
  return mergeSlice(original, patch, fm.mergeKey, fm.meta);
}

// mergeSlice for lists of maps
export function mergeSlice(original: unknown[], patch: unknown[], mergeKey: string, elemMeta: PatchMeta | undefined): unknown[] {
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
