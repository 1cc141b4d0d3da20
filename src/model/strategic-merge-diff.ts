// k8s.io/apimachinery/pkg/util/strategicpatch/patch.go: the two-way diff (client side),
// CreateTwoWayMergeMapPatch with diffMaps and diffListsOfMaps. See strategic-merge.ts.
import { allObjects, DIRECTIVE, type FieldMeta, isAbsent, jsonEqual, KIND_LIST, KIND_MAP, kindOf, mergeKeyString, type Obj, type PatchMeta, POD_PATCH_META, RETAIN_KEYS, setElementOrderKey, sortKeys, sortStrings, StrategicMergeError } from './strategic-merge-base.js';

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
export function diffMaps(original: Obj, modified: Obj, meta: PatchMeta | undefined, retainKeys: boolean): Obj | null {
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
export function hasAdditionalNewField(original: Obj, modified: Obj): boolean {
  for (const k in original) if (!isAbsent(original[k]) && isAbsent(modified[k])) return true;
  return false;
}

// diffLists + diffListsOfMaps for a list of objects with a merge key: its entries added to `patch`
// (made if null and needed), which is returned.
export function diffMergeList(key: string, original: Obj[], modified: Obj[], fm: FieldMeta, patch: Obj | null): Obj | null {
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
