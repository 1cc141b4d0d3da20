import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../src/model/pod.js';
import { Harness, attempt, simplePod } from './harness.js';

const VARIANTS = ['classic', 'current'] as const;
const s = (ms: number) => ms / 1000;

describe.each(VARIANTS)('Node (%s)', (variant) => {
  it('a Never pod whose container exits 0 is Succeeded; exit 1 is Failed; neither restarts', () => {
    const h = new Harness({
      variant,
      pods: [simplePod('ok', 'Never'), simplePod('bad', 'Never')],
      behaviour: { ok: { main: [attempt(5000, 0)] }, bad: { main: [attempt(5000, 1)] } },
    });
    h.run(60_000);
    expect(h.apiPod('ok')?.status?.phase).toBe('Succeeded');
    expect(h.apiPod('ok')?.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(h.apiPod('bad')?.status?.phase).toBe('Failed');
    expect(h.apiPod('bad')?.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(h.starts('ok')).toEqual([0]);
    expect(h.starts('bad')).toEqual([0]);
    // Ready is False once terminal
    expect(h.apiPod('bad')?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });

  it('OnFailure restarts after exit 1 and not after exit 0', () => {
    const h = new Harness({
      variant,
      pods: [simplePod('retry', 'OnFailure'), simplePod('once', 'OnFailure')],
      behaviour: { retry: { main: [attempt(5000, 1), attempt(5000, 0)] }, once: { main: [attempt(5000, 0)] } },
    });
    h.run(60_000);
    expect(h.starts('retry').map(s)).toEqual([0, 5]);
    expect(h.apiPod('retry')?.status?.phase).toBe('Succeeded');
    // the container deletor removed the exit-1 instance at the exit-0 death: classic stops syncing
    // at the terminal phase (lastState stays), current regenerates while terminating (it goes)
    const lastState = variant === 'classic' ? { terminated: { exitCode: 1 } } : {};
    expect(h.apiPod('retry')?.status?.containerStatuses?.[0]).toMatchObject({ restartCount: 1, lastState, state: { terminated: { exitCode: 0 } } });
    expect(h.tracer.of('runtime.remove', 'default/retry').map((r) => s(r.t))).toEqual([10]);
    expect(h.starts('once').map(s)).toEqual([0]);
    expect(h.apiPod('once')?.status?.phase).toBe('Succeeded');
  });

  it('an Always crash loop restarts at once, then after 10, 20, 40, 80, 160, 300, 300 s', () => {
    const h = new Harness({ variant, pods: [simplePod('crash', 'Always')], behaviour: { crash: { main: [attempt(5000, 1)] } } });
    h.run(1_000_000);
    const starts = h.starts('crash').map(s);
    expect(starts).toEqual([0, 5, 20, 45, 90, 175, 340, 645, 950]);
    const deaths = h.tracer.of('runtime.exit', 'default/crash').map((r) => s(r.t));
    const waits = starts.slice(1).map((t, i) => t - deaths[i]);
    expect(waits).toEqual([0, 10, 20, 40, 80, 160, 300, 300]);
    const cs = h.apiPod('crash')!.status!.containerStatuses![0];
    expect(h.apiPod('crash')!.status!.phase).toBe('Running');
    expect(cs.state?.waiting).toEqual({ reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container=main pod=crash_default(uid-crash)' });
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs.restartCount).toBe(8);
  });

  it('restarts land on the relist that noticed the death, plus the back-off', () => {
    const h = new Harness({ variant, pods: [simplePod('crash', 'Always')], behaviour: { crash: { main: [attempt(5300, 1)] } } });
    h.run(60_000);
    // deaths at 5.3, 11.3, 27.3 are noticed at 6, 12, 28
    expect(h.starts('crash').map(s)).toEqual([0, 6, 22, 48]);
  });

  it('OOM kills and timeline exits end the running attempt', () => {
    const h = new Harness({ variant, pods: [simplePod('web', 'Always')] });
    h.at(3_000, () => h.node.oom('uid-web', 'main'));
    h.run(10_000);
    expect(h.tracer.of('runtime.exit', 'default/web')[0]).toMatchObject({ t: 3_000, exitCode: 137, reason: 'OOMKilled' });
    expect(h.starts('web').map(s)).toEqual([0, 3]);
    expect(h.apiPod('web')?.status?.containerStatuses?.[0].lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });

  it('a graceful delete of a container that ignores SIGTERM SIGKILLs it at the deadline (137), then the pod goes', () => {
    const h = new Harness({ variant, pods: [simplePod('svc', 'Always')], behaviour: { svc: { main: [attempt('forever', 0, 'ignore')] } } });
    h.at(10_000, () => h.api.delete('default', 'svc', {}, 'user'));
    h.run(120_000);
    const kills = h.tracer.of('runtime.kill', 'default/svc');
    expect(kills.map((k) => k.signal)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(kills[0].timeoutSeconds).toBe(30);
    expect(kills[1].t - kills[0].t).toBe(30_000);
    const exit = h.tracer.of('runtime.exit', 'default/svc')[0];
    expect(exit).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(exit.t).toBe(kills[1].t);
    expect(kills[0].t).toBeGreaterThanOrEqual(10_000);
    expect(kills[0].t).toBeLessThanOrEqual(11_001);
    expect(h.apiPod('svc')).toBeUndefined();
    const del = h.tracer.of('status.delete', 'default/svc');
    expect(del.length).toBe(1);
    expect(del[0].t).toBeGreaterThanOrEqual(exit.t);
    expect(h.tracer.of('worker.terminating', 'default/svc').length).toBeGreaterThanOrEqual(1);
  });

  it('a container that honours SIGTERM exits 143 after its term time', () => {
    const h = new Harness({ variant, pods: [simplePod('svc', 'Always')], behaviour: { svc: { main: [attempt('forever', 0, 2000)] } } });
    h.at(10_000, () => h.api.delete('default', 'svc', { gracePeriodSeconds: 20 }, 'user'));
    h.run(60_000);
    const term = h.tracer.of('runtime.kill', 'default/svc');
    expect(term.map((k) => k.signal)).toEqual(['SIGTERM']);
    expect(term[0].timeoutSeconds).toBe(20);
    const exit = h.tracer.of('runtime.exit', 'default/svc')[0];
    expect(exit).toMatchObject({ exitCode: 143 });
    expect(exit.t - term[0].t).toBe(2_000);
    expect(h.apiPod('svc')).toBeUndefined();
  });

  it('readiness follows the probe results; a probed container starts unready', () => {
    const pod = simplePod('web', 'Always', { containers: [{ name: 'main', image: 'img', readinessProbe: { httpGet: { port: 80 } } }] });
    const h = new Harness({ variant, pods: [pod] });
    const ready = () => h.apiPod('web')?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    const csReady = () => h.apiPod('web')?.status?.containerStatuses?.[0].ready;
    h.run(4_000);
    expect(h.apiPod('web')?.status?.phase).toBe('Running');
    expect(csReady()).toBe(false);
    expect(ready()).toBe('False');
    h.at(5_000, () => h.node.setReady('uid-web', 'main', true));
    h.run(5_500);
    expect(h.sm.getPodStatus('uid-web')?.containerStatuses?.[0].ready).toBe(true);
    h.run(15_000);
    expect(csReady()).toBe(true);
    expect(ready()).toBe('True');
    h.at(20_000, () => h.node.setReady('uid-web', 'main', false));
    h.run(35_000);
    expect(csReady()).toBe(false);
    expect(ready()).toBe('False');
    const probes = h.tracer.of('probe.result', 'default/web').map((r) => [s(r.t), r.result]);
    // the worker's first probe (a seeded part of the 10 s period) records the initial Failure
    expect(probes[0][1]).toBe(false);
    expect(probes[0][0]).toBeLessThan(5);
    expect(probes.slice(1)).toEqual([[5, true], [20, false]]);
  });

  it('a container without a readiness probe is ready once running', () => {
    const h = new Harness({ variant, pods: [simplePod('web', 'Always')] });
    h.run(15_000);
    expect(h.apiPod('web')?.status?.containerStatuses?.[0]).toMatchObject({ ready: true, started: true });
    expect(h.apiPod('web')?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('init containers run in order; a failed init container fails a Never pod', () => {
    const ok = simplePod('ok', 'Never', { initContainers: [{ name: 'i1', image: 'img' }, { name: 'i2', image: 'img' }] });
    const bad = simplePod('bad', 'Never', { initContainers: [{ name: 'i1', image: 'img' }] });
    const h = new Harness({
      variant,
      pods: [ok, bad],
      behaviour: { ok: { i1: [attempt(2000, 0)], i2: [attempt(2000, 0)], main: [attempt(3000, 0)] }, bad: { i1: [attempt(2000, 2)] } },
    });
    h.run(60_000);
    expect(h.starts('ok', 'i1').map(s)).toEqual([0]);
    expect(h.starts('ok', 'i2').map(s)).toEqual([2]);
    expect(h.starts('ok', 'main').map(s)).toEqual([4]);
    expect(h.apiPod('ok')?.status?.phase).toBe('Succeeded');
    expect(h.starts('bad', 'main')).toEqual([]);
    expect(h.apiPod('bad')?.status?.phase).toBe('Failed');
    expect(h.apiPod('bad')?.status?.initContainerStatuses?.[0].state?.terminated?.exitCode).toBe(2);
  });

  it('a failed init container under OnFailure restarts with back-off', () => {
    const pod = simplePod('init', 'OnFailure', { initContainers: [{ name: 'i1', image: 'img' }] });
    const h = new Harness({ variant, pods: [pod], behaviour: { init: { i1: [attempt(1000, 1), attempt(1000, 1), attempt(1000, 0)], main: [attempt('forever')] } } });
    h.run(60_000);
    expect(h.starts('init', 'i1').map(s)).toEqual([0, 1, 12]);
    expect(h.starts('init', 'main').map(s)).toEqual([13]);
    expect(h.apiPod('init')?.status?.phase).toBe('Running');
  });

  it('a kubelet restart leaves containers running; the new kubelet adopts them', () => {
    const h = new Harness({ variant, pods: [simplePod('web', 'Always')], behaviour: { web: { main: [attempt(30_000, 1)] } } });
    h.at(10_000, () => h.stopKubelet());
    h.at(15_000, () => h.startKubelet());
    h.run(40_000);
    // started once at 0, dies at 30 (noticed by the new kubelet's PLEG), restarted at once
    expect(h.starts('web').map(s)).toEqual([0, 30]);
    expect(h.apiPod('web')?.status?.containerStatuses?.[0].restartCount).toBe(1);
  });

  it('a static pod gets a mirror pod, recreated after it is deleted', () => {
    const h = new Harness({ variant });
    const manifest: Pod = { metadata: { name: 'etcd-node-a', namespace: 'kube-system' }, spec: { containers: [{ name: 'etcd', image: 'etcd' }] } };
    const sp = h.node.addStaticPod(manifest);
    const hash = sp.metadata!.annotations!['kubernetes.io/config.hash'];
    expect(sp.metadata!.annotations!['kubernetes.io/config.source']).toBe('file');
    expect(hash).toBe(sp.metadata!.uid);
    h.run(5_000);
    const m1 = h.api.peek('kube-system', 'etcd-node-a')!;
    expect(m1.metadata!.annotations!['kubernetes.io/config.mirror']).toBe(hash);
    expect(m1.metadata!.uid).not.toBe(sp.metadata!.uid);
    h.run(15_000);
    expect(h.api.peek('kube-system', 'etcd-node-a')!.status?.phase).toBe('Running');
    expect(h.tracer.of('mirror.create').length).toBe(1);
    h.at(20_000, () => h.api.delete('kube-system', 'etcd-node-a', {}, 'user'));
    h.run(40_000);
    const m2 = h.api.peek('kube-system', 'etcd-node-a')!;
    expect(m2).toBeDefined();
    expect(m2.metadata!.uid).not.toBe(m1.metadata!.uid);
    // the sync on the mirror's MODIFIED (deletionTimestamp) deletes it for good and creates a new
    // one; the sync on its DELETED carries the removed mirror (as upstream's HandlePodRemoves hands
    // it over) and tries its delete again, which fails: nothing is created by that one
    expect(h.tracer.of('mirror.delete').map((r) => [r.precondition, r.code])).toEqual([
      [m1.metadata!.uid, 200],
      [m1.metadata!.uid, 409],
    ]);
    expect(h.tracer.of('mirror.create').length).toBe(2);
    // the static pod's containers were never touched
    expect(h.starts('etcd-node-a', 'etcd').length).toBe(0);
    expect(h.tracer.of('runtime.start', 'kube-system/etcd-node-a').length).toBe(1);
  });

  it('housekeeping deletes orphaned mirror pods and removes orphaned statuses', () => {
    const h = new Harness({ variant });
    const orphan: Pod = {
      metadata: { name: 'old-node-a', namespace: 'kube-system', annotations: { 'kubernetes.io/config.mirror': 'abc' } },
      spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }] },
    };
    h.api.create(orphan, 'user');
    h.run(5_000);
    expect(h.api.peek('kube-system', 'old-node-a')).toBeUndefined();
    expect(h.tracer.of('mirror.delete', 'kube-system/old-node-a')[0]).toMatchObject({ precondition: undefined });
  });
});

describe('Node, current generation only', () => {
  it('PodCouldHaveRunningContainers: true until the worker terminated; unknown UIDs true until the first housekeeping', () => {
    const h = new Harness({ variant: 'current', pods: [simplePod('job', 'Never')], behaviour: { job: { main: [attempt(5000, 0)] } } });
    const job = () => h.apiPod('job')!;
    const unknown: Pod = { metadata: { name: 'x', namespace: 'default', uid: 'nobody' } };
    expect(h.node.deletionSafety.podCouldHaveRunningContainers(unknown)).toBe(true);
    h.run(1_000);
    expect(h.node.deletionSafety.podCouldHaveRunningContainers(job())).toBe(true);
    h.run(2_500);
    expect(h.node.deletionSafety.podCouldHaveRunningContainers(unknown)).toBe(false);
    h.run(5_500);
    expect(h.node.deletionSafety.podCouldHaveRunningContainers(job())).toBe(true);
    h.run(8_000);
    expect(h.node.deletionSafety.podCouldHaveRunningContainers(job())).toBe(false);
    expect(h.tracer.of('worker.terminating', 'default/job').map((r) => s(r.t))).toEqual([6]);
    expect(h.tracer.of('worker.terminated', 'default/job').map((r) => s(r.t))).toEqual([7]);
    expect(h.sm.cachedEntry('uid-job')?.podIsFinished).toBe(true);
  });

  it('a sidecar that crashes while a later init container runs is restarted at once (computeInitContainerActions walks every init container)', () => {
    const pod = simplePod('side', 'Always', {
      initContainers: [
        { name: 'proxy', image: 'img', restartPolicy: 'Always' },
        { name: 'migrate', image: 'img' },
      ],
    });
    const h = new Harness({ variant: 'current', pods: [pod], behaviour: { side: { proxy: [attempt('forever', 0, 0)], migrate: [attempt(60_000, 0)] } } });
    h.at(10_000, () => h.node.exit('uid-side', 'proxy', 1));
    h.run(90_000);
    expect(h.starts('side', 'migrate').map(s)).toEqual([1]);
    // the 10 s relist sees the death; that sync restarts the sidecar (its first death: no back-off)
    expect(h.starts('side', 'proxy').map(s)).toEqual([0, 10]);
    expect(h.starts('side', 'main').map(s)).toEqual([61]);
    const proxy = h.apiPod('side')!.status!.initContainerStatuses!.find((c) => c.name === 'proxy')!;
    expect(proxy).toMatchObject({ restartCount: 1, lastState: { terminated: { exitCode: 1 } } });
    expect(proxy.state?.running).toBeDefined();
  });

  it('sidecars start before the main container and are stopped when it is done', () => {
    const pod = simplePod('side', 'Never', { initContainers: [{ name: 'proxy', image: 'img', restartPolicy: 'Always' }] });
    const h = new Harness({ variant: 'current', pods: [pod], behaviour: { side: { proxy: [attempt('forever', 0, 1000)], main: [attempt(5000, 0)] } } });
    h.run(30_000);
    expect(h.starts('side', 'proxy').map(s)).toEqual([0]);
    expect(h.starts('side', 'main').map(s)).toEqual([1]);
    const proxyExit = h.tracer.of('runtime.exit', 'default/side').find((r) => r.container === 'proxy')!;
    expect(proxyExit).toMatchObject({ exitCode: 143 });
    expect(s(proxyExit.t)).toBe(7); // main dies at 6, noticed at 6 (KillPod), SIGTERM → exits 1 s later
    expect(h.apiPod('side')?.status?.phase).toBe('Succeeded');
  });

  it('a shorter grace period does not interrupt the kill in flight: SIGKILL at the original deadline (SyncTerminatingPod ignores the worker context)', () => {
    const h = new Harness({ variant: 'current', pods: [simplePod('svc', 'Always')], behaviour: { svc: { main: [attempt('forever', 0, 'ignore')] } } });
    h.at(10_000, () => h.api.delete('default', 'svc', { gracePeriodSeconds: 60 }, 'user'));
    h.at(20_000, () => h.api.delete('default', 'svc', { gracePeriodSeconds: 5 }, 'user'));
    let at30: { exists: boolean; gracePeriod?: number } | undefined;
    h.at(30_000, () => (at30 = { exists: h.apiPod('svc') !== undefined, gracePeriod: h.node.workersCurrent!.status('uid-svc')?.gracePeriod }));
    h.run(120_000);
    const kills = h.tracer.of('runtime.kill', 'default/svc');
    expect(kills.map((k) => k.signal)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(kills[0].timeoutSeconds).toBe(60);
    expect(kills[1].t).toBe(70_001); // SIGTERM at 10.001 s + 60 s, not 25 s
    // the shorter grace is recorded, the pod is still there past its shortened deadline
    expect(at30).toEqual({ exists: true, gracePeriod: 5 });
    expect(h.apiPod('svc')).toBeUndefined();
  });
});

describe('Node, classic generation only', () => {
  it('a shorter grace period does not reach the kill in flight (v1.20 has no cancellation): SIGKILL at the original deadline', () => {
    const h = new Harness({ variant: 'classic', pods: [simplePod('svc', 'Always')], behaviour: { svc: { main: [attempt('forever', 0, 'ignore')] } } });
    h.at(10_000, () => h.api.delete('default', 'svc', { gracePeriodSeconds: 60 }, 'user'));
    h.at(20_000, () => h.api.delete('default', 'svc', { gracePeriodSeconds: 5 }, 'user'));
    h.run(120_000);
    const kills = h.tracer.of('runtime.kill', 'default/svc');
    expect(kills.map((k) => k.signal)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(kills[1].t).toBe(70_001);
    expect(h.apiPod('svc')).toBeUndefined();
  });

  it('PodResourcesAreReclaimed (v1.20): nothing running per the status, and no container, exited ones too, in the PLEG cache', () => {
    const h = new Harness({ variant: 'classic', pods: [simplePod('web', 'Always')] });
    h.run(3_000);
    const pod = h.apiPod('web')!;
    expect(h.node.deletionSafety.podResourcesAreReclaimed(pod, {})).toBe(false); // the cache lists the running container
    h.at(4_000, () => h.runtime.exit('uid-web', 'main', 0));
    h.at(4_000, () => h.stopKubelet());
    h.run(5_000);
    // the container exited, but nothing removed it: the (last) relist still lists it
    expect(h.runtime.hasRunningContainers('uid-web')).toBe(false);
    expect(h.node.deletionSafety.podResourcesAreReclaimed(pod, {})).toBe(false);
  });

  it('dispatchWork (v1.20): once the cached phase is terminal nothing is dispatched, even while containers run (#98718)', () => {
    const h = new Harness({ variant: 'classic', pods: [simplePod('job', 'Never')] });
    // a deadline handler's verdict, while the container still runs
    h.at(11_000, () => h.sm.setPodStatus(h.pm.getPodByUID('uid-job')!, { ...h.sm.getPodStatus('uid-job')!, phase: 'Failed', reason: 'DeadlineExceeded' }));
    h.run(40_000);
    // housekeeping's pod killer stops the no-longer-desired pod; its death syncs nothing
    const exit = h.tracer.of('runtime.exit', 'default/job');
    expect(exit.map((r) => [s(r.t), r.exitCode])).toEqual([[12, 143]]);
    expect(h.tracer.of('worker.sync', 'default/job').filter((r) => r.t > 11_000)).toEqual([]);
    const died = h.tracer.of('pleg.event', 'default/job').filter((r) => r.event === 'ContainerDied');
    expect(died.map((r) => s(r.t))).toEqual([13]); // the first relist after the exit
    expect(h.tracer.logs.filter((l) => l.msg.startsWith('Pod has completed, ignoring remaining sync work')).map((l) => s(l.t))).toEqual([13]);
    // the apiserver keeps the stale running container in the Failed pod
    const st = h.apiPod('job')!.status!;
    expect(st.phase).toBe('Failed');
    expect(st.containerStatuses?.[0].state?.running).toBeDefined();
  });

  it('the container deletor removes a deleted pod\'s exited containers on ContainerDied; the next relist clears the cache and the next batch deletes the pod', () => {
    const h = new Harness({ variant: 'classic', pods: [simplePod('web', 'Always'), simplePod('crash', 'Always')], behaviour: { crash: { main: [attempt(2_000, 1)] } } });
    h.at(10_000, () => h.api.delete('default', 'web', {}, 'user'));
    const seen: Record<string, { reclaimed: boolean; inRuntime: number; inCache: number; exists: boolean }> = {};
    const look = (label: string) => () => {
      const pod = h.apiPod('web') ?? h.pm.getPodByUID('uid-web')!;
      seen[label] = {
        reclaimed: h.node.deletionSafety.podResourcesAreReclaimed(pod, h.sm.getPodStatus('uid-web') ?? {}),
        inRuntime: h.runtime.containersOf('uid-web').length,
        inCache: h.node.cache.get('uid-web').containers.length,
        exists: h.apiPod('web') !== undefined,
      };
    };
    // SIGTERM at 10.001 s, exit at once (143); the 11 s relist sees the death: sync, and the deletor removes the container
    h.at(11_500, look('11.5'));
    h.at(12_500, look('12.5'));
    h.at(19_999, look('19.999'));
    h.run(30_000);
    expect(seen['11.5']).toEqual({ reclaimed: false, inRuntime: 0, inCache: 1, exists: true });
    expect(seen['12.5']).toEqual({ reclaimed: true, inRuntime: 0, inCache: 0, exists: true });
    expect(seen['19.999']).toMatchObject({ reclaimed: true, exists: true });
    const removed = h.tracer.of('runtime.remove', 'default/web');
    expect(removed.map((r) => s(r.t))).toEqual([11]);
    expect(h.tracer.of('pleg.event', 'default/web').filter((r) => r.event === 'ContainerRemoved').map((r) => s(r.t))).toEqual([12]);
    // the status manager's 20 s batch: canBeDeleted now holds
    const del = h.tracer.of('api.delete', 'default/web').filter((r) => r.actor === 'kubelet');
    expect(del.length).toBe(1);
    expect(del[0].t).toBeGreaterThanOrEqual(20_000);
    expect(del[0].t).toBeLessThan(20_010);
    expect(h.apiPod('web')).toBeUndefined();
    // a live pod's dead containers: the deletor keeps the newest dead instance of the container
    const crashRemoved = h.tracer.of('runtime.remove', 'default/crash');
    expect(crashRemoved.map((r) => r.attempt)).toEqual(crashRemoved.map((_, i) => i));
    expect(h.runtime.containersOf('uid-crash').filter((c) => c.state === 'exited').length).toBe(1);
    expect(crashRemoved.length).toBeGreaterThan(0);
  });
});

describe('determinism', () => {
  it('the same run twice gives the same trace', () => {
    const run = () => {
      const h = new Harness({
        variant: 'current',
        pods: [simplePod('a', 'Always'), simplePod('b', 'OnFailure'), simplePod('c', 'Never')],
        behaviour: { a: { main: [attempt(2500, 1)] }, b: { main: [attempt(1200, 1), attempt(700, 0)] }, c: { main: [attempt(4000, 0)] } },
      });
      h.at(30_000, () => h.api.delete('default', 'a', {}, 'user'));
      h.run(120_000);
      return JSON.stringify(h.tracer.records);
    };
    expect(run()).toBe(run());
  });
});

describe.each(VARIANTS)('Node housekeeping (%s)', (variant) => {
  it('after a kubelet restart, a running pod that is no longer in config is stopped', () => {
    const h = new Harness({ variant, pods: [simplePod('gone', 'Always')] });
    h.at(5_000, () => h.stopKubelet());
    h.at(6_000, () => h.api.delete('default', 'gone', { gracePeriodSeconds: 0 }, 'user'));
    h.at(8_000, () => h.startKubelet());
    h.run(20_000);
    expect(h.apiPod('gone')).toBeUndefined();
    const kill = h.tracer.of('runtime.kill', 'default/gone');
    expect(kill.length).toBe(1);
    expect(s(kill[0].t)).toBe(10); // the new kubelet's first housekeeping
    // current: SyncTerminatingRuntimePod's grace 1 s, raised to the 2 s minimum; classic: the pod killer uses the spec grace
    expect(kill[0].timeoutSeconds).toBe(variant === 'current' ? 2 : 30);
    expect(h.runtime.hasRunningContainers('uid-gone')).toBe(false);
  });
});

describe.each(VARIANTS)('Node and the runtime across a kubelet restart (%s)', (variant) => {
  it('a stop in flight loses its SIGKILL when the kubelet dies; the next kubelet stops the container again', () => {
    const h = new Harness({ variant, pods: [simplePod('svc', 'Always')], behaviour: { svc: { main: [attempt('forever', 0, 'ignore')] } } });
    h.at(10_000, () => h.api.delete('default', 'svc', {}, 'user'));
    h.at(20_000, () => h.stopKubelet());
    h.at(25_000, () => h.startKubelet());
    h.run(120_000);
    const kills = h.tracer.of('runtime.kill', 'default/svc');
    expect(kills.map((k) => [s(k.t), k.signal])).toEqual([
      [10.001, 'SIGTERM'],
      [25, 'SIGTERM'],
      [55, 'SIGKILL'],
    ]);
    expect(h.tracer.of('runtime.exit', 'default/svc')[0]).toMatchObject({ exitCode: 137 });
    expect(h.apiPod('svc')).toBeUndefined();
  });
});

describe('Node, current: cancellation', () => {
  it('a sync taken before a deletion still runs in full (SyncPod checks no ctx.Err()); the deletion is the next update', () => {
    const h = new Harness({ variant: 'current', pods: [simplePod('crash', 'Always')], behaviour: { crash: { main: [attempt(5000, 1)] } } });
    // the container dies at 5 s and is restarted at once; at 5.5 s a config update (a label) queues a
    // sync, which waits for the relist at 6 s; the delete lands at 5.8 s, before that relist
    h.at(5_500, () => h.node.podUpdated({ ...h.pm.getPodByUID('uid-crash')!, metadata: { ...h.pm.getPodByUID('uid-crash')!.metadata, labels: { x: 'y' } } }));
    h.at(5_800, () => h.api.delete('default', 'crash', { gracePeriodSeconds: 10 }, 'user'));
    h.run(30_000);
    expect(h.starts('crash').map(s)).toEqual([0, 5]);
    expect(h.tracer.logs.filter((l) => l.msg === 'Sync exited with context cancellation error')).toEqual([]);
    // the sync at 6 s (the labelled pod, no deletionTimestamp), then the termination
    const syncs = h.tracer.of('worker.sync', 'default/crash').filter((r) => s(r.t) === 6);
    expect(syncs.length).toBe(1);
    expect(h.tracer.of('worker.terminating', 'default/crash').map((r) => s(r.t))).toEqual([7]);
    expect(h.apiPod('crash')).toBeUndefined();
  });
});
