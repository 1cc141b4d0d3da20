/** Deep-freeze a plain JSON-shaped value in place (the stand-in for upstream's DeepCopy discipline:
 *  a frozen value can be shared safely). An already frozen object is taken as frozen all the way
 *  down, which holds for everything frozen here or by immer. */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  // (primitives, the most of a status's fields, are not worth a call)
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') deepFreeze(x);
    }
  } else {
    for (const k in v) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') deepFreeze(x);
    }
  }
  return v;
}

/** Are two plain JSON-shaped values the same value written the same way: equal scalars, arrays of
 *  the same elements, objects with the same keys in the same order and the same values? (What
 *  decides whether a freshly built value may be replaced by an equal frozen one already kept: no
 *  reader, JSON.stringify included, can tell the two apart but by identity.) */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  return sameObject(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** sameValue's key lists, one segment per object being compared (no array per object). */
const keyStack: string[] = [];

function sameObject(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const base = keyStack.length;
  for (const k in a) keyStack.push(k);
  const n = keyStack.length - base;
  let ok = true;
  let i = 0;
  for (const k in b) {
    if (i >= n || keyStack[base + i] !== k) {
      ok = false;
      break;
    }
    i++;
  }
  if (i !== n) ok = false;
  for (let x = 0; ok && x < n; x++) {
    const k = keyStack[base + x];
    ok = sameValue(a[k], b[k]);
  }
  keyStack.length = base;
  return ok;
}
