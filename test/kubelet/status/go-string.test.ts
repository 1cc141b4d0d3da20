// Go strings as bytes (issue 13 §4): a termination message cut mid-character keeps its leftover
// bytes in the cache, and encoding/json writes each of them as its own U+FFFD.
import { describe, expect, it } from 'vitest';
import { goBytesString, goJsonString, goStringBytes, hasRawBytes, truncateBytes } from '../../../src/kubelet/status/go-string.js';
import { goJsonPodStatus, semanticDeepEqual } from '../../../src/kubelet/status/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('Go string bytes', () => {
  it('cutting "€" (E2 82 AC) after two bytes keeps both, one raw byte each', () => {
    const cut = truncateBytes('ab€', 4);
    expect(cut).toBe('ab\udce2\udc82');
    expect(hex(goStringBytes(cut))).toBe('6162e282');
    expect(hasRawBytes(cut)).toBe(true);
    // encoding/json: utf8.DecodeRuneInString gives (RuneError, 1) for each byte: two U+FFFD
    expect(goJsonString(cut)).toBe('ab\ufffd\ufffd');
    // (WHATWG's decoder would give one U+FFFD for the maximal subpart)
    expect(new TextDecoder().decode(Buffer.from('6162e282', 'hex'))).toBe('ab\ufffd');
  });

  it('a cut on a character boundary, or no cut at all, leaves valid text', () => {
    expect(truncateBytes('ab€c', 5)).toBe('ab€');
    expect(truncateBytes('ab€', 5)).toBe('ab€');
    expect(truncateBytes('😀x', 3)).toBe('\udcf0\udc9f\udc98');
    expect(hasRawBytes('😀\udc80'.slice(0, 2))).toBe(false); // a surrogate pair is not a raw byte
  });

  it('round trips bytes, valid or not', () => {
    for (const h of ['', '61', 'e282ac', 'e282', 'ff', 'c0af', 'eda080', 'f4908080', '61e28262', 'f09f9880e2']) {
      const b = Buffer.from(h, 'hex');
      expect(hex(goStringBytes(goBytesString(b)))).toBe(h);
    }
    // Go's accept ranges: overlong C0 AF and the surrogate ED A0 80 are invalid, byte by byte
    expect(goBytesString(Buffer.from('c0af', 'hex'))).toBe('\udcc0\udcaf');
    expect(goBytesString(Buffer.from('eda080', 'hex'))).toBe('\udced\udca0\udc80');
  });

  it('cutting is idempotent on a cut string (the cache is already normal)', () => {
    const cut = truncateBytes('x'.repeat(10) + '€', 12);
    expect(truncateBytes(cut, 12)).toBe(cut);
  });

  it('the cut cache and the API copy marshal alike but are not DeepEqual: needsReconcile forever', () => {
    const cache = truncateBytes('ab€', 4); // ab E2 82
    const api = goJsonString(cache); // ab U+FFFD U+FFFD (8 bytes)
    const recut = truncateBytes(api, 4); // ab EF BF
    expect(recut).toBe('ab\udcef\udcbf');
    expect(semanticDeepEqual(recut, cache, 'message')).toBe(false);
    const status = (m: string) => ({ containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 1, message: m } } }] });
    expect(goJsonPodStatus(status(cache))).toEqual(goJsonPodStatus(status(api)));
  });
});
