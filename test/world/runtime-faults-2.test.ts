// The runtime faults of the bug zoo as timeline steps, continued: interruptStart (a container
// created but never started), dropPlegEvent (a PLEG event discarded on its way to the sync loop)
// and gcContainers (the container GC, also while the kubelet is down).
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';

function run(body: string, kubelet = '{ statusManager: current }') {
  const text = `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: faults }\nspec:\n  kubelet: ${kubelet}\n${body}`;
  const loaded = loadScenario(text);
  if (!loaded.ok) throw new Error(loaded.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join('\n'));
  return runScenario(loaded.scenario, { keepTrace: true });
}
const of = (r: ReturnType<typeof run>, type: string) => r.trace.filter((e) => e.type === type);
type Rec = ReturnType<typeof run>['trace'][number];
const stored = (e: Rec) => (e.stored as { status?: { phase?: string; containerStatuses?: Array<{ state?: Record<string, unknown> }> } } | undefined)?.status;

describe('interruptStart', () => {
  it('the start fails with RunContainerError, the container stays created: Waiting, and started on the next sync', () => {
    const r = run(`  until: 30s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 0s, interruptStart: { pod: web, container: main } }
`);
    expect(of(r, 'runtime.startFailed')).toMatchObject([{ t: 0, container: 'main', reason: 'RunContainerError', message: 'context deadline exceeded' }]);
    // a created container is reported ContainerChanged by the relist, which never reaches the sync loop
    const changed = of(r, 'pleg.event').filter((e) => e.event === 'ContainerChanged');
    expect(changed.length).toBe(1);
    // the next start (the pod worker's back-off retry) is a new instance, restart count 1, and runs
    const starts = of(r, 'runtime.start');
    expect(starts).toMatchObject([{ container: 'main', attempt: 1 }]);
    expect(starts[0].t).toBeGreaterThan(0);
    // before it, the apiserver never saw the created container as anything but waiting
    const patches = of(r, 'api.patch').filter((e) => e.actor === 'kubelet' && e.t < starts[0].t);
    for (const p of patches) expect(Object.keys(stored(p)?.containerStatuses?.[0]?.state ?? {})).toEqual(['waiting']);
  });

  it('with createdCountsAsExited reverted, the created container is terminated exit 0 at the Unix epoch', () => {
    const r = run(
      `  until: 10s
  pods:
    - metadata: { name: job }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
  timeline:
    - { at: 0s, interruptStart: { pod: job, container: main } }
    - { at: 2s, delete: { pod: job } }
`,
      '{ statusManager: transitional, revertFixes: [createdCountsAsExited] }',
    );
    const last = of(r, 'api.patch').filter((e) => e.actor === 'kubelet').pop()!;
    expect(stored(last)).toMatchObject({ phase: 'Succeeded', containerStatuses: [{ state: { terminated: { exitCode: 0, startedAt: '1970-01-01T00:00:00Z' } } }] });
    expect(of(r, 'invariant.violation').map((e) => e.invariant)).toEqual(['terminated-container-started']);
  });
});

describe('dropPlegEvent', () => {
  it('the event is traced dropped and triggers no sync; the next event brings the cached state in', () => {
    const r = run(`  until: 20s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: a, image: nginx }, { name: b, image: nginx }] }
  timeline:
    - { at: 3s, dropPlegEvent: { pod: web, container: a } }
    - { at: 4s, exit: { pod: web, container: a, code: 1 } }
    - { at: 8s, exit: { pod: web, container: b, code: 1 } }
`);
    const died = of(r, 'pleg.event').filter((e) => e.event === 'ContainerDied');
    expect(died.map((e) => [e.t, e.container, e.dropped ?? false])).toEqual([
      [4000, 'a', true],
      [8000, 'b', false],
    ]);
    // no sync between a's death and b's: the worker synced at 8 s, and a's exit rode along
    expect(of(r, 'worker.sync').filter((e) => e.t > 4000 && e.t < 8000)).toEqual([]);
    const sets = of(r, 'status.set').filter((e) => e.t >= 4000);
    expect(sets[0].t).toBe(8000);
    // a restarts (Always) only once its death is seen
    expect(of(r, 'runtime.start').filter((e) => e.container === 'a').map((e) => e.t)).toEqual([0, 8000]);
  });

  it('needs the kubelet up', () => {
    const r = run(`  until: 10s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: a, image: nginx }] }
  timeline:
    - { at: 1s, restartKubelet: { downFor: 5s } }
    - { at: 2s, dropPlegEvent: { pod: web } }
`);
    expect(r.stepErrors.map((e) => e.message)).toEqual(['the kubelet is down at 2000ms (restartKubelet downFor): dropPlegEvent cannot run']);
  });
});

describe('gcContainers', () => {
  it('removes the dead instances only (running ones stay), also while the kubelet is down', () => {
    const r = run(`  until: 30s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
      x-kss: { containers: { main: [{ run: 2s, exit: 1 }, { run: forever }] } }
  timeline:
    - { at: 5s, restartKubelet: { downFor: 5s } }
    - { at: 6s, gcContainers: {} }
`);
    const removed = of(r, 'runtime.remove');
    expect(removed).toMatchObject([{ t: 6000, container: 'main', attempt: 0 }]);
    // the restarted kubelet sees only the running instance: its status has no lastState of attempt 0
    const after = of(r, 'api.patch').filter((e) => e.actor === 'kubelet' && e.t > 10_000);
    for (const p of after) expect((stored(p)?.containerStatuses?.[0] as { lastState?: object } | undefined)?.lastState ?? {}).toEqual({});
  });

  it('names a pod and a container, or refuses a pod nobody knows', () => {
    const r = run(`  until: 10s
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: a, image: nginx }] }
  timeline:
    - { at: 1s, gcContainers: { pod: web, container: a } }
`);
    expect(r.stepErrors).toEqual([]);
    expect(of(r, 'runtime.remove')).toEqual([]);
  });
});
