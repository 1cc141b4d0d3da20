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
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i] || !sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
