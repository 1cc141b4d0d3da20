// Go strings are bytes; JavaScript strings are UTF-16. The status manager cuts termination messages
// by bytes (normalizeStatus: `c.Terminated.Message[:bytesPerStatus]`), which may split a UTF-8
// sequence, and Go keeps the cut bytes as they are. Here such a string is held "surrogate-escaped":
// each byte that is not part of a valid UTF-8 sequence is the unpaired low surrogate U+DC00+byte
// (U+DC80..U+DCFF), so the cache holds exactly Go's bytes. On the wire, encoding/json (encode.go
// appendString) writes each such byte as its own U+FFFD ("\ufffd"): utf8.DecodeRuneInString returns
// (RuneError, 1) for every byte of an invalid or incomplete sequence.

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true });

/** An unpaired U+DC80..U+DCFF: a raw byte of a Go string. */
const RAW_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;
const RAW_BYTES = /(?<![\ud800-\udbff])[\udc80-\udcff]/g;

/** Does `s` hold a byte that is not valid UTF-8 (as a Go string would)? */
export function hasRawBytes(s: string): boolean {
  return RAW_BYTE.test(s);
}

/** The bytes of the Go string `s` stands for. */
export function goStringBytes(s: string): Uint8Array {
  if (!hasRawBytes(s)) return encoder.encode(s);
  const parts: number[] = [];
  let start = 0;
  for (const m of s.matchAll(RAW_BYTES)) {
    for (const b of encoder.encode(s.slice(start, m.index))) parts.push(b);
    parts.push(m[0].charCodeAt(0) - 0xdc00);
    start = m.index + 1;
  }
  for (const b of encoder.encode(s.slice(start))) parts.push(b);
  return Uint8Array.from(parts);
}

/** The length of the valid UTF-8 sequence at bytes[i] (Go's utf8 accept ranges), or 0. */
function validSequence(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i];
  if (b0 < 0x80) return 1;
  const cont = (j: number, lo = 0x80, hi = 0xbf) => j < bytes.length && bytes[j] >= lo && bytes[j] <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/** The string standing for the Go bytes `bytes`: valid UTF-8 decoded, each other byte raw. */
export function goBytesString(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    // some byte is not valid UTF-8: below
  }
  let out = '';
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = validSequence(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += fatal.decode(bytes.subarray(start, i)) + String.fromCharCode(0xdc00 + bytes[i]);
    i++;
    start = i;
  }
  return out + fatal.decode(bytes.subarray(start));
}

/** Go's s[:n] on a string's bytes: the cut may leave an incomplete UTF-8 sequence, kept as bytes. */
export function truncateBytes(s: string, n: number): string {
  // Fast path: every UTF-16 unit is at least one byte (a raw byte exactly one), at most three.
  if (s.length * 3 <= n) return s;
  const bytes = goStringBytes(s);
  if (bytes.length <= n) return s;
  return goBytesString(bytes.subarray(0, n));
}

/** What encoding/json writes for the Go string `s`: each raw byte becomes U+FFFD. */
export function goJsonString(s: string): string {
  return hasRawBytes(s) ? s.replace(RAW_BYTES, '\ufffd') : s;
}
