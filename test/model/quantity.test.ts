// resource.Quantity: cases from apimachinery's quantity_test.go (TestQuantityParse,
// TestQuantityString, TestQuantityParseEmit, TestQuantityCmp, TestNewSet), run on the port.
import { describe, expect, it } from 'vitest';
import { canonicalQuantity, cmpQuantity, parseQuantity, parseQuantityValue, type Quantity, type QuantityFormat } from '../../src/model/quantity.js';

const dec = (v: bigint | number, exp10: number, format: QuantityFormat): Quantity => ({ mantissa: BigInt(v), exp10, format });
const must = (s: string): Quantity => {
  const q = parseQuantity(s);
  if (!q) throw new Error(`cannot parse ${s}`);
  return q;
};

describe('resource.Quantity', () => {
  it('TestQuantityParse: value and format', () => {
    const table: Array<[string, Quantity]> = [
      ['0', dec(0, 0, 'DecimalSI')], ['0n', dec(0, 0, 'DecimalSI')], ['0Ki', dec(0, 0, 'BinarySI')], ['0T', dec(0, 0, 'DecimalSI')],
      ['1', dec(1, 0, 'DecimalSI')], ['1Ki', dec(1024, 0, 'BinarySI')], ['7Mi', dec(7 * 1024 * 1024, 0, 'BinarySI')],
      ['3Ei', dec(3n << 60n, 0, 'BinarySI')], ['5n', dec(5, -9, 'DecimalSI')], ['50k', dec(5, 4, 'DecimalSI')], ['1E', dec(1, 18, 'DecimalSI')],
      ['1E-3', dec(1, -3, 'DecimalExponent')], ['1e3', dec(1, 3, 'DecimalExponent')], ['100.035k', dec(100035, 0, 'DecimalSI')],
      ['0.001', dec(1, -3, 'DecimalSI')], ['0.0005k', dec(5, -1, 'DecimalSI')], ['0.5e-2', dec(5, -3, 'DecimalExponent')],
      ['1.3E+6', dec(13, 5, 'DecimalExponent')], ['6.987654321G', dec(6987654321, 0, 'DecimalSI')], ['1.01E', dec(101, 16, 'DecimalSI')],
      ['3.001n', dec(4, -9, 'DecimalSI')], ['1.1E-9', dec(2, -9, 'DecimalExponent')], ['0.0000000001', dec(1, -9, 'DecimalSI')],
      ['0.9n', dec(1, -9, 'DecimalSI')], ['0.00000012345', dec(124, -9, 'DecimalSI')],
      ['9Ei', dec((1n << 63n) - 1n, 0, 'BinarySI')], ['9223372036854775807Ki', dec((1n << 63n) - 1n, 0, 'BinarySI')], ['12E', dec(12, 18, 'DecimalSI')],
      ['100.035Ki', dec(10243584, -2, 'BinarySI')], ['0.5Mi', dec(524288, 0, 'BinarySI')], ['0.025Ti', dec(274877906944, -1, 'BinarySI')],
      ['0.000000000001Ki', dec(2, -9, 'DecimalSI')], ['.001', dec(1, -3, 'DecimalSI')], ['.0001k', dec(100, -3, 'DecimalSI')],
      ['1.', dec(1, 0, 'DecimalSI')], ['1.G', dec(1, 9, 'DecimalSI')],
    ];
    for (const [input, want] of table) {
      for (const sign of ['', '+', '-']) {
        const got = must(sign + input);
        const w = sign === '-' ? { ...want, mantissa: -want.mantissa } : want;
        expect(cmpQuantity(got, w), `${sign}${input}`).toBe(0);
        expect(got.format, `${sign}${input}`).toBe(want.format);
      }
    }
    for (const bad of ['', '1.1.M', '1+1.0M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01i', '-3.01e-']) expect(parseQuantity(bad), bad).toBeUndefined();
  });

  it('TestQuantityString: canonical form (and its negation)', () => {
    const table: Array<[Quantity, string, string?]> = [
      [dec(1024 * 1024 * 1024, 0, 'BinarySI'), '1Gi', '1024Mi'], [dec(300 * 1024 * 1024, 0, 'BinarySI'), '300Mi', '307200Ki'],
      [dec(6 * 1024, 0, 'BinarySI'), '6Ki'], [dec(1001 * 1024 * 1024 * 1024, 0, 'BinarySI'), '1001Gi'], [dec(1024 * 1024 * 1024 * 1024, 0, 'BinarySI'), '1Ti'],
      [dec(5, 0, 'BinarySI'), '5'], [dec(500, -3, 'BinarySI'), '500m'], [dec(1, 9, 'DecimalSI'), '1G', '1000M'],
      [dec(1000, 6, 'DecimalSI'), '1G', '0.001T'], [dec(1, -3, 'DecimalSI'), '1m', '1000u'], [dec(1080, -3, 'DecimalSI'), '1080m', '1.08'],
      [dec(108, -2, 'DecimalSI'), '1080m', '1080000000n'], [dec(10800, -4, 'DecimalSI'), '1080m'], [dec(1, 18, 'DecimalSI'), '1E'],
      [dec(1234567, 6, 'DecimalSI'), '1234567M'], [dec(1234567, -3, 'BinarySI'), '1234567m'], [dec(1025, 0, 'BinarySI'), '1025'],
      [dec(0, 0, 'DecimalSI'), '0'], [dec(0, 0, 'BinarySI'), '0'], [dec(1, 9, 'DecimalExponent'), '1e9', '.001e12'],
      [dec(1, -3, 'DecimalExponent'), '1e-3', '0.001e0'], [dec(1, -9, 'DecimalExponent'), '1e-9', '1000e-12'], [dec(80, -3, 'DecimalExponent'), '80e-3'],
      [dec(0, 0, 'DecimalExponent'), '0', '00'], [dec(1, -9, 'DecimalSI'), '1n'], [dec(108, -8, 'DecimalSI'), '1080n'], [dec(1080, -6, 'DecimalSI'), '1080u'],
    ];
    for (const [q, want, alternate] of table) {
      expect(canonicalQuantity(q)).toBe(want);
      expect(canonicalQuantity(must(want))).toBe(want);
      if (alternate !== undefined) expect(canonicalQuantity(must(alternate)), alternate).toBe(want);
      if (q.mantissa !== 0n) expect(canonicalQuantity({ ...q, mantissa: -q.mantissa })).toBe(`-${want}`);
    }
  });

  it('TestQuantityParseEmit, TestNewSet, and the forms the kubelet meets', () => {
    const cases: Array<[string, string]> = [
      ['1Ki', '1Ki'], ['1024Mi', '1Gi'], ['1000M', '1G'], ['.001Ki', '1024m'], ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'],
      ['1000m', '1'], ['1000', '1k'], ['1500m', '1500m'], ['0.5', '500m'], ['1.5Gi', '1536Mi'], ['1e3', '1e3'], ['100Mi', '100Mi'], ['0.1', '100m'],
    ];
    for (const [input, want] of cases) {
      expect(canonicalQuantity(must(input)), input).toBe(want);
      if (want !== '0') expect(canonicalQuantity(must('-' + input)), '-' + input).toBe('-' + want);
    }
    expect(canonicalQuantity(parseQuantityValue(2)!)).toBe('2');
    expect(canonicalQuantity(parseQuantityValue(' 250m ')!)).toBe('250m');
  });

  it('TestQuantityCmp', () => {
    const table: Array<[string, string, number]> = [['0', '0', 0], ['100m', '50m', 1], ['50m', '100m', -1], ['10000T', '100Gi', 1], ['1000m', '1', 0], ['1Gi', '1024Mi', 0]];
    for (const [x, y, want] of table) expect(cmpQuantity(must(x), must(y)), `${x} ${y}`).toBe(want);
  });
});

import { goJsonPodStatus, isPodStatusByKubeletEqual, semanticDeepEqual } from '../../src/kubelet/status/index.js';
import { match } from '../../src/world/match.js';

describe('quantities in a pod status (Semantic.DeepEqual, MarshalJSON)', () => {
  const status = (cpu: unknown, memory: unknown) => ({
    containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '', allocatedResources: { cpu, memory }, resources: { requests: { cpu }, limits: { memory } } }],
  });
  it('compares by value, key sets must match', () => {
    expect(isPodStatusByKubeletEqual(status('1000m', '1024Mi'), status('1', '1Gi'), 'current')).toBe(true);
    expect(isPodStatusByKubeletEqual(status('1000m', '1024Mi'), status(1, '1073741824'), 'current')).toBe(true);
    expect(isPodStatusByKubeletEqual(status('1000m', '1024Mi'), status('1001m', '1Gi'), 'current')).toBe(false);
    expect(semanticDeepEqual({ cpu: '1' }, { cpu: '1', memory: '0' }, 'allocatedResources')).toBe(false);
    expect(semanticDeepEqual({}, undefined, 'allocatedResources')).toBe(true);
  });
  it('marshals canonically', () => {
    const cs = goJsonPodStatus(status('1000m', '1024Mi')).containerStatuses![0] as unknown as Record<string, unknown>;
    expect(cs.allocatedResources).toEqual({ cpu: '1', memory: '1Gi' });
    expect(cs.resources).toEqual({ requests: { cpu: '1' }, limits: { memory: '1Gi' } });
  });
  it('assertions match a ResourceList by value', () => {
    expect(match({ allocatedResources: { cpu: '1' } }, { allocatedResources: { cpu: '1000m' } })).toBeUndefined();
    expect(match({ allocatedResources: { cpu: '2' } }, { allocatedResources: { cpu: '1000m' } })).toBeDefined();
    expect(match({ image: '1' }, { image: '1.0' })).toBeDefined();
  });
});
