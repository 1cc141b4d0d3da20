// The kubelet's own actors: the eviction manager's message and grace (eviction.ts) and the node
// shutdown manager's priority groups (nodeshutdown.ts), and both through runs.
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../../src/index.js';
import { groupByPriority, migrateConfig } from '../../../src/kubelet/node/nodeshutdown.js';
import type { Pod } from '../../../src/model/pod.js';

function run(body: string, variant?: 'classic' | 'transitional' | 'current') {
  const loaded = loadScenario(`apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n${body}`);
  if (!loaded.ok) throw new Error(loaded.issues[0].message);
  return runScenario(loaded.scenario, { keepTrace: true, variant });
}
const web = `  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
    - metadata: { name: crit }
      spec: { priority: 2000001000, containers: [{ name: main, image: nginx }] }
`;

describe('migrateConfig / groupByPriority', () => {
  it('splits shutdownGracePeriod into the regular and the critical group', () => {
    expect(migrateConfig({ gracePeriodSeconds: 30, criticalPodsGracePeriodSeconds: 10 })).toEqual([
      { priority: 0, shutdownGracePeriodSeconds: 20 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10 },
    ]);
    expect(migrateConfig({ gracePeriodSeconds: 0, criticalPodsGracePeriodSeconds: 0 })).toEqual([]);
    const pods = [{ spec: { priority: 2_000_001_000 } }, { spec: {} }] as unknown as Pod[];
    const groups = groupByPriority(migrateConfig({ gracePeriodSeconds: 30, criticalPodsGracePeriodSeconds: 10 }), pods);
    expect(groups.map((g) => g.pods.length)).toEqual([1, 1]);
    expect(groups[1].pods[0]).toBe(pods[0]);
  });
});

describe('the eviction manager', () => {
  it('current: Failed, Evicted, the message with the threshold, DisruptionTarget, a 1 s hard grace', () => {
    const r = run(`  until: 20s\n  kubelet: { statusManager: current }\n${web}  timeline:\n    - { at: 5s, evict: { pod: web, signal: nodefs.available, threshold: 10%, available: 5% } }\n`);
    expect(r.trace.filter((e) => e.type === 'kubelet.evict').map((e) => [e.gracePeriodSeconds, e.message])).toEqual([[1, 'The node was low on resource: ephemeral-storage. Threshold quantity: 10%, available: 5%. ']]);
    const st = r.world.apiserver.peek('default', 'web')!.status!;
    expect([st.phase, st.reason]).toEqual(['Failed', 'Evicted']);
    expect(st.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet' });
  });
  it('refuses a critical pod (a step error)', () => {
    const r = run(`  until: 10s\n  kubelet: { statusManager: current }\n${web}  timeline:\n    - { at: 5s, evict: { pod: crit, signal: memory.available } }\n`);
    expect(r.world.stepErrors.map((e) => e.message)).toEqual([expect.stringContaining('does not evict the critical pod')]);
  });
  it('classic: the bare status, no DisruptionTarget; a soft threshold takes maxPodGracePeriod', () => {
    const r = run(`  until: 20s\n  kubelet: { statusManager: classic }\n${web}  timeline:\n    - { at: 5s, evict: { pod: web, signal: memory.available, soft: true, maxPodGracePeriod: 7 } }\n`);
    expect(r.trace.find((e) => e.type === 'kubelet.evict')?.gracePeriodSeconds).toBe(7);
    expect(r.trace.find((e) => e.type === 'runtime.kill')).toMatchObject({ signal: 'SIGTERM', timeoutSeconds: 7 });
    const st = r.world.apiserver.peek('default', 'web')!.status!;
    expect([st.phase, st.reason, st.message]).toEqual(['Failed', 'Evicted', 'The node was low on resource: memory. ']);
    expect(st.conditions?.some((c) => c.type === 'DisruptionTarget') ?? false).toBe(false);
  });
});

describe('the node shutdown manager', () => {
  it('kills the regular pods, then the critical ones, releases the lock and powers off; nothing after', () => {
    const r = run(`  until: 60s\n  kubelet: { statusManager: current }\n${web}  timeline:\n    - { at: 5s, nodeShutdown: { gracePeriod: 30s, criticalPodsGracePeriod: 10s, powerOffDelay: 1s } }\n`);
    const kills = r.trace.filter((e) => e.type === 'runtime.kill' && e.signal === 'SIGTERM').map((e) => [e.pod, e.timeoutSeconds]);
    expect(kills).toEqual([['default/web', 20], ['default/crit', 10]]);
    expect(r.trace.filter((e) => e.type === 'node.shutdown').map((e) => [e.t, e.phase])).toEqual([[5000, 'begin'], [5000, 'releaseInhibitLock'], [6000, 'powerOff']]);
    expect(r.trace.filter((e) => e.t > 6000 && e.actor === 'kubelet')).toEqual([]);
    const st = r.world.apiserver.peek('default', 'web')!.status!;
    expect([st.phase, st.reason, st.message]).toEqual(['Failed', 'Terminated', 'Pod was terminated in response to imminent node shutdown.']);
  });
  it("classic (v1.20): every pod at once, the critical ones after the regular pods' whole period; the override as given, v1.20's words", () => {
    const pods = `  pods:\n    - metadata: { name: web }\n      spec: { terminationGracePeriodSeconds: 5, containers: [{ name: main, image: nginx }] }\n    - metadata: { name: crit }\n      spec: { priority: 2000001000, containers: [{ name: main, image: nginx }] }\n`;
    const r = run(`  until: 60s\n  kubelet: { statusManager: classic }\n${pods}  timeline:\n    - { at: 5s, nodeShutdown: { gracePeriod: 30s, criticalPodsGracePeriod: 10s } }\n`);
    const kills = r.trace.filter((e) => e.type === 'runtime.kill' && e.signal === 'SIGTERM').map((e) => [e.t, e.pod, e.timeoutSeconds]);
    // web: at once with the override 20 (not its own 5); crit: 20 s later, with 10
    expect(kills).toEqual([[5000, 'default/web', 20], [25000, 'default/crit', 10]]);
    expect(r.trace.filter((e) => e.type === 'node.shutdown').map((e) => e.phase)).toEqual(['begin', 'releaseInhibitLock', 'powerOff']);
    const st = r.world.apiserver.peek('default', 'web')!.status!;
    expect([st.phase, st.reason, st.message]).toEqual(['Failed', 'Shutdown', 'Node is shutting, evicting pods']);
  });
  it('logind stops waiting after gracePeriod when a pod does not stop', () => {
    const r = run(`  until: 60s\n  kubelet: { statusManager: current }\n  pods:\n    - metadata: { name: web }\n      spec: { terminationGracePeriodSeconds: 60, containers: [{ name: main, image: nginx }] }\n      x-kss: { containers: { main: [{ run: forever, term: ignore }] } }\n  timeline:\n    - { at: 5s, nodeShutdown: { gracePeriod: 30s, criticalPodsGracePeriod: 20s } }\n`);
    expect(r.trace.filter((e) => e.type === 'node.shutdown').map((e) => [e.t, e.phase, e.why])).toEqual([
      [5000, 'begin', undefined],
      [15000, 'releaseInhibitLock', undefined],
      [15000, 'powerOff', 'inhibitLockReleased'],
    ]);
  });
});

describe('the dead containers of an evicted pod (HandlePodReconcile, ShouldPodContentBeRemoved)', () => {
  const job = `  pods:
    - metadata: { name: job }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: 5s, exit: 0 }] } }
`;
  const removals = (r: ReturnType<typeof run>) => r.trace.filter((e) => e.type === 'runtime.remove').map((e) => [e.t, e.container]);

  it.each(['classic', 'transitional', 'current'] as const)('%s: a status-only update that says Evicted removes the dead containers the pod cache holds; another reason does not', (g) => {
    const patch = (reason: string) => run(`  until: 30s\n  kubelet: { statusManager: ${g} }\n${job}  timeline:\n    - { at: 10s, externalPatch: { pod: job, status: { phase: Failed, reason: ${reason}, message: gone } } }\n`);
    const evicted = removals(patch('Evicted'));
    expect(evicted).toHaveLength(1);
    expect(evicted[0][0]).toBeGreaterThanOrEqual(10_000);
    expect(evicted[0][0]).toBeLessThan(10_010);
    expect(removals(patch('Other'))).toEqual([]);
  });

  it('current: an evicted pod\'s container that dies first is removed at the next relist, before the kill ends, and is reported ContainerStatusUnknown (kubernetes#122160)', () => {
    const pod = `  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: app, image: nginx }, { name: shipper, image: busybox }] }
      x-kss: { containers: { app: [{ run: forever, term: 0s }], shipper: [{ run: forever, term: ignore }] } }
`;
    const body = (fixes: string) => `  until: 40s\n  kubelet: { statusManager: current${fixes} }\n${pod}  timeline:\n    - { at: 20s, evict: { pod: web, signal: nodefs.available } }\n`;
    const app = (r: ReturnType<typeof run>) => r.world.apiserver.peek('default', 'web')!.status!.containerStatuses!.find((c) => c.name === 'app')!;
    const broken = run(body(''));
    expect(removals(broken)[0]).toEqual([21_000, 'app']);
    expect(app(broken)).toMatchObject({ restartCount: 1, state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown' } } });
    const fixed = run(body(', proposedFixes: [keepEvictedContentUntilFinished]'));
    expect(removals(fixed).every(([t]) => (t as number) > 22_000)).toBe(true);
    expect(app(fixed)).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 143, reason: 'Error' } } });
  });

  it('current: a deleted pod\'s dead containers stay until its worker has terminated', () => {
    const r = run(`  until: 40s\n  kubelet: { statusManager: current }\n  pods:\n    - metadata: { name: web }\n      spec: { containers: [{ name: app, image: nginx }, { name: shipper, image: busybox }] }\n      x-kss: { containers: { app: [{ run: forever, term: 0s }], shipper: [{ run: forever, term: 5s }] } }\n  timeline:\n    - { at: 20s, delete: { pod: web } }\n`);
    const terminated = r.trace.find((e) => e.type === 'worker.terminated')!.t;
    expect(terminated).toBeGreaterThanOrEqual(25_000);
    expect(removals(r).every(([t]) => (t as number) >= terminated)).toBe(true);
    const app = r.trace.filter((e) => e.type === 'runtime.exit' && e.container === 'app');
    expect(app.map((e) => e.exitCode)).toEqual([143]);
  });
});

describe('the container GC of the v1.22+ pod workers (ShouldPodContentBeRemoved, every minute)', () => {
  it.each(['transitional', 'current'] as const)('%s: a finished Job pod deleted later loses its dead container at the next pass; a crash loop\'s stay', (g) => {
    const r = run(`  until: 130s\n  kubelet: { statusManager: ${g} }\n  pods:\n    - metadata: { name: job }\n      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }\n      x-kss: { containers: { main: [{ run: 5s, exit: 0 }] } }\n    - metadata: { name: crash }\n      spec: { containers: [{ name: main, image: busybox }] }\n      x-kss: { containers: { main: [{ run: 5s, exit: 1 }] } }\n  timeline:\n    - { at: 70s, delete: { pod: job } }\n`);
    const removals = r.trace.filter((e) => e.type === 'runtime.remove');
    // (its ContainerDied came long before the deletion: the deletor kept it; the GC's pass at 120 s takes it)
    expect(removals.filter((e) => e.pod === 'default/job').map((e) => e.t)).toEqual([120_000]);
    // (the crash-looping pod's dead instances go by the deletor, one kept; never by the GC)
    expect(removals.filter((e) => e.pod === 'default/crash' && e.t % 60_000 === 0)).toEqual([]);
  });
});
