// A container runc cannot signal for a while (stopFails): the kills that fail and the syncs they
// fail, per generation; and #113145, housekeeping driving a force-deleted pod's failed termination.
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario, type RunResult } from '../../../src/index.js';

const text = (extra: string) => `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: stop-fails }
spec:
  until: 200s
${extra}
`;

function run(extra: string, opts: { keepTrace?: boolean } = {}): RunResult {
  const r = loadScenario(text(extra));
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return runScenario(r.scenario, { keepTrace: opts.keepTrace ?? true });
}

const logs = (r: RunResult, part: string) => r.trace.filter((e) => e.type === 'log' && String((e as { msg?: string }).msg).includes(part));
const at = (r: RunResult, type: string, pred: (e: Record<string, unknown>) => boolean = () => true) =>
  r.trace.filter((e) => e.type === type && pred(e as Record<string, unknown>)).map((e) => e.t);

const twoContainers = (gen: string, revert = '') => `  kubelet: { statusManager: ${gen}${revert} }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }, { name: side, image: busybox }] }
  timeline:
    - { at: 20s, stopFails: { pod: web, container: main, for: 40s } }
    - { at: 30s, delete: { pod: web } }`;

describe('stopFails', () => {
  it('a graceful delete stops the other container, fails on the one runc cannot signal (and on the sandbox), and succeeds after the window (current)', () => {
    const r = run(twoContainers('current'));
    expect(r.assertions.filter((a) => !a.ok)).toEqual([]);
    const errs = logs(r, 'Error syncing pod, skipping');
    expect(errs.length).toBeGreaterThan(0);
    const msg = String((errs[0] as { msg?: string }).msg);
    expect(msg).toContain('failed to "KillContainer" for "main" with KillContainerError: "rpc error: code = Unknown desc = failed to stop container \\"');
    expect(msg).toContain('unable to signal init: permission denied: unknown');
    expect(msg).toContain('with KillPodSandboxError: "rpc error: code = Unknown desc = failed to stop container \\"');
    expect(msg).toContain('failed to kill container');
    // side: SIGTERM at the deletion; main: only once the window is over (60 s)
    expect(at(r, 'runtime.kill', (e) => e.container === 'side' && e.signal === 'SIGTERM')).toEqual([30_001]);
    const mainKills = at(r, 'runtime.kill', (e) => e.container === 'main' && e.signal === 'SIGTERM');
    expect(mainKills.length).toBe(1);
    expect(mainKills[0]).toBeGreaterThanOrEqual(60_000);
    expect(mainKills[0]).toBeLessThan(72_000);
    // the pod leaves the apiserver after that (the status manager's final delete)
    expect(at(r, 'api.delete', (e) => e.actor === 'kubelet' && e.code === 200).every((t) => t > mainKills[0])).toBe(true);
    expect(at(r, 'fault.begin', (e) => e.fault === 'stopFails')).toEqual([20_000]);
    expect(at(r, 'fault.end', (e) => e.fault === 'stopFails')).toEqual([60_000]);
  });

  it('classic syncPod wraps it as "error killing pod: …" and retries too', () => {
    const r = run(twoContainers('classic'));
    const errs = logs(r, 'error killing pod: [failed to "KillContainer" for "main"');
    expect(errs.length).toBeGreaterThan(0);
    expect(at(r, 'runtime.kill', (e) => e.container === 'main' && e.signal === 'SIGTERM')[0]).toBeGreaterThanOrEqual(60_000);
  });

  it('a liveness kill that fails ends SyncPod with the KillContainer result; the container restarts after the window', () => {
    const r = run(`  kubelet: { statusManager: current }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx, livenessProbe: { httpGet: { path: /, port: 80 }, periodSeconds: 10, failureThreshold: 1 } }] }
  timeline:
    - { at: 20s, stopFails: { pod: web, container: main, for: 30s } }
    - { at: 25s, live: { pod: web, container: main, value: false } }`);
    const failed = logs(r, 'failed to "KillContainer" for "main" with KillContainerError');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((e) => e.t < 50_000)).toBe(true);
    const kills = at(r, 'runtime.kill', (e) => e.signal === 'SIGTERM');
    expect(kills.length).toBeGreaterThan(0);
    expect(kills[0]).toBeGreaterThanOrEqual(50_000);
  });

  it('needs runtime: simulated and a `for` (load errors, positioned)', () => {
    const none = loadScenario(text(`  kubelet: { statusManager: current, runtime: none }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 20s, stopFails: { pod: web, container: main, for: 30s } }`));
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.issues[0]).toMatchObject({ path: 'spec.timeline[0].stopFails', line: 11 });
    const bad = loadScenario(text(`  pods: []
  timeline:
    - { at: 20s, stopFails: { pod: web, container: main } }`));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.path).join(' ')).toContain('spec.timeline[0].stopFails');
  });
});

describe('#113145: a force-deleted pod whose termination failed', () => {
  const force = (gen: string, revert = '') => `  kubelet: { statusManager: ${gen}${revert} }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 20s, stopFails: { pod: web, container: main, for: 60s } }
    - { at: 30s, delete: { pod: web, gracePeriodSeconds: 0 } }`;
  const exits = (r: RunResult) => at(r, 'runtime.exit');

  it('current: housekeeping replays the orphan\'s last update every 2 s until the kill succeeds', () => {
    const r = run(force('current'));
    expect(exits(r)).toEqual([80_000]);
    expect(r.unexpectedViolations).toEqual([]);
    const retries = at(r, 'worker.terminating').filter((t) => t > 31_500);
    expect(retries.length).toBeGreaterThanOrEqual(20);
    expect(retries.every((t) => t % 2_000 === 0)).toBe(true);
    expect(logs(r, 'Pod is orphaned and still terminating, notified the pod worker').length).toBe(retries.length);
    expect(at(r, 'worker.terminated')).toEqual([81_000]);
  });

  it('reverted, and in the transitional generation (v1.23): nothing retries it; the container runs to the end', () => {
    for (const r of [run(force('current', ', revertFixes: [noOrphanTerminationRetry]')), run(force('transitional'))]) {
      expect(exits(r)).toEqual([]);
      expect(at(r, 'worker.terminating').filter((t) => t > 31_500)).toEqual([]);
      expect(logs(r, 'Pod worker has been requested for removal but is still not fully terminated').length).toBeGreaterThan(50);
      // deleted-pod-stops: 2 × syncPeriod and the 30 s grace after runc can signal again (80 s)
      expect(r.unexpectedViolations.map((v) => [v.t, v.invariant, v.pod])).toEqual([[130_000, 'deleted-pod-stops', 'default/web']]);
    }
  });

  it('reverted: a kubelet restart is the workaround — the new kubelet kills the orphaned runtime pod with a 1 s grace', () => {
    const r = run(`${force('current', ', revertFixes: [noOrphanTerminationRetry]')}
    - { at: 150s, restartKubelet: {} }`);
    expect(at(r, 'runtime.kill', (e) => e.signal === 'SIGTERM').map((t) => [t])).toEqual([[152_000]]);
    expect(r.trace.find((e) => e.type === 'runtime.kill')).toMatchObject({ timeoutSeconds: 2 });
    expect(exits(r)).toEqual([152_000]);
    expect(r.unexpectedViolations).toEqual([]);
  });

  it('classic (v1.20): housekeeping kills the pod that is no longer desired once runc can signal it', () => {
    expect(exits(run(force('classic')))).toEqual([80_000]);
  });
  it('deleted-pod-stops judges the pod on its own node, and waits while a fault is in force there', () => {
    const r = run(`  kubelet: { statusManager: transitional }
  nodes: [{ name: node-a }, { name: node-b }]
  pods:
    - metadata: { name: web }
      spec: { nodeName: node-b, containers: [{ name: main, image: nginx }] }
  timeline:
    - { at: 20s, stopFails: { pod: web, container: main, for: 100s, node: node-b } }
    - { at: 30s, delete: { pod: web, gracePeriodSeconds: 0 } }`);
    // (the fault holds node-b's quiet until 120 s: due at 170 s)
    expect(r.unexpectedViolations.map((v) => [v.t, v.invariant, v.pod, v.node])).toEqual([[170_000, 'deleted-pod-stops', 'default/web', 'node-b']]);
  });
});
