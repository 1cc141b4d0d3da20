// Probe workers (timing, thresholds, liveness kills), the active-deadline handler, the container
// deletor's keep-one rule, start failures and preStop grace, on the simulated node.
import { describe, expect, it } from 'vitest';
import { pastActiveDeadline } from '../../../src/kubelet/node/active-deadline.js';
import { graceAfterPreStop } from '../../../src/kubelet/node/grace.js';
import { applyDefaultImageTag } from '../../../src/kubelet/node/kuberuntime-container.js';
import { getContainersToDeleteInPod } from '../../../src/kubelet/node/pod-container-deletor.js';
import type { RuntimeContainerStatus } from '../../../src/kubelet/node/types.js';
import { Harness, attempt, simplePod } from './harness.js';

const s = (ms: number) => ms / 1000;

describe.each(['classic', 'current'] as const)('probe workers (%s)', (variant) => {
  it('readiness: nothing before initialDelaySeconds; successThreshold needs that many runs a period apart', () => {
    const probe = { httpGet: { port: 80 }, periodSeconds: 2, initialDelaySeconds: 7, successThreshold: 2 };
    const pod = simplePod('web', 'Always', { containers: [{ name: 'main', image: 'img', readinessProbe: probe }] });
    const h = new Harness({ variant, pods: [pod], behaviour: { web: { main: [attempt('forever', 0, 0, { ready: true })] } } });
    h.run(30_000);
    const results = h.tracer.of('probe.result', 'default/web');
    const success = results.filter((r) => r.result === true);
    expect(success.length).toBe(1);
    // first counted run at the first tick at or after 7 s, the second a period (2 s) later
    expect(s(success[0].t)).toBeGreaterThanOrEqual(9);
    expect(s(success[0].t)).toBeLessThan(11);
    expect(results[0].result).toBe(false); // the initial Failure
    expect(h.sm.getPodStatus('uid-web')?.containerStatuses?.[0].ready).toBe(true);
  });

  it('liveness: failureThreshold failures kill the container, which restarts (Always)', () => {
    const probe = { httpGet: { port: 80 }, periodSeconds: 1, failureThreshold: 3 };
    const pod = simplePod('web', 'Always', { containers: [{ name: 'main', image: 'img', livenessProbe: probe }] });
    const h = new Harness({ variant, pods: [pod], behaviour: { web: { main: [attempt('forever', 0, 0, { live: false }), attempt('forever', 0, 0, { live: true })] } } });
    h.run(30_000);
    const failed = h.tracer.of('probe.result', 'default/web').filter((r) => r.probe === 'liveness' && r.result === false);
    expect(failed.length).toBe(1);
    const kills = h.tracer.of('runtime.kill', 'default/web');
    expect(kills.map((k) => [k.t, k.signal, k.timeoutSeconds])).toEqual([[failed[0].t, 'SIGTERM', 30]]);
    expect(h.starts('web').length).toBe(2);
    expect(h.runtime.runningContainer('uid-web', 'main')?.restartCount).toBe(1);
  });

  it('after a kubelet restart the new readiness worker makes the running container ready again', () => {
    const pod = simplePod('web', 'Always', { containers: [{ name: 'main', image: 'img', readinessProbe: { httpGet: { port: 80 }, periodSeconds: 5 } }] });
    const h = new Harness({ variant, pods: [pod] });
    h.at(3_000, () => h.node.setReady('uid-web', 'main', true));
    h.run(10_000);
    expect(h.sm.getPodStatus('uid-web')?.containerStatuses?.[0].ready).toBe(true);
    h.stopKubelet();
    h.startKubelet();
    h.run(10_001);
    expect(h.sm.getPodStatus('uid-web')?.containerStatuses?.[0].ready ?? false).toBe(false);
    h.run(20_500);
    expect(h.sm.getPodStatus('uid-web')?.containerStatuses?.[0].ready).toBe(true);
    expect(h.starts('web').length).toBe(1);
  });
});

describe('activeDeadlineSeconds', () => {
  const pod = simplePod('job', 'Never', { activeDeadlineSeconds: 10 });
  const toVirtual = (t: string) => Date.parse(t) - Date.parse('2026-01-01T00:00:00Z');
  it('is past once that long has passed since the status startTime (none: never)', () => {
    const st = { startTime: '2026-01-01T00:00:05Z' };
    expect(pastActiveDeadline(pod, st, 14_999, toVirtual)).toBe(false);
    expect(pastActiveDeadline(pod, st, 15_000, toVirtual)).toBe(true);
    expect(pastActiveDeadline(pod, {}, 99_000, toVirtual)).toBe(false);
    expect(pastActiveDeadline(simplePod('x', 'Never'), st, 99_000, toVirtual)).toBe(false);
  });

  it.each(['classic', 'current'] as const)('%s: the pod ends Failed, DeadlineExceeded, its container stopped', (variant) => {
    const h = new Harness({ variant, pods: [pod] });
    h.run(30_000);
    const st = h.apiPod('job')!.status!;
    expect(st).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
    expect(h.tracer.of('runtime.kill', 'default/job').map((k) => s(k.t))).toEqual([10]);
    // classic never reports the exit; current does
    expect(st.containerStatuses?.[0].state?.terminated !== undefined).toBe(variant === 'current');
  });
});

describe('the container deletor', () => {
  const c = (id: string, name: string, created: number, state: 'exited' | 'running' = 'exited'): RuntimeContainerStatus => ({ id, name, state, createdAtMs: created, startedAtMs: created, restartCount: 0, image: 'i' });
  it('keeps the newest dead instance of the container that died, and no other container is touched', () => {
    const status = { uid: 'u', name: 'p', namespace: 'd', sandbox: null, containers: [c('a3', 'a', 30, 'running'), c('b1', 'b', 25), c('a2', 'a', 20), c('a1', 'a', 10), c('a0', 'a', 0)] };
    expect(getContainersToDeleteInPod('a2', status, 1)).toEqual(['a1', 'a0']);
    expect(getContainersToDeleteInPod('b1', status, 1)).toEqual([]);
    expect(getContainersToDeleteInPod('zz', status, 1)).toEqual([]);
  });
});

describe('start failures and grace', () => {
  it('applyDefaultImageTag', () => {
    expect(applyDefaultImageTag('nginx')).toBe('nginx:latest');
    expect(applyDefaultImageTag('nginx:1.25')).toBe('nginx:1.25');
    expect(applyDefaultImageTag('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(applyDefaultImageTag('app@sha256:abc')).toBe('app@sha256:abc');
  });

  it('graceAfterPreStop: the hook time out of the grace, 2 s floor; classic lets an override replace it', () => {
    const pod = simplePod('p', 'Always', { terminationGracePeriodSeconds: 10 });
    expect(graceAfterPreStop('classic', pod, undefined, 3)).toBe(7);
    expect(graceAfterPreStop('current', pod, undefined, 9)).toBe(2);
    expect(graceAfterPreStop('classic', pod, 5, 3)).toBe(5);
    expect(graceAfterPreStop('current', pod, 5, 3)).toBe(2);
  });

  it.each(['classic', 'current'] as const)('%s: ErrImagePull, then ImagePullBackOff while the pull back-off lasts', (variant) => {
    const h = new Harness({ variant, pods: [simplePod('p', 'Always')], behaviour: { p: { main: [attempt('forever', 0, 0, { startError: 'ErrImagePull' })] } } });
    h.run(75_000);
    const f = h.tracer.of('runtime.startFailed', 'default/p').map((r) => [s(r.t), r.reason]);
    expect(f.slice(0, 5)).toEqual([[0, 'ErrImagePull'], [10, 'ErrImagePull'], [20, 'ImagePullBackOff'], [30, 'ErrImagePull'], [40, 'ImagePullBackOff']]);
    expect(h.starts('p')).toEqual([]);
    expect(h.apiPod('p')?.status?.phase).toBe('Pending');
  });
});

describe('image references and IPs', () => {
  it('normalizeImageRef / imageRefOf follow docker/reference', async () => {
    const { normalizeImageRef, imageRefOf, podIPOf } = await import('../../../src/kubelet/node/image-ref.js');
    expect(normalizeImageRef('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImageRef('nginx:1.25')).toBe('docker.io/library/nginx:1.25');
    expect(normalizeImageRef('me/app')).toBe('docker.io/me/app:latest');
    expect(normalizeImageRef('quay.io/a/b')).toBe('quay.io/a/b:latest');
    expect(normalizeImageRef('localhost/app:v1')).toBe('localhost/app:v1');
    expect(normalizeImageRef('nginx@sha256:abc')).toBe('docker.io/library/nginx@sha256:abc');
    expect(imageRefOf('docker.io/library/nginx:1.25')).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(imageRefOf('docker.io/library/nginx:1.25')).toBe(imageRefOf('docker.io/library/nginx:1.25'));
    expect(podIPOf(0)).toBe('10.244.0.2');
  });
});
