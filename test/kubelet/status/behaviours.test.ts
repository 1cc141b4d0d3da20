// Behaviours the upstream unit tests do not pin (spec §8, D-xx), and the sync loop itself: the
// select over podStatusChannel and the ticker, drops, coalesced wake-ups, retries, determinism.
import { describe, expect, it } from 'vitest';
import { Rng, type Chooser } from '../../../src/engine/index.js';
import type { ContainerStatus, Pod, PodStatus } from '../../../src/model/index.js';
import type { Generation } from '../../../src/kubelet/status/index.js';
import {
  DELETE,
  GENERATIONS,
  GET,
  MIRROR_ANNOTATIONS,
  PATCH,
  STATIC_ANNOTATIONS,
  TrackerClient,
  ZeroClient,
  consumeUpdates,
  getTestPod,
  newTestManager,
  syncBatch,
  verifyActions,
  verifyUpdates,
  type TestEnv,
} from './harness.js';

const EPOCH = '2026-01-01T00:00:00Z';

function cs(name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, image: '', imageID: '', ready: false, restartCount: 0, ...extra };
}
function mkPod(uid: string, name: string, extra: Partial<NonNullable<Pod['metadata']>> = {}): Pod {
  return { metadata: { uid, name, namespace: 'default', ...extra }, spec: { containers: [{ name: 'c' }] } };
}
function runTo(env: TestEnv, ms: number): void {
  env.engine.run({ untilMs: ms });
}
function patchMessages(client: TrackerClient): Array<string | undefined> {
  return client.patches.map((p) => (p as { status?: PodStatus }).status?.message);
}
/** Picks the ticker whenever the sync loop's select has both cases ready; map order = sorted. */
const preferTick: Chooser = { choose: (label, n) => (label === 'status/select' ? n - 1 : 0) };

describe('classic channel semantics', () => {
  it('D-06: a full channel drops the request after the cache was updated; the batch catches up', () => {
    const client = new TrackerClient(getTestPod());
    const env = newTestManager('classic', client, { capacity: 2 });
    env.m.setPodStatus(getTestPod(), { message: 'm1' });
    env.m.setPodStatus(getTestPod(), { message: 'm2' });
    env.m.setPodStatus(getTestPod(), { message: 'm3' });
    expect(env.m.cachedEntry('12345678')!.version).toBe(3);
    expect(env.tracer.of('status.drop').map((e) => e.version)).toEqual([3]);
    expect(env.tracer.logged('because the channel is full')).toBe(1);
    // Each queued snapshot is sent as it was: m1, then m2.
    expect(consumeUpdates(env)).toBe(2);
    expect(patchMessages(client)).toEqual(['m1', 'm2']);
    expect(env.m.apiStatusVersion('12345678')).toBe(2);
    syncBatch(env);
    expect(patchMessages(client)).toEqual(['m1', 'm2', 'm3']);
    expect(client.get('new', 'foo')!.status!.message).toBe('m3');
  });

  it('on a tick the loop discards len(channel) requests, then runs syncBatch()', () => {
    const client = new TrackerClient(getTestPod());
    client.latencyMs = 6_000;
    const env = newTestManager('classic', client, { chooser: preferTick });
    env.m.start();
    runTo(env, 0); // the loop parks in select
    env.m.setPodStatus(getTestPod(), { message: 'm1' }); // handed straight to the parked loop
    env.m.setPodStatus(getTestPod(), { message: 'm2' }); // buffered
    env.m.setPodStatus(getTestPod(), { message: 'm3' }); // buffered
    expect(env.m.podStatusChannel.len).toBe(2);
    // m1: GET at 0, PATCH at 6 s, done at 12 s; the 10 s tick waits; at 12 s both cases are ready
    // and the tick is chosen: m2 and m3 are discarded and the batch sends m3.
    runTo(env, 23_999);
    expect(client.actions).toEqual([GET, PATCH, GET, PATCH]);
    expect(patchMessages(client)).toEqual(['m1', 'm3']);
    expect(env.m.podStatusChannel.len).toBe(0);
    expect(env.tracer.of('status.sync').map((e) => e.version)).toEqual([1, 3]);
  });

  it('D-18: a stale queued snapshot of a now-deletable pod is re-sent before the delete', () => {
    const pod = mkPod('p1', 'p', { deletionTimestamp: EPOCH });
    const client = new TrackerClient(pod);
    const env = newTestManager('classic', client);
    env.podManager.addPod(pod);
    env.safety.reclaimed = false;
    env.m.setPodStatus(pod, { message: 'm1' });
    env.m.setPodStatus(pod, { message: 'm2' });
    syncBatch(env); // sends m2 (v2); not reclaimed yet, no delete
    expect(env.m.apiStatusVersion('p1')).toBe(2);
    env.safety.reclaimed = true;
    consumeUpdates(env); // v1: needsUpdate is true through canBeDeleted; v2: the pod is gone
    expect(patchMessages(client)).toEqual(['m2', 'm1']);
    expect(client.actions).toEqual([GET, PATCH, GET, PATCH, DELETE, GET]);
    expect(env.m.apiStatusVersion('p1')).toBe(1); // went down: 2 -> 1
  });

  it('syncPod is checked with the source UID: a static pod re-syncs on every dequeue', () => {
    const staticPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, annotations: STATIC_ANNOTATIONS } };
    const mirror: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'mirror-1', annotations: MIRROR_ANNOTATIONS } };
    const client = new TrackerClient(mirror);
    const env = newTestManager('classic', client);
    env.podManager.addPod(staticPod);
    env.podManager.addPod(mirror);
    env.m.setPodStatus(staticPod, { message: 'm1' });
    syncBatch(env);
    expect(client.actions).toEqual([GET, PATCH]);
    client.clearActions();
    verifyActions(env, [GET]); // the queued request: GET, then an empty patch
    expect(env.tracer.of('status.skip').map((e) => e.reason)).toEqual(['unchanged']);
  });
});

describe('current channel semantics', () => {
  it('D-07: updates to several pods before the loop runs: one wake-up, each pod synced once at its latest version', () => {
    const a = mkPod('a', 'a');
    const b = mkPod('b', 'b');
    const client = new TrackerClient(a, b);
    const env = newTestManager('current', client);
    env.m.start();
    runTo(env, 0);
    env.m.setPodStatus(a, { message: 'a1' }); // wakes the parked loop
    env.m.setPodStatus(a, { message: 'a2' }); // one pending wake-up
    env.m.setPodStatus(b, { message: 'b1' }); // channel full: dropped by design
    runTo(env, 5_000);
    const syncs = env.tracer.of('status.sync').map((e) => `${e.uid}@${e.version}`).sort();
    expect(syncs).toEqual(['a@2', 'b@1']);
    expect(client.actions.filter((x) => x === PATCH)).toHaveLength(2);
    expect(client.get('default', 'a')!.status!.message).toBe('a2');
    expect(client.get('default', 'b')!.status!.message).toBe('b1');
  });

  it('a failed PATCH is retried by the 10 s tick (syncBatch(true)), not by the fast path', () => {
    const client = new TrackerClient(getTestPod());
    client.faults.push({ verb: 'patch', code: 500 });
    const env = newTestManager('current', client);
    env.m.start();
    runTo(env, 0);
    env.m.setPodStatus(getTestPod(), { message: 'm1' });
    runTo(env, 9_999);
    expect(client.actions).toEqual([GET, PATCH]);
    expect(env.m.apiStatusVersion('12345678')).toBeUndefined();
    expect(env.tracer.logged('Failed to update status for pod')).toBe(1);
    runTo(env, 10_000);
    expect(client.actions).toEqual([GET, PATCH, GET, PATCH]);
    expect(env.m.apiStatusVersion('12345678')).toBe(1);
  });

  it('D-11: a failed final DELETE is retried only by syncBatch(true), through needsUpdate -> canBeDeleted', () => {
    const pod = mkPod('p1', 'p', { deletionTimestamp: EPOCH });
    const client = new TrackerClient(pod);
    client.faults.push({ verb: 'delete', code: 500 });
    const env = newTestManager('current', client);
    env.podManager.addPod(pod);
    env.m.terminatePod(pod);
    verifyActions(env, [GET, PATCH, DELETE]);
    expect(env.m.cachedEntry('p1')).toBeDefined();
    expect(syncBatch(env, false)).toBe(0);
    // The informer delivers the terminal phase to the pod manager.
    env.podManager.updatePod(client.get('default', 'p')!);
    expect(syncBatch(env, true)).toBe(1);
    expect(client.actions).toEqual([GET, DELETE]); // nothing to patch
    expect(env.m.cachedEntry('p1')).toBeUndefined();
    expect(client.get('default', 'p')).toBeUndefined();
  });

  it('D-12: while containers may run, the terminal phase and DisruptionTarget are held back', () => {
    const pod: Pod = { ...mkPod('p1', 'p'), status: { phase: 'Running' } };
    const client = new TrackerClient(pod);
    const env = newTestManager('current', client);
    env.podManager.addPod(pod);
    env.safety.hasRunning = true;
    const failed: PodStatus = { phase: 'Failed', reason: 'Evicted', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' }] };
    env.m.setPodStatus(pod, failed);
    verifyActions(env, [GET, PATCH]);
    let api = client.get('default', 'p')!.status!;
    expect(api.phase).toBe('Running');
    expect(api.reason).toBeUndefined();
    expect(api.conditions ?? []).toEqual([]);
    env.safety.hasRunning = false;
    env.m.terminatePod(pod);
    verifyActions(env, [GET, PATCH]);
    api = client.get('default', 'p')!.status!;
    expect(api.phase).toBe('Failed');
    expect(api.reason).toBe('Evicted');
    expect(api.conditions).toEqual([{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', lastTransitionTime: EPOCH }]);
  });

  it('D-14: SetPodStatus after TerminatePod keeps podIsFinished (logged as a programmer error)', () => {
    const env = newTestManager('current', new ZeroClient());
    env.m.terminatePod(getTestPod());
    env.m.setPodStatus(getTestPod(), { phase: 'Failed', message: 'later' });
    expect(env.m.cachedEntry('12345678')).toMatchObject({ version: 2, podIsFinished: true });
    expect(env.tracer.logged('Got unexpected podIsFinished=false')).toBe(1);
  });

  it('D-15: a recreated cache entry below the sent version is skipped by the fast path, repaired by all=true', () => {
    const client = new TrackerClient(getTestPod());
    const env = newTestManager('current', client);
    for (const m of ['m1', 'm2', 'm3']) {
      env.m.setPodStatus(getTestPod(), { message: m });
      consumeUpdates(env);
    }
    expect(env.m.apiStatusVersion('12345678')).toBe(3);
    env.m.removeOrphanedStatuses(new Set());
    env.m.setPodStatus(getTestPod(), { message: 'm4' });
    expect(env.m.cachedEntry('12345678')!.version).toBe(1);
    expect(consumeUpdates(env)).toBe(0);
    env.podManager.updatePod({ ...getTestPod(), status: client.get('new', 'foo')!.status });
    client.clearActions();
    expect(syncBatch(env, true)).toBe(1);
    expect(client.actions).toEqual([GET, PATCH]);
    expect(client.get('new', 'foo')!.status!.message).toBe('m4');
    expect(env.m.apiStatusVersion('12345678')).toBe(1);
  });

  it('orphaned apiStatusVersions are cleaned only by syncBatch(true)', () => {
    const env = newTestManager('current', new ZeroClient());
    env.m.setApiStatusVersion('gone', 5);
    syncBatch(env, false);
    expect(env.m.apiStatusVersion('gone')).toBe(5);
    syncBatch(env, true);
    expect(env.m.apiStatusVersion('gone')).toBeUndefined();
  });

  it('SetContainerReadiness counts sidecars (init ++ regular statuses)', () => {
    const pod = getTestPod();
    pod.spec = { containers: [{ name: 'c' }], initContainers: [{ name: 's', restartPolicy: 'Always' }] };
    const status: PodStatus = {
      initContainerStatuses: [cs('s', { containerID: 'test://s', started: true, state: { running: {} } })],
      containerStatuses: [cs('c', { containerID: 'test://c', state: { running: {} } })],
      conditions: [{ type: 'Ready', status: 'False' }, { type: 'ContainersReady', status: 'False' }],
    };
    for (const gen of GENERATIONS) {
      const env = newTestManager(gen, new ZeroClient());
      env.podManager.addPod(pod);
      env.m.setPodStatus(pod, status);
      env.m.setContainerReadiness('12345678', 'test://c', true);
      const ready = env.m.getPodStatus('12345678')!.conditions![0];
      if (gen === 'current') expect(ready).toMatchObject({ status: 'False', message: 'containers with unready status: [s]' });
      else expect(ready.status).toBe('True');
    }
  });
});

describe.each(GENERATIONS)('updateStatusInternal and the loop (%s)', (gen: Generation) => {
  it('D-01: an illegal transition is rejected: cache and version unchanged, nothing queued', () => {
    const env = newTestManager(gen, new ZeroClient());
    const pod = getTestPod();
    pod.spec = { containers: [{ name: 'c' }], restartPolicy: 'Never' };
    env.podManager.addPod(pod);
    env.m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { terminated: { exitCode: 1 } } })] });
    env.m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { running: {} } })] });
    expect(env.m.cachedEntry('12345678')!.version).toBe(1);
    expect(env.m.getPodStatus('12345678')!.containerStatuses![0].state).toEqual({ terminated: { exitCode: 1 } });
    expect(env.tracer.of('status.reject')).toMatchObject([{ container: 'c', message: 'terminated container c attempted illegal transition to non-terminated state' }]);
    expect(env.tracer.logged('Status update on pod aborted')).toBe(1);
    verifyUpdates(env, 1);
  });

  it('D-08: with a deletionTimestamp an identical status still bumps the version and triggers a sync', () => {
    const env = newTestManager(gen, new ZeroClient());
    const pod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, deletionTimestamp: EPOCH } };
    env.m.setPodStatus(pod, { message: 'same' });
    env.m.setPodStatus(pod, { message: 'same' });
    expect(env.m.cachedEntry('12345678')!.version).toBe(2);
    expect(env.tracer.of('status.same')).toHaveLength(0);
    verifyUpdates(env, gen === 'classic' ? 2 : 1);
  });

  it('D-20: a static pod without a cache entry inherits the mirror pod\'s start time', () => {
    const env = newTestManager(gen, new ZeroClient());
    const staticPod: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, annotations: STATIC_ANNOTATIONS } };
    const mirror: Pod = { ...getTestPod(), metadata: { ...getTestPod().metadata, uid: 'm', annotations: MIRROR_ANNOTATIONS }, status: { startTime: '2025-12-31T23:00:00Z' } };
    env.podManager.addPod(staticPod);
    env.podManager.addPod(mirror);
    env.m.setPodStatus(staticPod, { startTime: '2026-01-01T00:00:05Z' });
    expect(env.m.getPodStatus('m')!.startTime).toBe('2025-12-31T23:00:00Z');
  });

  it('condition types whose lastTransitionTime is stamped', () => {
    const env = newTestManager(gen, new ZeroClient());
    env.m.setPodStatus(getTestPod(), {
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'True' },
        { type: 'DisruptionTarget', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
        { type: 'example.com/x', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' },
      ],
    });
    const c = env.m.getPodStatus('12345678')!.conditions!;
    const stamped = gen === 'current' ? EPOCH : undefined;
    expect(c.map((x) => x.lastTransitionTime)).toEqual([stamped, stamped, EPOCH, '2025-01-01T00:00:00Z']);
  });

  it('a nil client: Start only logs, the cache still works', () => {
    const env = newTestManager(gen, null);
    env.m.start();
    expect(env.tracer.logged('Kubernetes client is nil, not starting status manager')).toBe(1);
    env.m.setPodStatus(getTestPod(), { message: 'x' });
    env.m.triggerBatch(true);
    expect(env.engine.pending).toBe(0);
    expect(env.m.getPodStatus('12345678')!.message).toBe('x');
  });

  it('stop() kills the sync loop and its ticker', () => {
    const client = new TrackerClient(getTestPod());
    const env = newTestManager(gen, client);
    env.m.start();
    runTo(env, 0);
    env.m.stop();
    env.m.setPodStatus(getTestPod(), { message: 'x' });
    runTo(env, 60_000);
    expect(client.actions).toEqual([]);
    expect(env.engine.pending).toBe(0);
  });

  it('the running loop syncs a new status and then leaves it alone while nothing changes', () => {
    const client = new TrackerClient(getTestPod());
    const env = newTestManager(gen, client);
    env.m.start();
    runTo(env, 0);
    env.m.setPodStatus(getTestPod(), { message: 'x' });
    runTo(env, 1);
    expect(client.actions).toEqual([GET, PATCH]);
    // The informer delivers the written status, so the periodic batches find nothing to reconcile.
    env.podManager.updatePod(client.get('new', 'foo')!);
    runTo(env, 60_000);
    expect(client.actions).toEqual([GET, PATCH]);
  });

  it('triggerBatch: one batch now, as its own process (classic drains the queued requests first)', () => {
    const client = new TrackerClient(getTestPod());
    const env = newTestManager(gen, client);
    env.m.setPodStatus(getTestPod(), { message: 'm1' });
    env.m.setPodStatus(getTestPod(), { message: 'm2' });
    env.m.triggerBatch(true);
    runTo(env, 0);
    expect(patchMessages(client)).toEqual(['m2']);
    expect(env.m.podStatusChannel.len).toBe(gen === 'classic' ? 0 : 1);
  });

  it("Go's map order is a seeded permutation: the same seed gives the same order, seeds differ", () => {
    const order = (seed: string, useRng: boolean) => {
      const pods = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => mkPod(n, n));
      const env = newTestManager(gen, new TrackerClient(...pods), { seed, rng: useRng ? new Rng(seed).fork('status') : undefined });
      for (const p of pods) env.m.setPodStatus(p, { message: 'x' });
      syncBatch(env, true);
      return env.tracer.of('status.sync').map((e) => e.uid).join('');
    };
    for (const useRng of [false, true]) {
      expect(order('1', useRng)).toBe(order('1', useRng));
      const seen = new Set(['1', '2', '3', '4', '5', '6'].map((s) => order(s, useRng)));
      expect(seen.size).toBeGreaterThan(1);
    }
  });
});
