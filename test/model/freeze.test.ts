import { describe, expect, it } from 'vitest';
import { deepFreeze, sameValue } from '../../src/model/freeze.js';

describe('sameValue', () => {
  it('holds for the same value written the same way', () => {
    expect(sameValue({ a: 1, b: [{ c: 'x' }, null] }, { a: 1, b: [{ c: 'x' }, null] })).toBe(true);
    expect(sameValue(deepFreeze({ a: { b: [] } }), { a: { b: [] } })).toBe(true);
  });
  it('fails on another key order, value, length, kind or key', () => {
    expect(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameValue({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameValue([], {})).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue({ a: 1, b: 1 }, { a: 1, c: 1 })).toBe(false);
    expect(sameValue(null, {})).toBe(false);
  });
  it('is right after a nested mismatch (its key lists are unwound)', () => {
    expect(sameValue({ a: { x: 1 }, b: 1 }, { a: { x: 2 }, b: 1 })).toBe(false);
    expect(sameValue({ p: { q: { r: 1 } }, s: 2 }, { p: { q: { r: 1 } }, s: 2 })).toBe(true);
  });
});
