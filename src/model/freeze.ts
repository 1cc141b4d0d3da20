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
