// The transitional generation (v1.23.17) in the pure functions it shares with the other two: where
// it sides with classic, where with current, and where with neither.
import { describe, expect, it } from 'vitest';
import type { Pod, PodStatus } from '../../../src/model/index.js';
import { mergePodStatus } from '../../../src/kubelet/status/merge.js';
import { terminatePodStatus } from '../../../src/kubelet/status/terminate.js';
import { hasStatusChannel, GENERATIONS } from '../../../src/kubelet/status/types.js';

const pod: Pod = {
  metadata: { name: 'foo', namespace: 'new', uid: '12345678' },
  spec: { containers: [{ name: 'app', image: 'nginx' }, { name: 'helper', image: 'busybox' }] },
  status: { phase: 'Running' },
};
const running: PodStatus = {
  phase: 'Running',
  containerStatuses: [
    { name: 'app', image: 'nginx', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } },
    { name: 'helper', image: 'busybox', imageID: '', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } },
  ],
};

describe('transitional (v1.23.17)', () => {
  it('keeps the v1.20 status loop: the request channel', () => {
    expect(GENERATIONS).toEqual(['classic', 'transitional', 'current']);
    expect(GENERATIONS.map(hasStatusChannel)).toEqual([true, true, false]);
  });

  it('TerminatePod rewrites the waiting container of an initialized pod (as current) and leaves the phase (as classic)', () => {
    const helper = (g: 'classic' | 'transitional' | 'current') => terminatePodStatus(pod, running, true, g).status;
    expect(helper('classic').containerStatuses![1].state).toEqual({ waiting: { reason: 'CrashLoopBackOff' } });
    expect(helper('transitional').containerStatuses![1].state?.terminated?.exitCode).toBe(137);
    expect(helper('transitional').phase).toBe('Running');
    expect(helper('current').phase).toBe('Failed');
  });

  it('mergePodStatus holds a terminal phase back while containers may run, and forces Ready False on a terminal phase (#108366, #110256)', () => {
    const old: PodStatus = { phase: 'Running', reason: 'Unknown', message: 'Message', conditions: [{ type: 'Ready', status: 'True' }] };
    const failed: PodStatus = { phase: 'Failed', reason: 'Evicted', message: 'Was Evicted', conditions: [{ type: 'Ready', status: 'True' }] };
    const held = mergePodStatus(old, failed, 'transitional', { couldHaveRunningContainers: true, now: '2026-01-01T00:00:01Z' });
    expect([held.phase, held.reason, held.message]).toEqual(['Running', 'Unknown', 'Message']);
    const sent = mergePodStatus(old, failed, 'transitional', { couldHaveRunningContainers: false, now: '2026-01-01T00:00:01Z' });
    expect(sent.phase).toBe('Failed');
    expect(sent.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    // classic (v1.20's two-argument form) does neither
    const classic = mergePodStatus(old, failed, 'classic');
    expect([classic.phase, classic.conditions?.find((c) => c.type === 'Ready')?.status]).toEqual(['Failed', 'True']);
  });

  it('has no resourceClaimStatuses handling (a v1.27+ field)', () => {
    const old: PodStatus = { phase: 'Running', resourceClaimStatuses: [{ name: 'x' }] } as PodStatus;
    const merged = mergePodStatus(old, { phase: 'Running' }, 'transitional', { couldHaveRunningContainers: true });
    expect(merged.resourceClaimStatuses).toBeUndefined();
  });
});
