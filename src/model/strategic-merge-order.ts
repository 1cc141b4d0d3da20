// k8s.io/apimachinery/pkg/util/strategicpatch/patch.go: the order of merged lists
// ($setElementOrder, normalizeElementOrder, mergeSortedSlice). See strategic-merge.ts.
import { DIRECTIVE, isObj, SET_ELEMENT_ORDER, StrategicMergeError } from './strategic-merge-base.js';

// The ordering below works on the merge-key values of the elements, read once per list: `keys`
// holds keyOf(element, mergeKey) for each element of its list, in the same order.

/** An element's merge-key value (undefined for a non-object). */
export function keyOf(e: unknown, mergeKey: string): unknown {
  return isObj(e) ? e[mergeKey] : undefined;
}

export const EMPTY_KEYS: readonly unknown[] = Object.freeze([]);

export function keysOf(list: readonly unknown[], mergeKey: string): unknown[] {
  const keys: unknown[] = new Array(list.length); // (sized at once: no growing)
  for (let i = 0; i < list.length; i++) keys[i] = keyOf(list[i], mergeKey);
  return keys;
}

/** The first index of merge-key value kv in `keys` (compared as Map keys are: SameValueZero), or -1.
 *  A linear scan: the lists of a pod are short. */
export function indexOfKey(keys: readonly unknown[], kv: unknown): number {
  // (indexOf compares with ===, which is SameValueZero for every value but NaN)
  return kv === kv ? keys.indexOf(kv) : keys.findIndex((k) => k !== k);
}

/** A list's elements and their merge-key values. */
export interface Keyed {
  readonly items: unknown[];
  readonly keys: unknown[];
}

/** The elements whose key is in `patchKeys` (patch items) and the others (server-only items), each
 *  in list order. */
export function partition(items: readonly unknown[], keys: readonly unknown[], patchKeys: readonly unknown[]): { patchItems: Keyed; serverOnly: Keyed } {
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
export function orderElements(items: unknown[], keys: readonly unknown[], patchKeys: readonly unknown[], serverKeys: readonly unknown[]): unknown[] {
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
export function keepsOrder(keys: readonly unknown[], patchKeys: readonly unknown[], serverKeys: readonly unknown[]): boolean {
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
export function normalizeSliceOrder(toSort: Keyed, orderKeys: readonly unknown[]): Keyed {
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
export function normalizeElementOrder(
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
export function validatePatchWithSetOrderList(patchList: unknown[] | undefined, order: unknown[], mergeKey: string | undefined): void {
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
export function nextNonDelete(list: readonly unknown[], i: number, mergeKey: string | undefined): number {
  if (mergeKey === undefined) return i;
  while (i < list.length) {
    const p = list[i];
    if (!(isObj(p) && p[DIRECTIVE] === 'delete')) break;
    i++;
  }
  return i;
}
