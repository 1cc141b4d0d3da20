// Table-driven tests of the pure functions of the status-manager port, both generations.
import { describe, expect, it } from 'vitest';
import { freeze } from 'immer';
import { Rng } from '../../../src/engine/index.js';
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../../../src/model/index.js';
import {
  checkContainerStateTransition,
  generateContainersReadyCondition,
  generatePodInitializedCondition,
  generatePodReadyCondition,
  hasPodInitialized,
  initializedContainers,
  isPodStatusByKubeletEqual,
  mergePodStatus,
  normalizeStatus,
  podConditionByKubelet,
  podConditionSharedByKubelet,
  preparePatchForPodStatus,
  semanticDeepEqual,
  sortInitContainerStatuses,
  terminatePodStatus,
  truncateBytes,
  updateLastTransitionTime,
  UNKNOWN_TERMINATED_STATE,
  type Generation,
} from '../../../src/kubelet/status/index.js';
import { GENERATIONS, getPodStatus, getTestPod, w } from './harness.js';

const T0 = '2026-01-01T00:00:00Z';
const NOW = '2026-01-01T00:00:07Z';

function cs(name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, image: '', imageID: '', ready: false, restartCount: 0, ...extra };
}
const running = { running: {} };
const waiting = { waiting: {} };
const term = (exitCode: number) => ({ terminated: { exitCode } });

function podWith(spec: Partial<NonNullable<Pod['spec']>>, status?: PodStatus): Pod {
  const p = getTestPod();
  p.spec = { containers: [], ...spec } as NonNullable<Pod['spec']>;
  if (status) w(p).status = status;
  return p;
}

// ------------------------------------------------------------------------------------------------

describe('semanticDeepEqual (Semantic.DeepEqual over JSON-shaped statuses)', () => {
  const cases: Array<[string, unknown, unknown, boolean]> = [
    ['nil == empty slice', { containerStatuses: [] }, {}, true],
    ['nil == empty map', { a: {} }, {}, true],
    ['missing non-pointer bool == false', [cs('a')], [{ name: 'a' }], true],
    ['missing restartCount == 0', [{ name: 'a', restartCount: 0 }], [{ name: 'a' }], true],
    ['started nil != started false (pointer)', [{ name: 'a', started: false }], [{ name: 'a' }], false],
    ['running nil != running {} (pointer)', [{ name: 'a', state: { running: {} } }], [{ name: 'a', state: {} }], false],
    ['empty state == no state', [{ name: 'a', state: {} }], [{ name: 'a' }], true],
    ['times by instant', { startTime: '2026-01-01T01:00:00+01:00' }, { startTime: T0 }, true],
    ['times differ', { startTime: '2026-01-01T00:00:01Z' }, { startTime: T0 }, false],
    ['startTime nil != set', { startTime: T0 }, {}, false],
    ['list order matters', [{ name: 'a' }, { name: 'b' }], [{ name: 'b' }, { name: 'a' }], false],
    ['exitCode 0 == missing exitCode', { terminated: { exitCode: 0 } }, { terminated: {} }, true],
  ];
  it.each(cases)('%s', (_d, a, b, want) => {
    expect(semanticDeepEqual(a, b)).toBe(want);
    expect(semanticDeepEqual(b, a)).toBe(want);
  });
});

describe('truncateBytes (Go byte slicing)', () => {
  it('cuts at a byte count, even inside a UTF-8 sequence', () => {
    expect(truncateBytes('abcdef', 3)).toBe('abc');
    expect(truncateBytes('héllo', 2)).toBe('h\udcc3'); // é is C3 A9; the byte C3 survives, raw (issue 13 §4: Go keeps bytes)
    expect(truncateBytes('héllo', 3)).toBe('hé');
    expect(truncateBytes('short', 100)).toBe('short');
  });
  it('is stable when applied again (what normalizeStatus needs)', () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const once = truncateBytes('a€€€', n);
      expect(truncateBytes(once, n)).toBe(once);
    }
  });
});

describe.each(GENERATIONS)('normalizeStatus (%s)', (gen) => {
  it('truncates only the listed timestamps to whole seconds', () => {
    const st: PodStatus = {
      startTime: '2026-01-01T00:00:05.250Z',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: '2026-01-01T00:00:01.9Z', lastTransitionTime: '2026-01-01T00:00:02.001Z' }],
      containerStatuses: [
        cs('a', { state: { running: { startedAt: '2026-01-01T00:00:03.5Z' } }, lastState: { terminated: { exitCode: 1, startedAt: '2026-01-01T00:00:01.5Z', finishedAt: '2026-01-01T00:00:02.5Z' } } }),
      ],
      initContainerStatuses: [cs('i', { state: { terminated: { exitCode: 0, startedAt: '2026-01-01T00:00:00.1Z', finishedAt: '2026-01-01T00:00:00.9Z' } } })],
    };
    const out = normalizeStatus(getTestPod(), st, gen);
    expect(out.startTime).toBe('2026-01-01T00:00:05Z');
    expect(out.conditions![0]).toMatchObject({ lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:02Z' });
    expect(out.containerStatuses![0].state!.running!.startedAt).toBe('2026-01-01T00:00:03Z');
    expect(out.containerStatuses![0].lastState!.terminated).toMatchObject({ startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:02Z' });
    expect(out.initContainerStatuses![0].state!.terminated).toMatchObject({ startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:00Z' });
    // The input is untouched and the output frozen.
    expect(st.startTime).toBe('2026-01-01T00:00:05.250Z');
    expect(Object.isFrozen(out)).toBe(true);
  });

  it('returns the same object when nothing changes', () => {
    const st = freeze({ startTime: T0, containerStatuses: [cs('a'), cs('b')] }, true);
    expect(normalizeStatus(getTestPod(), st, gen)).toBe(st);
  });

  it('accepts frozen input', () => {
    const st = freeze({ containerStatuses: [cs('b'), cs('a')] }, true);
    expect(normalizeStatus(getTestPod(), st, gen).containerStatuses!.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it.each([
    ['empty spec: budget 12288', 0, 0, 0, 12288],
    ['3 containers (D-09): 4096', 3, 0, 0, 4096],
    ['2 containers + 1 init: 4096', 2, 1, 0, 4096],
    ['1 container + 2 ephemeral', 1, 0, 2, gen === 'current' ? 4096 : 12288],
    ['5 containers: integer division', 5, 0, 0, 2457],
  ])('termination messages are cut to the per-container byte budget: %s', (_d, nc, ni, ne, budget) => {
    const pod = podWith({
      containers: Array.from({ length: nc }, (_, i) => ({ name: `c${i}` })),
      initContainers: Array.from({ length: ni }, (_, i) => ({ name: `i${i}` })),
      ephemeralContainers: Array.from({ length: ne }, (_, i) => ({ name: `e${i}` })),
    });
    const big = 'x'.repeat(12 * 1024 + 10);
    const st: PodStatus = {
      containerStatuses: [cs('c0', { state: { terminated: { exitCode: 1, message: big } }, lastState: { terminated: { exitCode: 2, message: big } } })],
      initContainerStatuses: [cs('i0', { state: { terminated: { exitCode: 1, message: big } } })],
      ephemeralContainerStatuses: [cs('e0', { state: { terminated: { exitCode: 1, message: big } } })],
    };
    const out = normalizeStatus(pod, st, gen);
    expect(out.containerStatuses![0].state!.terminated!.message!.length).toBe(budget);
    expect(out.containerStatuses![0].lastState!.terminated!.message!.length).toBe(budget);
    expect(out.initContainerStatuses![0].state!.terminated!.message!.length).toBe(budget);
    // Classic never touches ephemeral container statuses.
    expect(out.ephemeralContainerStatuses![0].state!.terminated!.message!.length).toBe(gen === 'current' ? budget : big.length);
  });

  it('sorts container statuses by name; init statuses into spec order (swap algorithm)', () => {
    const pod = podWith({ initContainers: [{ name: 'z' }, { name: 'b' }, { name: 'm' }] });
    const st: PodStatus = {
      containerStatuses: [cs('c'), cs('a'), cs('b')],
      initContainerStatuses: [cs('m'), cs('x'), cs('b'), cs('z')],
      ephemeralContainerStatuses: [cs('e2'), cs('e1')],
    };
    const out = normalizeStatus(pod, st, gen);
    expect(out.containerStatuses!.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    // z swaps with m: [z x b m]; b swaps with x: [z b x m]; m swaps with x: [z b m x].
    expect(out.initContainerStatuses!.map((c) => c.name)).toEqual(['z', 'b', 'm', 'x']);
    expect(out.ephemeralContainerStatuses!.map((c) => c.name)).toEqual(gen === 'current' ? ['e1', 'e2'] : ['e2', 'e1']);
  });

  it('SortInitContainerStatuses keeps unmatched statuses where the swaps leave them', () => {
    const pod = podWith({ initContainers: [{ name: 'b' }, { name: 'a' }] });
    expect(sortInitContainerStatuses(pod, [cs('q'), cs('a'), cs('b')]).map((c) => c.name)).toEqual(['b', 'a', 'q']);
  });
});

// ------------------------------------------------------------------------------------------------

describe.each(GENERATIONS)('isPodStatusByKubeletEqual (%s)', (gen) => {
  const base = (): PodStatus => ({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True', reason: 'r', message: 'm' }] });
  const cases: Array<[string, PodStatus, PodStatus, boolean | Record<Generation, boolean>]> = [
    ['identical', base(), base(), true],
    ['condition timestamps never matter', { ...base(), conditions: [{ ...base().conditions![0], lastTransitionTime: T0, lastProbeTime: T0 }] }, base(), true],
    ['owned condition status differs', base(), { ...base(), conditions: [{ type: 'Ready', status: 'False', reason: 'r', message: 'm' }] }, false],
    ['owned condition reason differs', base(), { ...base(), conditions: [{ type: 'Ready', status: 'True', reason: 'x', message: 'm' }] }, false],
    ['owned condition missing in old', { phase: 'Running' }, base(), false],
    ['condition only in old is ignored', { ...base(), conditions: [...base().conditions!, { type: 'Initialized', status: 'True' }] }, base(), true],
    ['non-kubelet condition differences are ignored', { ...base(), conditions: [...base().conditions!, { type: 'example.com/x', status: 'True' }] }, { ...base(), conditions: [...base().conditions!, { type: 'example.com/x', status: 'False' }] }, true],
    ['DisruptionTarget is compared in current only', base(), { ...base(), conditions: [...base().conditions!, { type: 'DisruptionTarget', status: 'True' }] }, { classic: true, current: false }],
    ['phase differs', base(), { ...base(), phase: 'Failed' }, false],
    ['nil vs empty container list', { ...base(), containerStatuses: [] }, base(), true],
    ['message differs', base(), { ...base(), message: 'x' }, false],
  ];
  it.each(cases)('%s', (_d, old, neu, want) => {
    const w = typeof want === 'boolean' ? want : want[gen];
    expect(isPodStatusByKubeletEqual(old, neu, gen)).toBe(w);
  });

  it('PodReadyToStartContainers is kubelet-owned in current only (gate on)', () => {
    expect(podConditionByKubelet('PodReadyToStartContainers', gen)).toBe(gen === 'current');
    expect(podConditionByKubelet('PodReadyToStartContainers', gen, { PodReadyToStartContainersCondition: false })).toBe(false);
    expect(podConditionSharedByKubelet('DisruptionTarget', gen)).toBe(gen === 'current');
    expect(podConditionSharedByKubelet('DisruptionTarget', gen, { PodDisruptionConditions: false })).toBe(false);
  });

  // TestStatusEquality
  it('TestStatusEquality: container status order and non-kubelet conditions do not matter', () => {
    const rng = new Rng('status-equality');
    const statuses = Array.from({ length: 10 }, (_, i) => cs(`container${i}`));
    const pod = gen === 'current' ? podWith({ initContainers: statuses.map((s) => ({ name: s.name })) }) : podWith({});
    let podStatus: PodStatus =
      gen === 'current' ? { containerStatuses: statuses, initContainerStatuses: statuses, ephemeralContainerStatuses: statuses } : { containerStatuses: statuses };
    for (let i = 0; i < 10; i++) {
      const old: PodStatus =
        gen === 'current'
          ? { containerStatuses: rng.shuffle(statuses), initContainerStatuses: rng.shuffle(statuses), ephemeralContainerStatuses: rng.shuffle(statuses) }
          : { containerStatuses: rng.shuffle(statuses) };
      podStatus = normalizeStatus(pod, podStatus, gen);
      expect(isPodStatusByKubeletEqual(normalizeStatus(pod, old, gen), podStatus, gen)).toBe(true);
    }
    const withTrue = { ...podStatus, conditions: [{ type: 'www.example.com/feature', status: 'True' }] };
    const withFalse = { ...podStatus, conditions: [...withTrue.conditions, { type: 'www.example.com/feature', status: 'False' }] };
    expect(isPodStatusByKubeletEqual(normalizeStatus(pod, withFalse, gen), normalizeStatus(pod, withTrue, gen), gen)).toBe(true);
  });

  // TestStatusNormalizationEnforcesMaxBytes
  it('TestStatusNormalizationEnforcesMaxBytes', () => {
    const statuses = Array.from({ length: 48 }, (_, i) => cs(`container${i}`, { lastState: { terminated: { exitCode: 0, message: 'abcdefgh'.repeat(24 + (i % 3)) } } }));
    const podStatus: PodStatus =
      gen === 'current'
        ? { initContainerStatuses: statuses.slice(0, 16), containerStatuses: statuses.slice(16, 32), ephemeralContainerStatuses: statuses.slice(32) }
        : { initContainerStatuses: statuses.slice(0, 24), containerStatuses: statuses.slice(24) };
    const result = normalizeStatus({ spec: { containers: [] } }, podStatus, gen);
    let count = 0;
    for (const s of result.initContainerStatuses!) {
      const l = s.lastState!.terminated!.message!.length;
      expect(l).toBeGreaterThanOrEqual(192);
      expect(l).toBeLessThanOrEqual(256);
      count += l;
    }
    expect(count).toBeLessThanOrEqual(12288);
  });

  // TestStatusNormalizeTimeStamp (current upstream; the same holds in classic minus ephemeral statuses)
  it('TestStatusNormalizeTimeStamp', () => {
    const now = '2026-01-01T00:00:03.123Z';
    const exp = '2026-01-01T00:00:03Z';
    const mk = (t: string): ContainerStatus[] => [cs('', { state: { running: { startedAt: t } } }), cs('', { state: { terminated: { exitCode: 0, startedAt: t, finishedAt: t } } })];
    const st: PodStatus = { containerStatuses: mk(now), initContainerStatuses: mk(now), ...(gen === 'current' ? { ephemeralContainerStatuses: mk(now) } : {}) };
    const expected: PodStatus = { containerStatuses: mk(exp), initContainerStatuses: mk(exp), ...(gen === 'current' ? { ephemeralContainerStatuses: mk(exp) } : {}) };
    expect(isPodStatusByKubeletEqual(expected, normalizeStatus({ spec: { containers: [] } }, st, gen), gen)).toBe(true);
    expect(isPodStatusByKubeletEqual(expected, st, gen)).toBe(false);
  });
});

// ------------------------------------------------------------------------------------------------

describe.each(GENERATIONS)('checkContainerStateTransition (%s)', (gen) => {
  type Case = [string, string | undefined, PodStatus, PodStatus, string | undefined, Array<{ name: string; restartPolicy?: string }>?];
  const cases: Case[] = [
    ['D-01 Never: terminated -> running rejected', 'Never', { containerStatuses: [cs('a', { state: term(1) })] }, { containerStatuses: [cs('a', { state: running })] }, 'terminated container a attempted illegal transition to non-terminated state'],
    ['D-02 OnFailure: failed -> running allowed', 'OnFailure', { containerStatuses: [cs('a', { state: term(1) })] }, { containerStatuses: [cs('a', { state: running })] }, undefined],
    ['D-02 OnFailure: succeeded -> running rejected', 'OnFailure', { containerStatuses: [cs('a', { state: term(0) })] }, { containerStatuses: [cs('a', { state: waiting })] }, 'terminated container a attempted illegal transition to non-terminated state'],
    ['D-03 Always: anything goes', 'Always', { containerStatuses: [cs('a', { state: term(0) })] }, { containerStatuses: [cs('a', { state: running })] }, undefined],
    ['D-04 "" behaves like Never', undefined, { containerStatuses: [cs('a', { state: term(2) })] }, { containerStatuses: [cs('a', { state: running })] }, 'terminated container a attempted illegal transition to non-terminated state'],
    ['terminated -> terminated is fine', 'Never', { containerStatuses: [cs('a', { state: term(1) })] }, { containerStatuses: [cs('a', { state: term(137) })] }, undefined],
    ['a container missing from the new list is not checked', 'Never', { containerStatuses: [cs('a', { state: term(1) })] }, {}, undefined],
    [
      'init containers: terminated -> running rejected',
      'Never',
      { initContainerStatuses: [cs('i', { state: term(0) })] },
      { initContainerStatuses: [cs('i', { state: running })] },
      gen === 'classic' ? 'terminated container i attempted illegal transition to non-terminated state' : 'terminated init container i attempted illegal transition to non-terminated state',
      [{ name: 'i' }],
    ],
    [
      'D-05 init statuses not aligned with the spec',
      'Never',
      { initContainerStatuses: [cs('b'), cs('a')] },
      { initContainerStatuses: [cs('b'), cs('a')] },
      gen === 'classic' ? undefined : 'found mismatch between pod spec and status, container: b',
      [{ name: 'a' }, { name: 'b' }],
    ],
    ['D-05 mismatch ignored under Always', 'Always', { initContainerStatuses: [cs('b')] }, {}, undefined, [{ name: 'a' }]],
    [
      'sidecar init container may restart (current)',
      'Never',
      { initContainerStatuses: [cs('s', { state: term(0) })] },
      { initContainerStatuses: [cs('s', { state: running })] },
      gen === 'classic' ? 'terminated container s attempted illegal transition to non-terminated state' : undefined,
      [{ name: 's', restartPolicy: 'Always' }],
    ],
  ];
  it.each(cases)('%s', (_d, policy, old, neu, want, inits) => {
    const spec = { containers: [], restartPolicy: policy, initContainers: inits } as NonNullable<Pod['spec']>;
    expect(checkContainerStateTransition(old, neu, spec, gen)?.message).toBe(want);
  });
});

// TestUpdateLastTransitionTime
describe('updateLastTransitionTime', () => {
  const old = '2026-01-01T00:00:00Z';
  const cases: Array<[string, PodCondition | undefined, PodCondition | undefined, string | undefined]> = [
    ['should do nothing if no corresponding condition', undefined, undefined, undefined],
    ['should update last transition time if no old condition', { type: 'test-type', status: 'True' }, undefined, NOW],
    ['should update last transition time if condition is changed', { type: 'test-type', status: 'True' }, { type: 'test-type', status: 'False', lastTransitionTime: old }, NOW],
    ['should keep last transition time if condition is not changed', { type: 'test-type', status: 'False' }, { type: 'test-type', status: 'False', lastTransitionTime: old }, old],
  ];
  it.each(cases)('%s', (_d, c, oc, want) => {
    const status: PodStatus = c ? { conditions: [c] } : {};
    const oldStatus: PodStatus = oc ? { conditions: [oc] } : {};
    const out = updateLastTransitionTime(status, oldStatus, 'test-type', NOW);
    if (!c) expect(out).toBe(status);
    else expect(out.conditions![0].lastTransitionTime).toBe(want);
    expect(status.conditions?.[0]?.lastTransitionTime).toBeUndefined(); // not mutated
  });
});

// ------------------------------------------------------------------------------------------------
// TestMergePodStatus

function conditionsEqual(a: PodCondition[] | undefined, b: PodCondition[] | undefined, withReason: boolean): boolean {
  const l = a ?? [];
  const r = b ?? [];
  if (l.length !== r.length) return false;
  return l.every((x) => r.some((y) => y.type === x.type && y.status === x.status && (!withReason || (y.reason ?? '') === (x.reason ?? ''))));
}
function withoutConditions(s: PodStatus): PodStatus {
  const { conditions: _c, ...rest } = s;
  return JSON.parse(JSON.stringify(rest));
}

type MergeCase = [string, boolean, (s: PodStatus) => PodStatus, (s: PodStatus) => PodStatus, PodStatus, { PodDisruptionConditions?: boolean }?];
const id = (s: PodStatus) => s;
const addCond = (c: PodCondition) => (s: PodStatus): PodStatus => ({ ...s, conditions: [...s.conditions!, c] });
const readyFalse = (s: PodStatus): PodStatus => ({ ...s, conditions: [{ ...s.conditions![0], status: 'False' }, ...s.conditions!.slice(1)] });
const feature = (status: string): PodCondition => ({ type: 'example.com/feature', status });
const dt = (reason: string): PodCondition => ({ type: 'DisruptionTarget', status: 'True', reason });
const failed = (s: PodStatus): PodStatus => ({ ...s, phase: 'Failed' });

const COMMON_MERGE: MergeCase[] = [
  ['no change', false, id, id, getPodStatus()],
  ['readiness changes', false, id, readyFalse, { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' }],
  ['additional pod condition', false, addCond(feature('True')), id, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }, feature('True')], message: 'Message' }],
  ['additional pod condition and readiness changes', false, addCond(feature('True')), readyFalse, { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }, feature('True')], message: 'Message' }],
  ['additional pod condition changes', false, addCond(feature('True')), addCond(feature('False')), { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }, feature('True')], message: 'Message' }],
];

const CURRENT_MERGE: MergeCase[] = [
  ...COMMON_MERGE,
  ['add DisruptionTarget condition when transitioning into failed phase', false, id, (s) => addCond(dt('TerminationByKubelet'))(failed(s)),
    { phase: 'Failed', conditions: [dt('TerminationByKubelet'), { type: 'Ready', status: 'False', reason: 'PodFailed' }, { type: 'PodScheduled', status: 'True' }, { type: 'ContainersReady', status: 'False', reason: 'PodFailed' }], message: 'Message' }],
  ["don't add DisruptionTarget condition when transitioning into failed phase, but there might still be running containers", true, id, (s) => addCond(dt('TerminationByKubelet'))(failed(s)),
    { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' }],
  ['preserve DisruptionTarget condition', false, addCond(dt('TerminationByKubelet')), id,
    { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }, dt('TerminationByKubelet')], message: 'Message' }],
  ['preserve DisruptionTarget condition; PodDisruptionConditions disabled', false, addCond(dt('TerminationByKubelet')), id,
    { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }, dt('TerminationByKubelet')], message: 'Message' }, { PodDisruptionConditions: false }],
  ['override DisruptionTarget condition', false, addCond(dt('EvictedByEvictionAPI')), (s) => addCond(dt('TerminationByKubelet'))(failed(s)),
    { phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', reason: 'PodFailed' }, { type: 'ContainersReady', status: 'False', reason: 'PodFailed' }, { type: 'PodScheduled', status: 'True' }, dt('TerminationByKubelet')], message: 'Message' }],
  ["don't override DisruptionTarget condition when remaining in running phase", false, addCond(dt('EvictedByEvictionAPI')), addCond(dt('TerminationByKubelet')),
    { phase: 'Running', conditions: [dt('EvictedByEvictionAPI'), { type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' }],
  ["don't override DisruptionTarget condition when transitioning to failed phase but there might still be running containers", true, addCond(dt('EvictedByEvictionAPI')), (s) => addCond(dt('TerminationByKubelet'))(failed(s)),
    { phase: 'Running', conditions: [dt('EvictedByEvictionAPI'), { type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' }],
  ['phase is transitioning to failed and no containers running', false, (s) => ({ ...s, phase: 'Running', reason: 'Unknown', message: 'Message' }), (s) => ({ ...s, phase: 'Failed', reason: 'Evicted', message: 'Was Evicted' }),
    { phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', reason: 'PodFailed' }, { type: 'ContainersReady', status: 'False', reason: 'PodFailed' }, { type: 'PodScheduled', status: 'True' }], reason: 'Evicted', message: 'Was Evicted' }],
  ['phase is transitioning to failed and containers running', true, (s) => ({ ...s, phase: 'Running', reason: 'Unknown', message: 'Message' }), (s) => ({ ...s, phase: 'Failed', reason: 'Evicted', message: 'Was Evicted' }),
    { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], reason: 'Unknown', message: 'Message' }],
];

const CLASSIC_MERGE: MergeCase[] = [
  ...COMMON_MERGE,
  // Not upstream cases: classic has no terminal guards (spec §2.15).
  ['classic: terminal phase passes through with Ready still True', false, id, failed,
    { phase: 'Failed', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' }],
  ['classic: a non-kubelet condition only in new is dropped', false, id, addCond(dt('TerminationByKubelet')),
    { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' }],
];

describe.each([
  ['classic', CLASSIC_MERGE],
  ['current', CURRENT_MERGE],
] as const)('TestMergePodStatus (%s)', (gen, cases) => {
  it.each(cases)('%s', (_d, running_, oldFn, newFn, expected, gates) => {
    const oldS = freeze(oldFn(getPodStatus()), true);
    const newS = freeze(newFn(getPodStatus()), true);
    const out = mergePodStatus(oldS, newS, gen, { couldHaveRunningContainers: running_, gates, now: NOW });
    expect(conditionsEqual(out.conditions, expected.conditions, gen === 'current')).toBe(true);
    expect(withoutConditions(out)).toEqual(withoutConditions(expected));
  });
});

describe('mergePodStatus details (current)', () => {
  it('D-13: Ready/ContainersReady forced False on a terminal phase are stamped now; the input keeps Ready True', () => {
    const neu = freeze({ ...getPodStatus(), phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: T0 }, { type: 'ContainersReady', status: 'True', lastTransitionTime: T0 }] }, true);
    const out = mergePodStatus({ phase: 'Running' }, neu, 'current', { now: NOW });
    expect(out.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: NOW },
      { type: 'ContainersReady', status: 'False', reason: 'PodCompleted', lastTransitionTime: NOW },
    ]);
    expect(neu.conditions[0].status).toBe('True');
  });

  it('a re-sent DisruptionTarget is re-stamped unless the API already has it with the same status', () => {
    const neu = { phase: 'Failed', conditions: [{ ...dt('TerminationByKubelet'), lastTransitionTime: T0 }] };
    expect(mergePodStatus({ phase: 'Running' }, neu, 'current', { now: NOW }).conditions).toEqual([{ ...dt('TerminationByKubelet'), lastTransitionTime: NOW }]);
    const api = { phase: 'Running', conditions: [{ ...dt('EvictedByEvictionAPI'), lastTransitionTime: '2026-01-01T00:00:03Z' }] };
    expect(mergePodStatus(api, neu, 'current', { now: NOW }).conditions).toEqual([{ ...dt('TerminationByKubelet'), lastTransitionTime: '2026-01-01T00:00:03Z' }]);
  });

  it('resourceClaimStatuses come from the API status', () => {
    const api = { resourceClaimStatuses: [{ name: 'c', resourceClaimName: 'x' }] };
    expect(mergePodStatus(api, { resourceClaimStatuses: [{ name: 'd' }] }, 'current').resourceClaimStatuses).toEqual(api.resourceClaimStatuses);
    expect(mergePodStatus({}, { resourceClaimStatuses: [{ name: 'd' }] }, 'current').resourceClaimStatuses).toBeUndefined();
    expect(mergePodStatus({}, { resourceClaimStatuses: [{ name: 'd' }] }, 'classic').resourceClaimStatuses).toEqual([{ name: 'd' }]);
  });
});

// ------------------------------------------------------------------------------------------------
// TerminatePod rewrite rules, both generations

describe('terminatePodStatus (TerminatePod rewrite rules)', () => {
  const U = UNKNOWN_TERMINATED_STATE;
  it('classic: running and empty states become 137, waiting kept, phase untouched', () => {
    const pod = podWith({ containers: [{ name: 'a' }] });
    const base: PodStatus = {
      phase: 'Running',
      containerStatuses: [cs('a', { state: running }), cs('b'), cs('c', { state: waiting }), cs('d', { state: term(3) })],
      initContainerStatuses: [cs('i0'), cs('i1', { state: waiting })],
    };
    const { status } = terminatePodStatus(pod, base, true, 'classic');
    expect(status.phase).toBe('Running');
    expect(status.containerStatuses!.map((c) => c.state)).toEqual([U, U, waiting, term(3)]);
    expect(status.initContainerStatuses!.map((c) => c.state)).toEqual([U, waiting]);
  });

  it('current: waiting regular containers too once initialized; init prefix; phase Failed', () => {
    const pod = podWith({ containers: [{ name: 'a' }] });
    const base: PodStatus = { phase: 'Running', containerStatuses: [cs('a', { state: waiting }), cs('b', { state: term(0) })] };
    const { status, notes } = terminatePodStatus(pod, base, true, 'current');
    expect(status.phase).toBe('Failed');
    expect(status.containerStatuses!.map((c) => c.state)).toEqual([U, term(0)]);
    expect(notes.map((n) => n.msg)).toContain('Terminal running pod should have already been marked as failed, programmer error');
  });

  it.each([
    ['Pending', 'Failed', []],
    ['Running', 'Failed', []],
    ['Succeeded', 'Succeeded', []],
    ['Failed', 'Failed', []],
    ['Unknown', 'Failed', ['Unknown phase, programmer error: unknown phase: Unknown']],
    ['SomeUnknownPhase', 'Failed', ['Unknown phase, programmer error: unknown phase: SomeUnknownPhase']],
    [undefined, 'Failed', ['Unknown phase, programmer error: unknown phase: ']],
  ])('current: phase %s becomes %s (TestTerminatePod_EnsurePodPhaseIsTerminal)', (phase, want, errs) => {
    const { status, notes } = terminatePodStatus(getTestPod(), { phase }, false, 'current');
    expect(status.phase).toBe(want);
    expect(notes.filter((n) => n.level === 'error').map((n) => n.msg)).toEqual(errs);
  });

  it('current: static pods keep their phase', () => {
    const pod = getTestPod();
    pod.metadata!.annotations = { 'kubernetes.io/config.source': 'file' };
    expect(terminatePodStatus(pod, { phase: 'Running' }, true, 'current').status.phase).toBe('Running');
  });

  it('current: hasPodInitialized reads the argument pod, not the base status', () => {
    const pod = podWith({ initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] }, { initContainerStatuses: [cs('i', { state: waiting })], containerStatuses: [cs('a', { state: waiting })] });
    const base: PodStatus = { initContainerStatuses: [cs('i', { state: term(0) })], containerStatuses: [cs('a', { state: waiting })] };
    expect(terminatePodStatus(pod, base, true, 'current').status.containerStatuses![0].state).toEqual(waiting);
  });
});

describe('hasPodInitialized / initializedContainers (current)', () => {
  const spec = (inits: Array<{ name: string; restartPolicy?: string }>) => ({ containers: [{ name: 'a' }], initContainers: inits });
  it.each([
    ['no init containers', spec([]), {}, true],
    ['a regular container left waiting', spec([{ name: 'i' }]), { containerStatuses: [cs('a', { state: running })] }, true],
    ['a regular container with a previous termination', spec([{ name: 'i' }]), { containerStatuses: [cs('a', { state: waiting, lastState: term(1) })] }, true],
    ['last init succeeded', spec([{ name: 'i' }]), { containerStatuses: [cs('a', { state: waiting })], initContainerStatuses: [cs('i', { state: term(0) })] }, true],
    ['last init previously succeeded', spec([{ name: 'i' }]), { containerStatuses: [cs('a', { state: waiting })], initContainerStatuses: [cs('i', { state: waiting, lastState: term(0) })] }, true],
    ['last init failed', spec([{ name: 'i' }]), { containerStatuses: [cs('a', { state: waiting })], initContainerStatuses: [cs('i', { state: term(1) })] }, false],
    ['status/spec mismatch', spec([{ name: 'i' }, { name: 'j' }]), { containerStatuses: [cs('a', { state: waiting })], initContainerStatuses: [cs('i'), cs('x', { state: term(0) })] }, false],
    ['sidecar running and started', spec([{ name: 's', restartPolicy: 'Always' }]), { containerStatuses: [cs('a', { state: waiting })], initContainerStatuses: [cs('s', { state: running, started: true })] }, true],
    ['sidecar running, not started', spec([{ name: 's', restartPolicy: 'Always' }]), { containerStatuses: [cs('a', { state: waiting })], initContainerStatuses: [cs('s', { state: running, started: false })] }, false],
    ['no statuses at all', spec([{ name: 'i' }]), {}, false],
  ])('%s', (_d, sp, status, want) => {
    expect(hasPodInitialized(podWith(sp, status as PodStatus), 'current')).toBe(want);
  });

  it.each([
    ['empty', [], []],
    ['all waiting: the first', [cs('a', { state: waiting }), cs('b', { state: waiting })], ['a']],
    ['up to the last non-waiting', [cs('a', { state: waiting }), cs('b', { state: term(1) }), cs('c', { state: waiting })], ['a', 'b']],
    ['a waiting one with a previous termination counts', [cs('a', { state: waiting }), cs('b', { state: waiting, lastState: term(0) })], ['a', 'b']],
    ['empty state counts as started', [cs('a'), cs('b', { state: waiting })], ['a']],
  ])('initializedContainers: %s', (_d, list, want) => {
    expect(initializedContainers(list).map((c) => c.name)).toEqual(want);
  });
});

// ------------------------------------------------------------------------------------------------
// generate.go

describe.each(GENERATIONS)('condition generators (%s)', (gen) => {
  const spec = { containers: [{ name: 'a' }, { name: 'b' }], initContainers: [{ name: 'i' }, { name: 's', restartPolicy: 'Always' }] } as NonNullable<Pod['spec']>;

  it('ContainersReady', () => {
    expect(generateContainersReadyCondition(spec, undefined, 'Running', gen)).toEqual({ type: 'ContainersReady', status: 'False', reason: 'UnknownContainerStatuses' });
    expect(generateContainersReadyCondition(spec, [cs('a', { ready: true })], 'Running', gen)).toEqual({
      type: 'ContainersReady',
      status: 'False',
      reason: 'ContainersNotReady',
      message: gen === 'current' ? 'containers with unknown status: [s b]' : 'containers with unknown status: [b]',
    });
    expect(generateContainersReadyCondition(spec, [cs('a', { ready: true }), cs('b'), cs('s', { ready: true })], 'Running', gen)).toEqual({
      type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [b]',
    });
    expect(generateContainersReadyCondition(spec, [cs('a', { ready: true }), cs('b', { ready: true }), cs('s', { ready: true })], 'Running', gen).status).toBe('True');
    expect(generateContainersReadyCondition(spec, [cs('a'), cs('b'), cs('s')], 'Succeeded', gen)).toEqual({ type: 'ContainersReady', status: 'False', reason: 'PodCompleted' });
    expect(generateContainersReadyCondition(spec, [cs('a'), cs('b'), cs('s')], 'Failed', gen)).toEqual(
      gen === 'current'
        ? { type: 'ContainersReady', status: 'False', reason: 'PodFailed' }
        : { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [a b]' },
    );
    // An empty (non-nil) list is not "unknown statuses".
    expect(generateContainersReadyCondition({ containers: [] }, [], 'Running', gen).status).toBe('True');
  });

  it('Ready with readiness gates (D-19)', () => {
    const s = { containers: [{ name: 'a' }], readinessGates: [{ conditionType: 'example.com/gate' }] } as NonNullable<Pod['spec']>;
    const ready = [cs('a', { ready: true })];
    expect(generatePodReadyCondition(s, [], ready, 'Running', gen)).toEqual({
      type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/gate" does not exist.',
    });
    expect(generatePodReadyCondition(s, [{ type: 'example.com/gate', status: 'False' }], ready, 'Running', gen)).toEqual({
      type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'the status of pod readiness gate "example.com/gate" is not "True", but False',
    });
    expect(generatePodReadyCondition(s, [{ type: 'example.com/gate', status: 'True' }], ready, 'Running', gen)).toEqual({ type: 'Ready', status: 'True' });
    expect(generatePodReadyCondition(s, [], [cs('a')], 'Running', gen)).toEqual({ type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [a]' });
  });

  it('Initialized', () => {
    expect(generatePodInitializedCondition(spec, undefined, 'Pending', gen)).toEqual({ type: 'Initialized', status: 'False', reason: 'UnknownContainerStatuses' });
    expect(generatePodInitializedCondition({ containers: [] }, undefined, 'Pending', gen)).toEqual({ type: 'Initialized', status: 'True' });
    const sidecarStartedNotReady = [cs('i', { ready: true }), cs('s', { started: true })];
    expect(generatePodInitializedCondition(spec, sidecarStartedNotReady, 'Pending', gen)).toEqual(
      gen === 'current'
        ? { type: 'Initialized', status: 'True' }
        : { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [s]' },
    );
    expect(generatePodInitializedCondition(spec, [cs('i')], 'Pending', gen)).toEqual({
      type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with unknown status: [s], containers with incomplete status: [i]',
    });
    expect(generatePodInitializedCondition(spec, [cs('i'), cs('s')], 'Succeeded', gen)).toEqual({ type: 'Initialized', status: 'True', reason: 'PodCompleted' });
    // current: a regular container that started proves initialization.
    expect(generatePodInitializedCondition(spec, [cs('i'), cs('s'), cs('a', { state: running })], 'Running', gen).status).toBe(gen === 'current' ? 'True' : 'False');
  });
});

// ------------------------------------------------------------------------------------------------
// PatchPodStatus's patch

describe('preparePatchForPodStatus', () => {
  it('equal statuses, however spelled, give exactly {metadata: {uid}} (unchanged)', () => {
    const a: PodStatus = { phase: 'Running', containerStatuses: [cs('a', { state: running })], conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z' }] };
    const b: PodStatus = { phase: 'Running', containerStatuses: [{ name: 'a', state: running } as ContainerStatus], conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01.400Z' }], message: '' };
    expect(preparePatchForPodStatus('u1', a, b)).toEqual({ patch: { metadata: { uid: 'u1' } }, unchanged: true });
  });
  it('a change is sent in encoding/json form (whole seconds, non-omitempty zeros present)', () => {
    const { patch, unchanged } = preparePatchForPodStatus('u1', {}, { phase: 'Running', startTime: '2026-01-01T00:00:01.700Z', containerStatuses: [{ name: 'a' } as ContainerStatus] });
    expect(unchanged).toBe(false);
    expect(patch).toEqual({
      metadata: { uid: 'u1' },
      status: { phase: 'Running', startTime: '2026-01-01T00:00:01Z', containerStatuses: [{ name: 'a', state: {}, lastState: {}, ready: false, restartCount: 0, image: '', imageID: '' }] },
    });
  });
  it('a uid of "" is omitted and never counts as unchanged (the zero fake client)', () => {
    expect(preparePatchForPodStatus('', { message: 'x' }, { message: 'x' })).toEqual({ patch: {}, unchanged: false });
  });
  it('started: false is kept (pointer), started missing is not false', () => {
    const { patch } = preparePatchForPodStatus('u', { containerStatuses: [cs('a')] }, { containerStatuses: [cs('a', { started: false })] });
    expect((patch.status as PodStatus).containerStatuses![0].started).toBe(false);
  });
});
