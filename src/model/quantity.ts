// resource.Quantity (k8s.io/apimachinery/pkg/api/resource/quantity.go, suffix.go, amount.go): the
// parse, the value comparison (Cmp) and the canonical string (CanonicalizeBytes, what MarshalJSON
// writes). A value is held exactly, as a bigint mantissa and a base-10 exponent, where upstream
// holds an int64Amount or an inf.Dec; the results are the same.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** A parsed quantity: the value is mantissa × 10^exp10; `format` is the suffix kind it was written in. */
export interface Quantity {
  mantissa: bigint;
  exp10: number;
  format: QuantityFormat;
}

const DEC_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DEC_BY_EXP = new Map(Object.entries(DEC_SUFFIXES).map(([s, e]) => [e, s]));
const BIN_BY_EXP = new Map(Object.entries(BIN_SUFFIXES).map(([s, e]) => [e, s]));
const MAX_INT64 = (1n << 63n) - 1n;
const SUFFIX_CHARS = 'eEinumkKMGTP';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** parseQuantityString: sign, numerator (leading zeros stripped), denominator, suffix. */
function parseQuantityString(str: string): { positive: boolean; value: string; num: string; denom: string; suffix: string } | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') [positive, pos] = [false, 1];
  else if (str[0] === '+') pos = 1;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return undefined; // ErrFormatWrong
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** quantitySuffixer.interpret: base, exponent and format of a suffix. */
function interpretSuffix(s: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (s in DEC_SUFFIXES) return { base: 10, exponent: DEC_SUFFIXES[s], format: 'DecimalSI' };
  if (s in BIN_SUFFIXES) return { base: 2, exponent: BIN_SUFFIXES[s], format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?\d+$/.test(s.slice(1))) {
    return { base: 10, exponent: Number.parseInt(s.slice(1), 10), format: 'DecimalExponent' };
  }
  return undefined;
}

/** ParseQuantity: undefined where upstream returns an error. Values finer than 1n are rounded up
 *  (away from zero) to 1n; BinarySI values are capped at the int64 maximum, and a BinarySI value
 *  strictly between 0 and 1 in magnitude becomes DecimalSI. */
export function parseQuantity(str: string): Quantity | undefined {
  if (str.length === 0) return undefined;
  if (str === '0') return { mantissa: 0n, exp10: 0, format: 'DecimalSI' };
  const p = parseQuantityString(str);
  if (!p) return undefined;
  const suf = interpretSuffix(p.suffix);
  if (!suf) return undefined;
  let format = suf.format;
  let mag = BigInt(p.num + p.denom);
  let exp10 = -p.denom.length;
  if (suf.base === 10) exp10 += suf.exponent;
  else mag <<= BigInt(suf.exponent);
  if (exp10 < -9 && mag !== 0n) {
    // amount.Round(amount, Nano, inf.RoundUp)
    const div = 10n ** BigInt(-9 - exp10);
    mag = (mag + div - 1n) / div;
    exp10 = -9;
  }
  if (format === 'BinarySI') {
    if (cmpMag(mag, exp10, MAX_INT64, 0) > 0) [mag, exp10] = [MAX_INT64, 0];
    if (mag !== 0n && cmpMag(mag, exp10, 1n, 0) < 0) format = 'DecimalSI';
  }
  return { mantissa: p.positive ? mag : -mag, exp10, format };
}

function cmpMag(a: bigint, ea: number, b: bigint, eb: number): number {
  const e = Math.min(ea, eb);
  const x = a * 10n ** BigInt(ea - e);
  const y = b * 10n ** BigInt(eb - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Quantity.Cmp: -1, 0 or 1, by value (the format is ignored). */
export function cmpQuantity(a: Quantity, b: Quantity): number {
  return cmpMag(a.mantissa, a.exp10, b.mantissa, b.exp10);
}

/** Quantity.String / MarshalJSON: CanonicalizeBytes' number and suffix. */
export function canonicalQuantity(q: Quantity): string {
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  let integer: bigint | undefined; // AsScale(0), when exact
  if (format === 'BinarySI') {
    if (cmpQuantity(q, { mantissa: -1024n, exp10: 0, format }) > 0 && cmpQuantity(q, { mantissa: 1024n, exp10: 0, format }) < 0) format = 'DecimalSI';
    else {
      integer = q.exp10 >= 0 ? q.mantissa * 10n ** BigInt(q.exp10) : q.mantissa % 10n ** BigInt(-q.exp10) === 0n ? q.mantissa / 10n ** BigInt(-q.exp10) : undefined;
      if (integer === undefined) format = 'DecimalSI'; // "Don't lose precision-- show as DecimalSI"
    }
  }
  if (format === 'BinarySI') {
    // AsCanonicalBase1024Bytes: remove factors of 1024
    let n = integer!;
    let times = 0;
    while (n % 1024n === 0n && times < 6) [n, times] = [n / 1024n, times + 1];
    return `${n}${BIN_BY_EXP.get(times * 10) ?? ''}`;
  }
  // AsCanonicalBytes: all factors of 10 into the exponent, then down to a multiple of 3
  let m = q.mantissa;
  let e = q.exp10;
  while (m % 10n === 0n) [m, e] = [m / 10n, e + 1];
  while (e % 3 !== 0) [m, e] = [m * 10n, e - 1];
  if (format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
  return `${m}${DEC_BY_EXP.get(e) ?? ''}`; // (no suffix beyond E, as constructBytes gives none)
}

/** A quantity as JSON or YAML carries it: a string, or a number (UnmarshalJSON takes both). */
export function parseQuantityValue(v: unknown): Quantity | undefined {
  if (typeof v === 'string') return parseQuantity(v.trim());
  if (typeof v === 'number' && Number.isFinite(v)) return parseQuantity(String(v));
  return undefined;
}

/** Quantity.ScaledValue(scale): the value in units of 10^scale, rounded up (MilliValue: scale -3;
 *  Value: 0), as a number (the resources kss sums stay far below 2^53). */
export function scaledValue(q: Quantity, scale: number): number {
  const shift = q.exp10 - scale;
  if (shift >= 0) return Number(q.mantissa * 10n ** BigInt(shift));
  const d = 10n ** BigInt(-shift);
  return Number(q.mantissa >= 0n ? (q.mantissa + d - 1n) / d : q.mantissa / d);
}
