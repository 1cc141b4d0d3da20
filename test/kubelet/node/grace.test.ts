import { describe, expect, it } from 'vitest';
import { calculateEffectiveGracePeriod, killContainerTimeoutSeconds } from '../../../src/kubelet/node/grace.js';
import type { Pod } from '../../../src/model/pod.js';

function pod(spec?: number, deletion?: number): Pod {
  return {
    metadata: { name: 'p', namespace: 'default', ...(deletion === undefined ? {} : { deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: deletion }) },
    spec: { containers: [], ...(spec === undefined ? {} : { terminationGracePeriodSeconds: spec }) },
  };
}

describe('calculateEffectiveGracePeriod', () => {
  const cases: Array<[string, number, Pod, number | undefined, number, boolean]> = [
    ['deletion grace when nothing recorded', 0, pod(30, 20), undefined, 20, false],
    ['a shorter deletion grace shortens', 30, pod(30, 10), undefined, 10, true],
    ['a longer deletion grace cannot lengthen', 10, pod(30, 30), undefined, 10, false],
    ['a kill override when smaller', 30, pod(30, 30), 5, 5, true],
    ['a kill override when nothing recorded', 0, pod(30), 7, 7, false],
    ['a larger override is ignored', 10, pod(30, 30), 60, 10, false],
    ['spec grace when nothing else (removed from config)', 0, pod(45), undefined, 45, false],
    ['deletion grace 0 falls back to the spec', 0, pod(30, 0), undefined, 30, false],
    ['never below 1 s (spec 0)', 0, pod(0), undefined, 1, false],
    ['never below 1 s (no spec)', 0, pod(undefined), undefined, 1, false],
    ['the same value again is not a shortening', 20, pod(30, 20), undefined, 20, false],
  ];
  for (const [name, recorded, p, override, grace, shortened] of cases) {
    it(name, () => expect(calculateEffectiveGracePeriod(recorded, p, override)).toEqual({ gracePeriod: grace, shortened }));
  }
});

describe('killContainer timeout', () => {
  it('classic: the pod grace, at least 2 s; an override is used as is', () => {
    expect(killContainerTimeoutSeconds('classic', pod(30, 10), undefined)).toBe(10);
    expect(killContainerTimeoutSeconds('classic', pod(30), undefined)).toBe(30);
    expect(killContainerTimeoutSeconds('classic', pod(1), undefined)).toBe(2);
    expect(killContainerTimeoutSeconds('classic', pod(30), 1)).toBe(1);
  });
  it('current: the override replaces the grace, the wait for a sidecar’s turn is subtracted, then the 2 s floor', () => {
    expect(killContainerTimeoutSeconds('current', pod(30), 1)).toBe(2);
    expect(killContainerTimeoutSeconds('current', pod(30), 20)).toBe(20);
    expect(killContainerTimeoutSeconds('current', pod(30), 30, 3.7)).toBe(27);
    expect(killContainerTimeoutSeconds('current', pod(30), 5, 4.5)).toBe(2);
  });
});
