import { describe, expect, it } from 'vitest';
import { generateAPIPodStatus, type GenerateContext } from '../../../src/kubelet/node/api-status.js';
import { ProbeManager } from '../../../src/kubelet/node/prober.js';
import type { RuntimeContainerStatus, RuntimePodStatus } from '../../../src/kubelet/node/types.js';
import type { Pod, PodCondition, PodStatus } from '../../../src/model/pod.js';
import { VClock } from '../../../src/model/time.js';

const clock = new VClock({ nowMs: 0 });
const at = (ms: number) => clock.at(ms);

function ctx(gen: 'classic' | 'current', extra: Partial<GenerateContext> = {}): GenerateContext {
  return { gen, at, prober: new ProbeManager(gen), ...extra };
}

function pod(extra: Partial<NonNullable<Pod['spec']>> = {}, status: PodStatus = { phase: 'Pending' }): Pod {
  return {
    metadata: { name: 'p', namespace: 'default', uid: 'u' },
    spec: { restartPolicy: 'Always', containers: [{ name: 'main', image: 'img' }], ...extra },
    status,
  };
}

function rc(name: string, id: string, state: RuntimeContainerStatus['state'], o: Partial<RuntimeContainerStatus> = {}): RuntimeContainerStatus {
  return { id: `containerd://${id}`, name, state, createdAtMs: 0, startedAtMs: 1_000, restartCount: 0, image: 'img', imageRef: '', ...o };
}

function rt(containers: RuntimeContainerStatus[], sandboxReady = true): RuntimePodStatus {
  return { uid: 'u', name: 'p', namespace: 'default', sandbox: { id: 'sb', attempt: 0, ready: sandboxReady }, containers };
}

const cond = (s: PodStatus, type: string): PodCondition | undefined => s.conditions?.find((c) => c.type === type);

describe('generateAPIPodStatus, classic', () => {
  it('a running container without probes: Running, started and ready, all conditions True', () => {
    const s = generateAPIPodStatus(pod(), rt([rc('main', 'a', 'running')]), false, ctx('classic'));
    expect(s.phase).toBe('Running');
    expect(s.qosClass).toBe('BestEffort');
    expect(s.containerStatuses).toEqual([
      { name: 'main', state: { running: { startedAt: '2026-01-01T00:00:01Z' } }, lastState: {}, ready: true, restartCount: 0, image: 'img', imageID: '', containerID: 'containerd://a', started: true },
    ]);
    expect(s.conditions!.map((c) => `${c.type}=${c.status}`)).toEqual(['Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    expect(s.conditions!.every((c) => c.lastTransitionTime === undefined)).toBe(true);
  });

  it('nothing in the runtime yet: waiting ContainerCreating, Pending', () => {
    const s = generateAPIPodStatus(pod(), rt([], false), false, ctx('classic'));
    expect(s.phase).toBe('Pending');
    expect(s.containerStatuses![0].state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(cond(s, 'ContainersReady')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [main]' });
  });

  it('a readiness probe without a result keeps the container unready', () => {
    const p = pod({ containers: [{ name: 'main', image: 'img', readinessProbe: { exec: { command: ['true'] } } }] });
    const prober = new ProbeManager('classic');
    const s1 = generateAPIPodStatus(p, rt([rc('main', 'a', 'running')]), false, ctx('classic', { prober }));
    expect(s1.containerStatuses![0]).toMatchObject({ ready: false, started: true });
    expect(cond(s1, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
    prober.set('readiness', 'u', 'containerd://a', true);
    const s2 = generateAPIPodStatus(p, rt([rc('main', 'a', 'running')]), false, ctx('classic', { prober }));
    expect(s2.containerStatuses![0].ready).toBe(true);
    expect(cond(s2, 'Ready')?.status).toBe('True');
  });

  it('the previous instance becomes lastState; the reason cache makes a restarting container wait', () => {
    const dead = rc('main', 'b', 'exited', { restartCount: 1, startedAtMs: 20_000, finishedAtMs: 25_000, exitCode: 1, reason: 'Error' });
    const older = rc('main', 'a', 'exited', { restartCount: 0, startedAtMs: 0, finishedAtMs: 5_000, exitCode: 1, reason: 'Error' });
    const plain = generateAPIPodStatus(pod(), rt([dead, older]), false, ctx('classic'));
    expect(plain.containerStatuses![0]).toMatchObject({
      restartCount: 1,
      state: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:00:20Z', finishedAt: '2026-01-01T00:00:25Z', containerID: 'containerd://b' } },
      lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:00:05Z' } },
    });
    const withReason = generateAPIPodStatus(pod(), rt([dead, older]), false, ctx('classic', { reasonFor: () => ({ reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=main pod=p_default(u)' }) }));
    const cs = withReason.containerStatuses![0];
    expect(cs.state).toEqual({ waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=main pod=p_default(u)' } });
    expect(cs.lastState?.terminated?.finishedAt).toBe('2026-01-01T00:00:25Z');
    expect(withReason.phase).toBe('Running');
  });

  it('a container that will not be restarted keeps its terminated state (Never)', () => {
    const dead = rc('main', 'a', 'exited', { finishedAtMs: 5_000, exitCode: 0, reason: 'Completed' });
    const s = generateAPIPodStatus(pod({ restartPolicy: 'Never' }), rt([dead]), false, ctx('classic', { reasonFor: () => ({ reason: 'CrashLoopBackOff', message: 'x' }) }));
    expect(s.containerStatuses![0].state?.terminated?.reason).toBe('Completed');
    expect(s.phase).toBe('Succeeded');
    expect(cond(s, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  it('an API terminal phase is never left, and the attempt is logged', () => {
    const logs: string[] = [];
    const s = generateAPIPodStatus(pod({}, { phase: 'Succeeded' }), rt([rc('main', 'a', 'running')]), false, ctx('classic', { log: (m) => logs.push(m) }));
    expect(s.phase).toBe('Succeeded');
    expect(logs).toEqual(['Pod attempted illegal phase transition from Succeeded to Running']);
  });

  it('keeps non-kubelet conditions of the API status and regenerates the kubelet’s', () => {
    const api: PodStatus = { phase: 'Running', conditions: [{ type: 'example.com/gate', status: 'True' }, { type: 'Ready', status: 'True' }] };
    const s = generateAPIPodStatus(pod({ readinessGates: [{ conditionType: 'example.com/gate' }] }, api), rt([rc('main', 'a', 'running')]), false, ctx('classic'));
    expect(s.conditions!.map((c) => c.type)).toEqual(['example.com/gate', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    expect(cond(s, 'Ready')?.status).toBe('True');
  });

  it('init containers: PodInitializing for the regular ones, init ready once exited 0', () => {
    const p = pod({ initContainers: [{ name: 'init', image: 'img' }] });
    const s1 = generateAPIPodStatus(p, rt([rc('init', 'i', 'running')]), false, ctx('classic'));
    expect(s1.phase).toBe('Pending');
    expect(s1.containerStatuses![0].state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(cond(s1, 'Initialized')).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [init]' });
    const s2 = generateAPIPodStatus(p, rt([rc('main', 'a', 'running'), rc('init', 'i', 'exited', { exitCode: 0, finishedAtMs: 2_000 })]), false, ctx('classic'));
    expect(s2.initContainerStatuses![0].ready).toBe(true);
    expect(cond(s2, 'Initialized')?.status).toBe('True');
    expect(s2.phase).toBe('Running');
  });

  it('a previous terminated status is kept when the runtime lost the container', () => {
    const cached: PodStatus = {
      phase: 'Failed',
      containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'img', imageID: '', state: { terminated: { exitCode: 3, reason: 'Error' } } }],
    };
    const s = generateAPIPodStatus(pod({ restartPolicy: 'Never' }), rt([], false), false, ctx('classic', { cachedStatus: cached }));
    expect(s.containerStatuses![0].state?.terminated?.exitCode).toBe(3);
    expect(s.phase).toBe('Failed');
  });
});

describe('generateAPIPodStatus, current', () => {
  it('PodReadyToStartContainers follows the sandbox, ahead of the other conditions', () => {
    const s1 = generateAPIPodStatus(pod(), rt([], false), false, ctx('current'));
    expect(s1.conditions!.map((c) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=False', 'Initialized=True', 'Ready=False', 'ContainersReady=False', 'PodScheduled=True']);
    const s2 = generateAPIPodStatus(pod(), rt([rc('main', 'a', 'running')]), false, ctx('current'));
    expect(cond(s2, 'PodReadyToStartContainers')?.status).toBe('True');
    const off = generateAPIPodStatus(pod(), rt([rc('main', 'a', 'running')]), false, ctx('current', { gates: { PodReadyToStartContainersCondition: false } }));
    expect(cond(off, 'PodReadyToStartContainers')).toBeUndefined();
  });

  it('podIsTerminal turns an Always pod whose containers all stopped into Succeeded / Failed', () => {
    const ok = rc('main', 'a', 'exited', { exitCode: 0, finishedAtMs: 9_000, reason: 'Completed' });
    expect(generateAPIPodStatus(pod(), rt([ok]), false, ctx('current')).phase).toBe('Running');
    const s = generateAPIPodStatus(pod(), rt([ok]), true, ctx('current'));
    expect(s.phase).toBe('Succeeded');
    expect(cond(s, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    const killed = rc('main', 'a', 'exited', { exitCode: 137, finishedAtMs: 9_000, reason: 'Error' });
    const f = generateAPIPodStatus(pod(), rt([killed]), true, ctx('current'));
    expect(f.phase).toBe('Failed');
    expect(cond(f, 'ContainersReady')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });

  it('a terminal cached phase wins over a non-terminal new one, with its reason and message', () => {
    const cached: PodStatus = { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' };
    const s = generateAPIPodStatus(pod(), rt([rc('main', 'a', 'running')]), false, ctx('current', { cachedStatus: cached }));
    expect(s).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' });
  });

  it('a terminal API phase wins when the cache has none; reason/message fall back to the API', () => {
    const api: PodStatus = { phase: 'Succeeded', reason: 'Done' };
    const s = generateAPIPodStatus(pod({}, api), rt([rc('main', 'a', 'running')]), false, ctx('current', { cachedStatus: { phase: 'Running' } }));
    expect(s.phase).toBe('Succeeded');
    expect(s.reason).toBeUndefined(); // the phase changed from the cached one
    const s2 = generateAPIPodStatus(pod({}, api), rt([rc('main', 'a', 'running')]), false, ctx('current', { cachedStatus: { phase: 'Succeeded' } }));
    expect(s2.reason).toBe('Done');
  });

  it('carries DisruptionTarget from the cache', () => {
    const cached: PodStatus = { phase: 'Running', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' }] };
    const s = generateAPIPodStatus(pod(), rt([rc('main', 'a', 'running')]), false, ctx('current', { cachedStatus: cached }));
    expect(s.conditions![0]).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' });
  });

  it('sidecars: started from the startup probe, ready like a regular container, counted for ContainersReady', () => {
    const p = pod({
      initContainers: [{ name: 'proxy', image: 'img', restartPolicy: 'Always', startupProbe: { exec: { command: ['true'] } } }],
    });
    const prober = new ProbeManager('current', { SidecarContainers: true });
    const statuses = rt([rc('proxy', 's', 'running')]);
    const s1 = generateAPIPodStatus(p, statuses, false, ctx('current', { prober }));
    expect(s1.initContainerStatuses![0]).toMatchObject({ started: false, ready: false });
    expect(s1.phase).toBe('Pending');
    expect(cond(s1, 'Initialized')).toMatchObject({ status: 'False', message: 'containers with incomplete status: [proxy]' });
    prober.set('startup', 'u', 'containerd://s', true);
    const s2 = generateAPIPodStatus(p, rt([rc('main', 'a', 'running'), rc('proxy', 's', 'running')]), false, ctx('current', { prober }));
    expect(s2.initContainerStatuses![0]).toMatchObject({ started: true, ready: true });
    expect(s2.phase).toBe('Running');
    expect(cond(s2, 'ContainersReady')?.status).toBe('True');
  });
});

describe('status.volumeMounts (RecursiveReadOnlyMounts, v1.30+: current)', () => {
  const mounts = [
    { name: 'config', mountPath: '/etc/app', readOnly: true },
    { name: 'cache', mountPath: '/cache' },
    { name: 'tls', mountPath: '/tls', readOnly: true, recursiveReadOnly: 'IfPossible' },
  ];
  const withMounts = () => pod({ containers: [{ name: 'main', image: 'img', volumeMounts: mounts }] });
  const want = [
    { name: 'config', mountPath: '/etc/app', readOnly: true, recursiveReadOnly: 'Disabled' },
    { name: 'cache', mountPath: '/cache' },
    { name: 'tls', mountPath: '/tls', readOnly: true, recursiveReadOnly: 'Disabled' },
  ];

  it('the default status lists the spec\'s mounts; a converted instance carries the previous status\'s over', () => {
    const first = generateAPIPodStatus(withMounts(), rt([]), false, ctx('current'));
    expect(first.containerStatuses![0].volumeMounts).toEqual(want);
    const running = generateAPIPodStatus(withMounts(), rt([rc('main', 'a', 'running')]), false, ctx('current', { cachedStatus: first }));
    expect(running.containerStatuses![0].volumeMounts).toEqual(want);
    // (immutable: an instance converted with no previous status has none, as upstream's has)
    expect(generateAPIPodStatus(withMounts(), rt([rc('main', 'a', 'running')]), false, ctx('current')).containerStatuses![0].volumeMounts).toBeUndefined();
  });

  it('not with the gate off, nor in classic (its releases predate the gate)', () => {
    const off = generateAPIPodStatus(withMounts(), rt([]), false, ctx('current', { gates: { RecursiveReadOnlyMounts: false } }));
    expect(off.containerStatuses![0].volumeMounts).toBeUndefined();
    expect(generateAPIPodStatus(withMounts(), rt([]), false, ctx('classic')).containerStatuses![0].volumeMounts).toBeUndefined();
  });

  it('resolveRecursiveReadOnly: Enabled only where the runtime supports it; impossible modes are errors (reported Disabled)', async () => {
    const { resolveRecursiveReadOnly, volumeMountStatuses } = await import('../../../src/kubelet/node/volume-mount-status.js');
    const m = (o: object) => ({ name: 'v', mountPath: '/v', ...o });
    expect(resolveRecursiveReadOnly(m({ readOnly: true, recursiveReadOnly: 'IfPossible' }), true)).toEqual({ rro: true });
    expect(resolveRecursiveReadOnly(m({ readOnly: true, recursiveReadOnly: 'Enabled' }), false).err).toContain('not supported by the runtime');
    expect(resolveRecursiveReadOnly(m({ recursiveReadOnly: 'Enabled' }), true).err).toContain('it is not read-only');
    expect(resolveRecursiveReadOnly(m({ readOnly: true, recursiveReadOnly: 'Enabled', mountPropagation: 'HostToContainer' }), true).err).toContain('propagation "HostToContainer"');
    expect(volumeMountStatuses({ name: 'c', volumeMounts: [m({ readOnly: true, recursiveReadOnly: 'Enabled' })] }, true)).toEqual([{ name: 'v', mountPath: '/v', readOnly: true, recursiveReadOnly: 'Enabled' }]);
    expect(volumeMountStatuses({ name: 'c' })).toBeUndefined();
  });
});

describe('a hostNetwork pod\'s IPs', () => {
  it('are the node\'s from the first status on (its sandbox has none), in every generation', () => {
    for (const gen of ['classic', 'current'] as const) {
      const host = pod({ hostNetwork: true });
      const first = generateAPIPodStatus(host, rt([]), false, ctx(gen));
      expect([first.podIP, first.podIPs]).toEqual(['192.168.0.10', [{ ip: '192.168.0.10' }]]);
      const sandboxUp = { ...rt([rc('main', 'a', 'running')]), sandbox: { id: 'sb', attempt: 0, ready: true, ip: '' } };
      expect(generateAPIPodStatus(host, sandboxUp, false, ctx(gen)).podIP).toBe('192.168.0.10');
      // (a pod network pod has no IP before its sandbox)
      expect(generateAPIPodStatus(pod(), rt([]), false, ctx(gen)).podIP).toBeUndefined();
    }
  });
});
