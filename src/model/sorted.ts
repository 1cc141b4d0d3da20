// Binary search over a sorted list of strings (compared with <, as Array.prototype.sort's default
// order for the UIDs and keys kss sorts).

/** The first index of the sorted list `a` whose value is not below `v`. */
export function lowerBound(a: readonly string[], v: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position of `v` in the sorted list `a`, or -1. */
export function sortedIndexOf(a: readonly string[], v: string): number {
  const i = lowerBound(a, v);
  return i < a.length && a[i] === v ? i : -1;
}
