// A port of upstream pkg/kubelet/status/status_manager_test.go, both eras: classic (v1.19/v1.20
// code; test bodies from the v1.1x–v1.22 files, expectations per the v1.20 code) and current (the
// v1.27–v1.33 files). Each test drives the real StatusManager on the real Engine with fake clients.
import { describe, expect, it } from 'vitest';
import type { ContainerState, ContainerStatus, Pod, PodStatus } from '../../../src/model/index.js';
import { UNKNOWN_TERMINATED_STATE, type Generation } from '../../../src/kubelet/status/index.js';
import {
  DELETE,
  GENERATIONS,
  GET,
  MIRROR_ANNOTATIONS,
  PATCH,
  ReactorClient,
  STATIC_ANNOTATIONS,
  TrackerClient,
  ZeroClient,
  advance,
  consumeUpdates,
  deepCopy,
  drive,
  expectPodStatus,
  getRandomPodStatus,
  getReadyPodStatus,
  getTestPod,
  newTestManager,
  syncBatch,
  testSyncBatch,
  verifyActions,
  verifyUpdates,
  w,
} from './harness.js';

const EPOCH = '2026-01-01T00:00:00Z';
const U = UNKNOWN_TERMINATED_STATE;

function cs(name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, image: '', imageID: '', ready: false, restartCount: 0, ...extra };
}
function podFooNew(status?: PodStatus): Pod {
  return { metadata: { uid: '12345678', name: 'foo', namespace: 'new' }, ...(status ? { status } : {}) };
}
const ready = (s: PodStatus) => s.conditions?.find((c) => c.type === 'Ready');

describe.each(GENERATIONS)('status_manager_test.go (%s)', (gen: Generation) => {
  const classic = gen === 'classic';

  it('TestNewStatus', () => {
    const env = newTestManager(gen, new ZeroClient());
    const testPod = getTestPod();
    env.m.setPodStatus(testPod, getRandomPodStatus());
    verifyUpdates(env, 1);
    expect(expectPodStatus(env, testPod).startTime).toBe(EPOCH);
    expect(env.tracer.of('status.set').map((e) => e.version)).toEqual([1]);
  });

  it('TestNewStatusPreservesPodStartTime', () => {
    const env = newTestManager(gen, new ZeroClient());
    advance(env, 120_000);
    const startTime = env.clock.at(60_000); // now - 1 minute
    const pod = podFooNew({ startTime });
    env.m.setPodStatus(pod, getRandomPodStatus());
    expect(expectPodStatus(env, pod).startTime).toBe(startTime);
  });

  it('TestNewStatusSetsReadyTransitionTime', () => {
    const env = newTestManager(gen, new ZeroClient());
    advance(env, 2_000);
    const pod = podFooNew({});
    env.m.setPodStatus(pod, getReadyPodStatus());
    verifyUpdates(env, 1);
    expect(ready(expectPodStatus(env, pod))!.lastTransitionTime).toBe('2026-01-01T00:00:02Z');
  });

  it('TestChangedStatus', () => {
    const env = newTestManager(gen, new ZeroClient());
    const testPod = getTestPod();
    if (classic) {
      env.m.setPodStatus(testPod, getRandomPodStatus());
      env.m.setPodStatus(testPod, getRandomPodStatus());
      verifyUpdates(env, 2);
    } else {
      env.m.setPodStatus(testPod, getRandomPodStatus());
      verifyUpdates(env, 1);
      env.m.setPodStatus(testPod, getRandomPodStatus());
      verifyUpdates(env, 1);
    }
  });

  it('TestChangedStatusKeepsStartTime', () => {
    const env = newTestManager(gen, new ZeroClient());
    advance(env, 1_500);
    const testPod = getTestPod();
    const now = env.clock.now(); // 00:00:01.500
    env.m.setPodStatus(testPod, { ...getRandomPodStatus(), startTime: now });
    if (!classic) verifyUpdates(env, 1);
    advance(env, 5_000);
    env.m.setPodStatus(testPod, getRandomPodStatus());
    verifyUpdates(env, classic ? 2 : 1);
    expect(expectPodStatus(env, testPod).startTime).toBe('2026-01-01T00:00:01Z'); // now.Rfc3339Copy()
  });

  it('TestChangedStatusUpdatesLastTransitionTime', () => {
    const env = newTestManager(gen, new ZeroClient());
    const pod = podFooNew({});
    env.m.setPodStatus(pod, getReadyPodStatus());
    verifyUpdates(env, 1);
    const oldStatus = expectPodStatus(env, pod);
    advance(env, 3_000);
    env.m.setPodStatus(pod, { conditions: [{ type: 'Ready', status: 'False' }] });
    verifyUpdates(env, 1);
    const newStatus = expectPodStatus(env, pod);
    expect(ready(oldStatus)!.lastTransitionTime).toBe(EPOCH);
    expect(ready(newStatus)!.lastTransitionTime).toBe('2026-01-01T00:00:03Z');
  });

  it('TestUnchangedStatus', () => {
    const env = newTestManager(gen, new ZeroClient());
    const testPod = getTestPod();
    const podStatus = getRandomPodStatus();
    env.m.setPodStatus(testPod, podStatus);
    env.m.setPodStatus(testPod, podStatus);
    verifyUpdates(env, 1);
    expect(env.tracer.types().filter((t) => t === 'status.set' || t === 'status.same')).toEqual(['status.set', 'status.same']);
  });

  it('TestUnchangedStatusPreservesLastTransitionTime', () => {
    const env = newTestManager(gen, new ZeroClient());
    const pod = podFooNew({});
    env.m.setPodStatus(pod, getReadyPodStatus());
    verifyUpdates(env, 1);
    const oldStatus = expectPodStatus(env, pod);
    advance(env, 3_000);
    env.m.setPodStatus(pod, getReadyPodStatus());
    verifyUpdates(env, 0); // No update.
    const newStatus = expectPodStatus(env, pod);
    expect(ready(newStatus)!.lastTransitionTime).toBe(EPOCH);
    expect(ready(newStatus)!.lastTransitionTime).toBe(ready(oldStatus)!.lastTransitionTime);
  });

  it('TestSyncPodIgnoresNotFound', () => {
    const client = new ReactorClient();
    client.err = { code: 404, message: 'pods "test-pod" not found' };
    const env = newTestManager(gen, client);
    env.m.setPodStatus(getTestPod(), getRandomPodStatus());
    verifyActions(env, [GET]);
    expect(env.tracer.of('status.skip').map((e) => e.reason)).toEqual(['not found']);
  });

  it('TestSyncPod', () => {
    const testPod = getTestPod();
    const client = new TrackerClient(testPod);
    const env = newTestManager(gen, client);
    const st = getRandomPodStatus();
    env.m.setPodStatus(testPod, st);
    verifyActions(env, [GET, PATCH]);
    expect(client.get('new', 'foo')!.status).toEqual({ message: st.message, startTime: EPOCH });
    expect(env.m.apiStatusVersion('12345678')).toBe(1);
  });

  it('TestSyncPodChecksMismatchedUID', () => {
    const pod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'first' } };
    const differentPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'second' } };
    // syncer.kubeClient = fake.NewSimpleClientset(pod): the manager is built with that client.
    const env = newTestManager(gen, new TrackerClient(pod));
    env.podManager.addPod(pod);
    env.podManager.addPod(differentPod);
    env.m.setPodStatus(differentPod, getRandomPodStatus());
    verifyActions(env, [GET]);
    expect(env.tracer.of('status.recreated')).toHaveLength(1);
    expect(env.m.cachedEntry('second')).toBeUndefined(); // deletePodStatus
  });

  it('TestSyncPodNoDeadlock', () => {
    const client = new ReactorClient();
    const env = newTestManager(gen, client);
    const pod = getTestPod();
    w(pod).status = { containerStatuses: [{ state: { running: {} } } as ContainerStatus] };

    // Pod not found.
    client.ret = null;
    client.err = { code: 404, message: 'not found' };
    env.m.setPodStatus(pod, getRandomPodStatus());
    verifyActions(env, [GET]);

    // Pod was recreated.
    client.ret = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'other_pod' } };
    client.err = null;
    env.m.setPodStatus(pod, getRandomPodStatus());
    verifyActions(env, [GET]);

    // Pod not deleted (success case).
    client.ret = getTestPod();
    env.m.setPodStatus(pod, getRandomPodStatus());
    verifyActions(env, [GET, PATCH]);

    // Pod is terminated, but still running.
    w(pod).metadata!.deletionTimestamp = EPOCH;
    env.m.setPodStatus(pod, getRandomPodStatus());
    verifyActions(env, [GET, PATCH]);

    // Pod is terminated successfully.
    w(pod).status = { containerStatuses: [{ state: { terminated: { exitCode: 0 } } } as ContainerStatus] };
    env.m.setPodStatus(pod, getRandomPodStatus());
    verifyActions(env, [GET, PATCH]);

    // Error case.
    client.ret = null;
    client.err = { code: 500, message: 'intentional test error' };
    env.m.setPodStatus(pod, getRandomPodStatus());
    verifyActions(env, [GET]);
  });

  it('TestStaleUpdates', () => {
    const pod = getTestPod();
    const client = new TrackerClient(pod);
    const env = newTestManager(gen, client);
    env.m.setPodStatus(pod, { message: 'initial status' });
    env.m.setPodStatus(pod, { message: 'first version bump' });
    env.m.setPodStatus(pod, { message: 'second version bump' });

    // sync batch before syncPods pushes latest status, so we should see three statuses in the
    // channel (classic), one wake-up that finds nothing newer (current), but only one update.
    syncBatch(env);
    verifyUpdates(env, classic ? 3 : 0);
    verifyActions(env, [GET, PATCH]);
    // Nothing left in the channel to sync.
    verifyActions(env, []);

    // Unchanged status should not send an update.
    env.m.setPodStatus(pod, { message: 'second version bump' });
    verifyUpdates(env, 0);

    // ... even if it's stale as long as nothing changes.
    env.m.setApiStatusVersion('12345678', env.m.apiStatusVersion('12345678')! - 1);
    env.m.setPodStatus(pod, { message: 'second version bump' });
    syncBatch(env);
    verifyActions(env, [GET]);
    expect(env.m.apiStatusVersion('12345678')).toBe(3); // D-10: advanced although nothing was sent

    // Nothing stuck in the pipe.
    verifyUpdates(env, 0);
  });

  it('TestStaticPod', () => {
    const staticPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, annotations: STATIC_ANNOTATIONS } };
    const mirrorPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'mirror-12345678', annotations: MIRROR_ANNOTATIONS } };
    const client = new TrackerClient(mirrorPod);
    const env = newTestManager(gen, client);

    // Create the static pod.
    env.podManager.addPod(staticPod);
    const status = { ...getRandomPodStatus(), startTime: EPOCH };
    env.m.setPodStatus(staticPod, status);

    // Should be able to get the static pod status from status manager.
    expect(expectPodStatus(env, staticPod)).toEqual(status);

    // Should not sync pod in syncBatch because there is no corresponding mirror pod for the static pod.
    expect(syncBatch(env)).toBe(0);
    expect(client.actions).toEqual([]);

    // Create the mirror pod.
    env.podManager.addPod(mirrorPod);
    expect(env.podManager.translatePodUID('mirror-12345678')).toBe('12345678');

    // Should be able to get the mirror pod status from status manager (D-17).
    expect(env.m.getPodStatus('mirror-12345678')).toEqual(status);

    // Should sync pod because the corresponding mirror pod is created.
    if (!classic) expect(syncBatch(env)).toBe(1);
    verifyActions(env, [GET, PATCH]);
    expect(env.m.apiStatusVersion('mirror-12345678')).toBe(1);
    expect(env.m.apiStatusVersion('12345678')).toBeUndefined();

    // syncBatch should not sync any pods because nothing is changed.
    testSyncBatch(env);
    verifyActions(env, []);

    // Change mirror pod identity.
    env.podManager.removePod(mirrorPod);
    env.podManager.addPod({ ...mirrorPod, metadata: { ...mirrorPod.metadata, uid: 'new-mirror-pod' }, status: {} });

    // Should not update to mirror pod, because UID has changed (D-16).
    expect(syncBatch(env)).toBe(1);
    verifyActions(env, [GET]);
    expect(env.m.apiStatusVersion('mirror-12345678')).toBeUndefined(); // orphan cleanup
    expect(env.m.cachedEntry('12345678')).toBeUndefined(); // "deleted and then recreated"
  });

  it('TestTerminatePod', () => {
    const env = newTestManager(gen, new ZeroClient());
    const testPod = getTestPod();
    if (!classic) {
      testPod.spec = {
        containers: [{ name: 'test-1' }, { name: 'test-2' }, { name: 'test-3' }],
        initContainers: [{ name: 'init-test-1' }, { name: 'init-test-2' }, { name: 'init-test-3' }],
      };
    }
    // update the pod's status to Failed. TerminatePod should preserve this status update.
    const firstStatus: PodStatus = {
      ...getRandomPodStatus(),
      phase: 'Failed',
      initContainerStatuses: [
        cs('init-test-1'),
        cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }),
        cs('init-test-3', { state: { terminated: { reason: 'InitTest', exitCode: 3 } } }),
      ],
      containerStatuses: [
        cs('test-1'),
        cs('test-2', { state: { terminated: { reason: 'Test', exitCode: 2 } } }),
        cs('test-3', { state: { terminated: { reason: 'Test', exitCode: 0 } } }),
      ],
    };
    env.m.setPodStatus(testPod, firstStatus);

    // set the testPod to a pod with Phase running, to simulate a stale pod
    w(testPod).status = { ...getRandomPodStatus(), phase: 'Running' };
    if (!classic) {
      w(testPod).status!.initContainerStatuses = [
        cs('test-1'),
        cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }),
        cs('init-test-3', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }),
      ];
      w(testPod).status!.containerStatuses = ['test-1', 'test-2', 'test-3'].map((n) => cs(n, { state: { running: {} } }));
    }
    env.m.terminatePod(testPod);

    // we expect the container statuses to have changed to terminated
    const newStatus = expectPodStatus(env, testPod);
    for (const c of newStatus.containerStatuses!) expect(c.state?.terminated).toBeDefined();
    for (const c of newStatus.initContainerStatuses!) expect(c.state?.terminated).toBeDefined();
    expect(newStatus.initContainerStatuses![0].state).toEqual(U);
    expect(newStatus.initContainerStatuses![1].state).toEqual(firstStatus.initContainerStatuses![1].state);
    expect(newStatus.initContainerStatuses![2].state).toEqual(firstStatus.initContainerStatuses![2].state);
    expect(newStatus.containerStatuses![0].state).toEqual(U);
    expect(newStatus.containerStatuses![1].state).toEqual(firstStatus.containerStatuses![1].state);
    expect(newStatus.containerStatuses![2].state).toEqual(firstStatus.containerStatuses![2].state);

    // we expect the previous status update to be preserved.
    expect(newStatus.phase).toBe(firstStatus.phase);
    expect(newStatus.message).toBe(firstStatus.message);
    expect(env.m.cachedEntry('12345678')!.podIsFinished).toBe(!classic);
    expect(env.m.cachedEntry('12345678')!.version).toBe(2);
  });

  it('TestTerminatePodWaiting', () => {
    const env = newTestManager(gen, new ZeroClient());
    const testPod = getTestPod();
    testPod.spec = {
      containers: [{ name: 'test-1' }, { name: 'test-2' }, { name: 'test-3' }],
      initContainers: [{ name: 'init-test-1' }, { name: 'init-test-2' }, { name: 'init-test-3' }],
    };
    if (classic) testPod.spec = { containers: [] }; // the older files used an empty spec
    const firstStatus: PodStatus = {
      ...getRandomPodStatus(),
      phase: 'Failed',
      initContainerStatuses: [
        cs('init-test-1'),
        cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }),
        cs('init-test-3', { state: { waiting: { reason: 'InitTest' } } }),
      ],
      containerStatuses: [
        cs('test-1'),
        cs('test-2', { state: { terminated: { reason: 'Test', exitCode: 2 } } }),
        cs('test-3', { state: { waiting: { reason: 'Test' } } }),
      ],
    };
    env.m.setPodStatus(testPod, firstStatus);
    w(testPod).status = { ...getRandomPodStatus(), phase: 'Running' };
    if (!classic) {
      w(testPod).status!.initContainerStatuses = [
        cs('test-1'),
        cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }),
        cs('init-test-3', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }),
      ];
      w(testPod).status!.containerStatuses = ['test-1', 'test-2', 'test-3'].map((n) => cs(n, { state: { running: {} } }));
    }
    env.m.terminatePod(testPod);

    const newStatus = expectPodStatus(env, testPod);
    expect(newStatus.initContainerStatuses!.map((c) => c.state)).toEqual([U, firstStatus.initContainerStatuses![1].state, firstStatus.initContainerStatuses![2].state]);
    // Upstream (v1.22+) defaults the waiting regular container test-3; classic keeps it waiting.
    expect(newStatus.containerStatuses!.map((c) => c.state)).toEqual([
      U,
      firstStatus.containerStatuses![1].state,
      classic ? firstStatus.containerStatuses![2].state : U,
    ]);
    expect(newStatus.phase).toBe('Failed');
    expect(newStatus.message).toBe(firstStatus.message);
  });

  describe('TestTerminatePod_DefaultUnknownStatus', () => {
    const W: ContainerState = { waiting: {} };
    const T = (exitCode: number): ContainerState => ({ terminated: { exitCode } });
    function newPod(inits: number, containers: number, fn: (p: Pod) => void): Pod {
      const p = getTestPod();
      p.spec = {
        containers: Array.from({ length: containers }, (_, i) => ({ name: `${i}` })),
        initContainers: Array.from({ length: inits }, (_, i) => ({ name: `init-${i}` })),
      };
      w(p).status = { startTime: '1970-01-01T00:00:01Z' };
      fn(p);
      return p;
    }
    type Expect = { init?: ContainerState[]; containers?: ContainerState[]; phase?: string; same?: boolean };
    const cases: Array<[string, Pod, Record<Generation, Expect>]> = [
      ['phase Failed, no statuses', newPod(0, 1, (p) => (w(p).status!.phase = 'Failed')), { classic: { same: true }, current: { same: true } }],
      ['phase Running, no statuses', newPod(0, 1, (p) => (w(p).status!.phase = 'Running')), { classic: { same: true }, current: { phase: 'Failed' } }],
      [
        'phase Running, terminated container',
        newPod(0, 1, (p) => {
          w(p).status!.phase = 'Running';
          w(p).status!.containerStatuses = [cs('0', { state: { terminated: { reason: 'Test', exitCode: 2 } } })];
        }),
        { classic: { same: true }, current: { phase: 'Failed', containers: [{ terminated: { reason: 'Test', exitCode: 2 } }] } },
      ],
      [
        'last termination state set',
        newPod(0, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.containerStatuses = [cs('0', { lastState: { terminated: { reason: 'Test', exitCode: 2 } }, state: W })];
        }),
        { classic: { containers: [W] }, current: { containers: [U] } },
      ],
      [
        'no previous state',
        newPod(0, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { containers: [W] }, current: { containers: [U] } },
      ],
      [
        'uninitialized pod defaults the first init container',
        newPod(1, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Pending';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W })];
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { init: [W], containers: [W] }, current: { init: [U], containers: [W] } },
      ],
      [
        'uninitialized pod defaults only the first init container',
        newPod(2, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Pending';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W }), cs('init-1', { state: W })];
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { init: [W, W], containers: [W] }, current: { init: [U, W], containers: [W] } },
      ],
      [
        'uninitialized pod defaults gaps',
        newPod(4, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Pending';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W }), cs('init-1', { state: W }), cs('init-2', { state: T(1) }), cs('init-3', { state: W })];
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { init: [W, W, T(1), W], containers: [W] }, current: { init: [U, U, T(1), W], containers: [W] } },
      ],
      [
        'failed last container is uninitialized',
        newPod(3, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Pending';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W }), cs('init-1', { state: W }), cs('init-2', { state: T(1) })];
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { init: [W, W, T(1)], containers: [W] }, current: { init: [U, U, T(1)], containers: [W] } },
      ],
      [
        'successful last container is initialized',
        newPod(3, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W }), cs('init-1', { state: W }), cs('init-2', { state: T(0) })];
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { init: [W, W, T(0)], containers: [W] }, current: { init: [U, U, T(0)], containers: [U] } },
      ],
      [
        'successful last previous container is initialized, and container state is overwritten',
        newPod(3, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W }), cs('init-1', { state: W }), cs('init-2', { lastState: T(0), state: W })];
          w(p).status!.containerStatuses = [cs('0', { state: W })];
        }),
        { classic: { init: [W, W, W], containers: [W] }, current: { init: [U, U, U], containers: [U] } },
      ],
      [
        'running container proves initialization',
        newPod(1, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W })];
          w(p).status!.containerStatuses = [cs('0', { state: { running: {} } })];
        }),
        { classic: { init: [W], containers: [U] }, current: { init: [U], containers: [U] } },
      ],
      [
        'evidence of terminated container proves initialization',
        newPod(1, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W })];
          w(p).status!.containerStatuses = [cs('0', { state: T(0) })];
        }),
        { classic: { init: [W], containers: [T(0)] }, current: { init: [U], containers: [T(0)] } },
      ],
      [
        'evidence of previously terminated container proves initialization',
        newPod(1, 1, (p) => {
          p.spec!.restartPolicy = 'Never';
          w(p).status!.phase = 'Running';
          w(p).status!.initContainerStatuses = [cs('init-0', { state: W })];
          w(p).status!.containerStatuses = [cs('0', { lastState: T(0) })];
        }),
        { classic: { init: [W], containers: [U] }, current: { init: [U], containers: [U] } },
      ],
    ];
    it.each(cases)('%s', (_name, pod, want) => {
      const env = newTestManager(gen, new ZeroClient(), { withTestPod: false });
      const original = deepCopy(pod);
      env.m.setPodStatus(original, original.status!);
      const copied = deepCopy(pod);
      const expected = deepCopy(copied);
      env.m.terminatePod(copied);
      const status = expectPodStatus(env, pod);
      const w = want[gen];
      if (w.same) {
        expect(status).toEqual(expected.status);
        return;
      }
      if (w.phase) expect(status.phase).toBe(w.phase);
      if (w.init) expect(status.initContainerStatuses!.map((c) => c.state)).toEqual(w.init);
      if (w.containers) expect(status.containerStatuses!.map((c) => c.state)).toEqual(w.containers);
      expect(status.containerStatuses?.[0]?.lastState).toEqual(expected.status!.containerStatuses?.[0]?.lastState);
    });
  });

  it('TestSetContainerReadiness', () => {
    const cID1 = 'test://1';
    const cID2 = 'test://2';
    const status: PodStatus = {
      containerStatuses: [cs('c1', { containerID: cID1 }), cs('c2', { containerID: cID2 })],
      conditions: [{ type: 'Ready', status: 'False' }],
    };
    const pod = getTestPod();
    pod.spec = { containers: [{ name: 'c1' }, { name: 'c2' }] };
    const verifyReadiness = (step: string, s: PodStatus, c1: boolean, c2: boolean, podReady: boolean) => {
      for (const c of s.containerStatuses!) {
        if (c.containerID === cID1) expect(c.ready, `[${step}] c1`).toBe(c1);
        else if (c.containerID === cID2) expect(c.ready, `[${step}] c2`).toBe(c2);
        else throw new Error(`[${step}] unexpected container ${c.name}`);
      }
      expect(s.conditions![0].type).toBe('Ready');
      expect(s.conditions![0].status === 'True', `[${step}] pod`).toBe(podReady);
    };
    const env = newTestManager(gen, new ZeroClient());
    env.podManager.addPod(pod); // the container spec has changed

    // Setting readiness before status should fail.
    env.m.setContainerReadiness('12345678', cID1, true);
    verifyUpdates(env, 0);
    expect(env.m.getPodStatus('12345678')).toBeUndefined();
    expect(env.tracer.logged('Container readiness changed before pod has synced')).toBe(1);

    // Setting initial status.
    env.m.setPodStatus(pod, status);
    verifyUpdates(env, 1);
    verifyReadiness('initial', expectPodStatus(env, pod), false, false, false);

    // Setting unchanged readiness should do nothing.
    env.m.setContainerReadiness('12345678', cID1, false);
    verifyUpdates(env, 0);
    verifyReadiness('unchanged', expectPodStatus(env, pod), false, false, false);

    // Setting container readiness should generate update but not pod readiness.
    env.m.setContainerReadiness('12345678', cID1, true);
    verifyUpdates(env, 1);
    let s = expectPodStatus(env, pod);
    verifyReadiness('c1 ready', s, true, false, false);
    expect(s.conditions![0]).toMatchObject({ reason: 'ContainersNotReady', message: 'containers with unready status: [c2]' });
    expect(s.conditions![1]).toMatchObject({ type: 'ContainersReady', status: 'False' }); // appended (logged)
    expect(env.tracer.logged('PodStatus missing condition type')).toBe(1);

    // Setting both containers to ready should update pod readiness.
    env.m.setContainerReadiness('12345678', cID2, true);
    verifyUpdates(env, 1);
    s = expectPodStatus(env, pod);
    verifyReadiness('all ready', s, true, true, true);
    expect(s.conditions![1]).toMatchObject({ type: 'ContainersReady', status: 'True' });

    // Setting non-existent container readiness should fail.
    env.m.setContainerReadiness('12345678', 'test://foo', true);
    verifyUpdates(env, 0);
    verifyReadiness('ignore non-existent', expectPodStatus(env, pod), true, true, true);
  });

  it('TestSetContainerStartup', () => {
    const cID1 = 'test://1';
    const cID2 = 'test://2';
    const status: PodStatus = {
      containerStatuses: [cs('c1', { containerID: cID1 }), cs('c2', { containerID: cID2 })],
      conditions: [{ type: 'Ready', status: 'False' }],
    };
    const pod = getTestPod();
    pod.spec = { containers: [{ name: 'c1' }, { name: 'c2' }] };
    const verifyStartup = (step: string, s: PodStatus, c1: boolean, c2: boolean) => {
      for (const c of s.containerStatuses!) {
        if (c.containerID === cID1) expect(c.started === true, `[${step}] c1`).toBe(c1);
        else if (c.containerID === cID2) expect(c.started === true, `[${step}] c2`).toBe(c2);
        else throw new Error(`[${step}] unexpected container ${c.name}`);
      }
    };
    const env = newTestManager(gen, new ZeroClient());
    env.podManager.addPod(pod);

    // Setting startup before status should fail.
    env.m.setContainerStartup('12345678', cID1, true);
    verifyUpdates(env, 0);
    expect(env.m.getPodStatus('12345678')).toBeUndefined();

    // Setting initial status.
    env.m.setPodStatus(pod, status);
    verifyUpdates(env, 1);
    verifyStartup('initial', expectPodStatus(env, pod), false, false);

    // Setting unchanged startup should do nothing — but Started nil -> false is a change.
    env.m.setContainerStartup('12345678', cID1, false);
    verifyUpdates(env, 1);
    verifyStartup('unchanged', expectPodStatus(env, pod), false, false);

    // Setting container startup should generate update but not pod startup.
    env.m.setContainerStartup('12345678', cID1, true);
    verifyUpdates(env, 1);
    verifyStartup('c1 ready', expectPodStatus(env, pod), true, false);

    // Setting both containers to ready should update pod startup.
    env.m.setContainerStartup('12345678', cID2, true);
    verifyUpdates(env, 1);
    verifyStartup('all ready', expectPodStatus(env, pod), true, true);

    // Setting non-existent container startup should fail.
    env.m.setContainerStartup('12345678', 'test://foo', true);
    verifyUpdates(env, 0);
    verifyStartup('ignore non-existent', expectPodStatus(env, pod), true, true);

    // And now an unchanged one really does nothing.
    env.m.setContainerStartup('12345678', cID1, true);
    verifyUpdates(env, 0);
  });

  it('TestSyncBatchCleanupVersions', () => {
    const env = newTestManager(gen, new ZeroClient());
    const testPod = getTestPod();
    const mirrorPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'mirror-uid', name: 'mirror_pod', annotations: MIRROR_ANNOTATIONS } };

    // Orphaned pods should be removed.
    env.m.setApiStatusVersion('12345678', 100);
    env.m.setApiStatusVersion('mirror-uid', 200);
    syncBatch(env);
    expect(env.m.apiStatusVersion('12345678')).toBeUndefined();
    expect(env.m.apiStatusVersion('mirror-uid')).toBeUndefined();

    // Non-orphaned pods should not be removed.
    env.m.setPodStatus(testPod, getRandomPodStatus());
    env.podManager.addPod(mirrorPod);
    // `staticPod := mirrorPod` aliases the same Go object: its UID and annotations change under the
    // pod manager's feet, then it is added again as a static pod.
    const staticPod = mirrorPod;
    w(staticPod).metadata!.uid = 'static-uid';
    staticPod.metadata!.annotations = STATIC_ANNOTATIONS;
    env.podManager.addPod(staticPod);
    env.m.setApiStatusVersion('12345678', 100);
    env.m.setApiStatusVersion(mirrorPod.metadata!.uid!, 200);
    testSyncBatch(env);
    expect(env.m.apiStatusVersion('12345678')).toBe(100);
    expect(env.m.apiStatusVersion(mirrorPod.metadata!.uid!)).toBe(200);
  });

  it('TestReconcilePodStatus', () => {
    const testPod = getTestPod();
    const client = new TrackerClient(testPod);
    const env = newTestManager(gen, client);
    env.m.setPodStatus(testPod, getRandomPodStatus());
    // Call syncBatch directly to test reconcile.
    syncBatch(env); // The apiStatusVersions should be set now
    client.clearActions();

    const podStatus = env.m.getPodStatus('12345678')!;
    w(testPod).status = podStatus;

    // If the pod status is the same, a reconciliation is not needed and syncBatch should do nothing.
    env.podManager.updatePod(testPod);
    expect(env.m.needsReconcile('12345678', podStatus)).toBe(false);
    env.m.setPodStatus(testPod, podStatus);
    syncBatch(env);
    verifyActions(env, []);

    // If the pod status is the same, only the timestamp is in Rfc3339 format (lower precision
    // without nanosecond), a reconciliation is not needed, syncBatch should do nothing.
    w(testPod).status = { ...podStatus, startTime: podStatus.startTime };
    env.podManager.updatePod(testPod);
    expect(env.m.needsReconcile('12345678', podStatus)).toBe(false);
    // ... and a sub-second API time against the whole-second cache is not a difference either.
    env.podManager.updatePod({ ...testPod, status: { ...podStatus, startTime: '2026-01-01T00:00:00.400Z' } });
    expect(env.m.needsReconcile('12345678', podStatus)).toBe(false);
    env.podManager.updatePod(testPod);
    env.m.setPodStatus(testPod, podStatus);
    syncBatch(env);
    verifyActions(env, []);

    // If the pod status is different, a reconciliation is needed, syncBatch should trigger an update.
    const changedPodStatus = getRandomPodStatus();
    env.podManager.updatePod(testPod);
    expect(env.m.needsReconcile('12345678', changedPodStatus)).toBe(true);
    env.m.setPodStatus(testPod, changedPodStatus);
    syncBatch(env);
    verifyActions(env, [GET, PATCH]);
  });

  it('TestReconcilePodStatus (older form: drift in the pod manager alone triggers the write)', () => {
    const testPod = getTestPod();
    const client = new TrackerClient(testPod);
    const env = newTestManager(gen, client);
    env.m.setPodStatus(testPod, getRandomPodStatus());
    syncBatch(env);
    consumeUpdates(env);
    client.clearActions();
    const podStatus = env.m.getPodStatus('12345678')!;
    // Someone else wrote the status: the informer's copy differs from the cache.
    env.podManager.updatePod({ ...testPod, status: getRandomPodStatus() });
    expect(env.m.needsReconcile('12345678', podStatus)).toBe(true);
    syncBatch(env);
    verifyActions(env, [GET]); // the API object still holds the cached status: the patch is empty
    expect(env.m.apiStatusVersion('12345678')).toBe(1); // deleted, then re-set by syncPod
    expect(env.tracer.logged('a reconciliation should be triggered')).toBeGreaterThan(0);
  });

  if (classic) {
    it('TestDeletePods (v1.20 fake: PodResourcesAreReclaimed always true)', () => {
      const pod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, deletionTimestamp: EPOCH } };
      const client = new TrackerClient(pod);
      const env = newTestManager(gen, client);
      env.podManager.addPod(pod);
      env.m.setPodStatus(pod, { ...getRandomPodStatus(), startTime: EPOCH });
      verifyActions(env, [GET, PATCH, DELETE]);
      expect(client.deletes).toEqual([{ gracePeriodSeconds: 0, uid: '12345678' }]);
      expect(env.m.cachedEntry('12345678')).toBeUndefined();
      expect(env.tracer.of('status.delete')).toHaveLength(1);
    });

    it('TestDeletePodWhileReclaiming (v1.22 fake: Reclaimed = false)', () => {
      const pod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, deletionTimestamp: EPOCH } };
      const env = newTestManager(gen, new TrackerClient(pod));
      env.safety.reclaimed = false;
      env.podManager.addPod(pod);
      env.m.setPodStatus(pod, { ...getRandomPodStatus(), startTime: EPOCH });
      verifyActions(env, [GET, PATCH]);
    });
  } else {
    it('TestDeletePodBeforeFinished', () => {
      const pod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, deletionTimestamp: EPOCH } };
      const env = newTestManager(gen, new TrackerClient(pod));
      env.podManager.addPod(pod);
      env.m.setPodStatus(pod, { ...getRandomPodStatus(), phase: 'Failed' });
      // Expect not to see a delete action as the pod isn't finished yet (TerminatePod isn't called).
      verifyActions(env, [GET, PATCH]);
    });

    it('TestDeletePodFinished', () => {
      const pod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, deletionTimestamp: EPOCH } };
      const client = new TrackerClient(pod);
      const env = newTestManager(gen, client);
      env.podManager.addPod(pod);
      env.m.terminatePod(pod);
      // Expect to see a delete action as the pod is finished (TerminatePod called).
      verifyActions(env, [GET, PATCH, DELETE]);
      expect(client.deletes).toEqual([{ gracePeriodSeconds: 0, uid: '12345678' }]);
      expect(env.tracer.logged('Unknown phase, programmer error')).toBe(1);
    });

    it('TestTerminatePod_EnsurePodPhaseIsTerminal', () => {
      for (const [phase, want] of [
        ['Pending', 'Failed'],
        ['Running', 'Failed'],
        ['Succeeded', 'Succeeded'],
        ['Failed', 'Failed'],
        ['Unknown', 'Failed'],
        ['SomeUnknownPhase', 'Failed'],
      ]) {
        const env = newTestManager(gen, new ZeroClient(), { withTestPod: false });
        const pod = getTestPod();
        w(pod).status = { phase };
        env.m.terminatePod(pod);
        const { startTime: _s, ...got } = expectPodStatus(env, deepCopy(pod));
        expect(got, phase).toEqual({ phase: want });
      }
    });
  }

  it('TestDoNotDeleteMirrorPods', () => {
    const staticPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, annotations: STATIC_ANNOTATIONS } };
    const mirrorPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'mirror-12345678', annotations: MIRROR_ANNOTATIONS, deletionTimestamp: EPOCH } };
    const client = new TrackerClient(mirrorPod);
    const env = newTestManager(gen, client);
    env.podManager.addPod(staticPod);
    env.podManager.addPod(mirrorPod);
    expect(env.podManager.translatePodUID('mirror-12345678')).toBe('12345678');
    env.m.setPodStatus(staticPod, { ...getRandomPodStatus(), startTime: EPOCH });
    // Expect not to see a delete action.
    verifyActions(env, [GET, PATCH]);
    if (!classic) {
      // Not even once TerminatePod made it finished and the phase terminal.
      env.m.terminatePod(staticPod);
      consumeUpdates(env);
      expect(client.actions).not.toContain(DELETE);
    }
  });
});
