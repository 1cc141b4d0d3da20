// The kubelet's Ready setter (kubelet/node-status.ts: nodestatus.ReadyCondition).
import { describe, expect, it } from 'vitest';
import { readyCondition } from '../../src/kubelet/node-status.js';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:00:10Z';

describe('readyCondition', () => {
  it('is True, KubeletReady when every check passes, keeping the transition time of a True', () => {
    const prev = readyCondition(T0, undefined, []);
    expect(prev).toEqual({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: T0, lastTransitionTime: T0 });
    expect(readyCondition(T1, prev, [])).toMatchObject({ lastHeartbeatTime: T1, lastTransitionTime: T0 });
  });
  it('is False, KubeletNotReady with the error as its message, moving the transition time', () => {
    const prev = readyCondition(T0, undefined, []);
    const next = readyCondition(T1, prev, ['node is shutting down']);
    expect(next).toEqual({ status: 'False', reason: 'KubeletNotReady', message: 'node is shutting down', lastHeartbeatTime: T1, lastTransitionTime: T1 });
    expect(readyCondition('2026-01-01T00:00:20Z', next, ['node is shutting down']).lastTransitionTime).toBe(T1);
  });
  it('aggregates several errors as errors.NewAggregate prints them', () => {
    expect(readyCondition(T0, undefined, ['a', 'b']).message).toBe('[a, b]');
  });
});
