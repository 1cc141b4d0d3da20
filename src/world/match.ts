// Subset matching of expected values against actual ones (scenario-format.md "Assertions"):
// every field given must equal the actual value, fields not given are ignored; lists of conditions
// and container statuses are matched by `type` / `name`, not by position; operators stand where a
// value would: {$exists: bool}, {$ne: X}, {$len: N}. The quantities of a ResourceList
// (allocatedResources, limits, requests) match by value, as resource.Quantity compares: "1" is "1000m".
import { cmpQuantity, parseQuantityValue } from '../model/quantity.js';

const RESOURCE_LISTS = new Set(['allocatedResources', 'limits', 'requests']);

/** Two quantities of equal value (false when either is no quantity). */
function sameQuantity(a: unknown, b: unknown): boolean {
  const x = parseQuantityValue(a);
  const y = parseQuantityValue(b);
  return x !== undefined && y !== undefined && cmpQuantity(x, y) === 0;
}

/** List fields matched by a key rather than by position. */
const KEYED_LISTS: Record<string, string> = {
  conditions: 'type',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  ephemeralContainerStatuses: 'name',
  podIPs: 'ip',
  hostIPs: 'ip',
  resourceClaimStatuses: 'name',
};

export interface Mismatch {
  path: string;
  expected: unknown;
  actual: unknown;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isOperator(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const ks = Object.keys(v);
  return ks.length > 0 && ks.every((k) => k.startsWith('$'));
}

function absent(v: unknown): boolean {
  return v === undefined || v === null;
}

/** Deep equality as Go's JSON sees it: absent == null; arrays by position; objects by key. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (absent(a) && absent(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** Returns the first mismatch, or undefined when `actual` matches `expected`. */
export function match(expected: unknown, actual: unknown, path = '', field = ''): Mismatch | undefined {
  if (isOperator(expected)) {
    for (const [op, arg] of Object.entries(expected)) {
      switch (op) {
        case '$exists': {
          const exists = !absent(actual);
          if (exists !== arg) return { path, expected, actual };
          break;
        }
        case '$ne':
          if (match(arg, actual, path, field) === undefined) return { path, expected, actual };
          break;
        case '$len': {
          const n = Array.isArray(actual) ? actual.length : absent(actual) ? 0 : -1;
          if (n !== arg) return { path, expected, actual };
          break;
        }
        default:
          return { path, expected, actual: `unknown operator ${op}` };
      }
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    const list = absent(actual) ? [] : actual;
    if (!Array.isArray(list)) return { path, expected, actual };
    const key = KEYED_LISTS[field];
    if (key !== undefined) {
      for (const e of expected) {
        if (!isPlainObject(e) || e[key] === undefined) {
          return { path, expected, actual: `each expected ${field} entry needs its ${key}` };
        }
        const a = list.find((x) => isPlainObject(x) && x[key] === e[key]);
        const sub = `${path}[${key}=${String(e[key])}]`;
        if (a === undefined) return { path: sub, expected: e, actual: undefined };
        const m = match(e, a, sub);
        if (m) return m;
      }
      return undefined;
    }
    if (expected.length !== list.length) return { path, expected, actual };
    for (let i = 0; i < expected.length; i++) {
      const m = match(expected[i], list[i], `${path}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return { path, expected, actual };
    for (const [k, v] of Object.entries(expected)) {
      if (RESOURCE_LISTS.has(field) && !isOperator(v) && sameQuantity(v, actual[k])) continue;
      const m = match(v, actual[k], path ? `${path}.${k}` : k, k);
      if (m) return m;
    }
    return undefined;
  }
  if (absent(expected)) return absent(actual) ? undefined : { path, expected, actual };
  return expected === actual ? undefined : { path, expected, actual };
}
