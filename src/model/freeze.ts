/** Deep-freeze a plain JSON-shaped value in place (the stand-in for upstream's DeepCopy discipline:
 *  a frozen value can be shared safely). An already frozen object is taken as frozen all the way
 *  down, which holds for everything frozen here or by immer. */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) deepFreeze(v[i]);
  } else {
    for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}
