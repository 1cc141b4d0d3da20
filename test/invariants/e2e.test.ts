// The checkers inside real runs: small inline scenarios through loadScenario + runScenario.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';
import { runScenario, type RunResult } from '../../src/world/run.js';

function run(name: string, spec: string): RunResult {
  const text = `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: ${name} }\nspec:\n${spec}`;
  const r = loadScenario(text, `${name}.yaml`);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join('\n'));
  return runScenario(r.scenario);
}

const violated = (r: RunResult) =>
  r.trace.filter((t) => t.type === 'invariant.violation').map((t) => `${String(t.invariant)} ${t.pod}`).sort();

describe('invariants in real runs', () => {
  it('a job that runs, succeeds and is deleted breaks nothing', () => {
    const r = run('job', `  until: 2m
  pods:
    - metadata: { name: job }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: 5s, exit: 0 }] } }
  timeline:
    - at: 30s
      delete: { pod: job }
`);
    expect(violated(r)).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('a running pod deleted gracefully is killed, reported and removed: deletion completes', () => {
    const r = run('delete-running', `  until: 2m
  pods:
    - metadata: { name: p }
      spec: { terminationGracePeriodSeconds: 5, containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: forever, term: ignore }] } }
  timeline:
    - at: 10s
      delete: { pod: p }
`);
    expect(violated(r)).toEqual([]);
    expect(r.world.apiPod('default/p')).toBeUndefined();
  });

  it('an external Failed while the container runs is the world doing it; the kubelet writing Running back over it breaks terminal-phase-sticky', () => {
    const r = run('failed-while-running', `  until: 1m
  pods:
    - metadata: { name: p }
      spec: { containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: forever }] } }
  timeline:
    - at: 10s
      externalPatch: { pod: p, status: { phase: Failed } }
  expect:
    - violation: { invariant: terminal-phase-sticky }
`);
    // Another writer's Failed (next to a running container and Ready=True) is not the kubelet's:
    // no-ready-when-terminal and no-terminal-while-running judge the kubelet's writes only.
    expect(violated(r)).toEqual(['terminal-phase-sticky default/p']);
    const v = r.trace.find((t) => t.invariant === 'terminal-phase-sticky')!;
    expect(v).toMatchObject({ actor: 'invariant', seed: 1 });
    expect(v.t).toBeGreaterThan(10_000);
    expect(String(v.message)).toContain('phase went Failed → Running');
    expect(r.unexpectedViolations).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('spec.invariants selects the checkers that run', () => {
    const r = run('selected', `  until: 1m
  invariants: [terminal-phase-sticky]
  pods:
    - metadata: { name: p }
      spec: { containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: forever }] } }
  timeline:
    - at: 10s
      externalPatch: { pod: p, status: { phase: Failed } }
`);
    expect(violated(r)).toEqual(['terminal-phase-sticky default/p']);
    expect(r.verdict).toBe('fail');
  });

  it('an external patch that flips Ready keeping its time is not judged; the kubelet flipping it back with that same time is', () => {
    const r = run('flip-ready', `  until: 1m
  invariants: [transition-time-honest]
  pods:
    - metadata: { name: p }
      spec: { containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: forever }] } }
  timeline:
    - at: 10s
      externalPatch: { pod: p, status: { conditions: [{ type: Ready, status: "False" }] } }
`);
    expect(violated(r)).toEqual(['transition-time-honest default/p']);
    const v = r.trace.find((t) => t.type === 'invariant.violation')!;
    expect(v.t).toBeGreaterThan(10_000); // the kubelet's reconcile, not the patch at 10 s
    expect(String(v.message)).toContain('condition Ready went False → True but lastTransitionTime stayed');
  });

  it('an illegal container transition: an external writer making one is not judged, the status manager refuses to make one', () => {
    const spec = (how: string) => `  until: 1m
  invariants: [no-illegal-container-transition]
  kubelet: { runtime: none }
  pods:
    - metadata: { name: p }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
      status:
        phase: Running
        containerStatuses: [{ name: main, image: busybox, imageID: "", ready: false, restartCount: 0, state: { running: { startedAt: "@0s" } } }]
  timeline:
    - at: 1s
      setPodStatus:
        pod: p
        status:
          phase: Failed
          containerStatuses: [{ name: main, image: busybox, imageID: "", ready: false, restartCount: 0, state: { terminated: { exitCode: 1, startedAt: "@0s", finishedAt: "@1s" } } }]
    - at: 5s
${how}
`;
    const external = run('illegal-external', spec(`      externalPatch: { pod: p, status: { containerStatuses: [{ name: main, state: { running: { startedAt: "@5s" } } }] } }`));
    expect(violated(external)).toEqual([]); // the environment's write; the kubelet then writes terminated back (legal)
    expect(external.trace.some((t) => t.type === 'api.patch' && t.actor === 'kubelet' && t.t > 5000)).toBe(true);
    const kubelet = run('illegal-kubelet', spec(`      setPodStatus: { pod: p, status: { phase: Running, containerStatuses: [{ name: main, image: busybox, imageID: "", ready: true, restartCount: 1, state: { running: { startedAt: "@5s" } } }] } }`));
    expect(kubelet.trace.some((t) => t.type === 'status.reject')).toBe(true);
    expect(violated(kubelet)).toEqual([]);
  });

  it('runtime none: a finished pod the kubelet may not delete (containers could run) never leaves, nor gets its status', () => {
    const r = run('stuck-delete', `  until: 2m
  kubelet: { runtime: none }
  pods:
    - metadata: { name: p }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
  timeline:
    - at: 1s
      setDeletionSafety: { podCouldHaveRunningContainers: true }
    - at: 1s
      setPodStatus: { pod: p, status: { phase: Running } }
    - at: 2s
      delete: { pod: p, gracePeriodSeconds: 5 }
    - at: 3s
      terminatePod: { pod: p }
`);
    // (deleted-pod-reaches-terminal, added with the bug zoo, reports the same wedge: the held-back Failed never arrives)
    expect(violated(r)).toEqual(['deleted-pod-reaches-terminal default/p', 'deletion-completes default/p', 'status-converges default/p']);
  });

  it('runtime none: the same pod, once its containers are known gone, is deleted: no violation', () => {
    const r = run('unstuck-delete', `  until: 2m
  kubelet: { runtime: none }
  pods:
    - metadata: { name: p }
      spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }
  timeline:
    - at: 1s
      setPodStatus: { pod: p, status: { phase: Running } }
    - at: 2s
      delete: { pod: p, gracePeriodSeconds: 5 }
    - at: 3s
      terminatePod: { pod: p }
`);
    expect(violated(r)).toEqual([]);
    expect(r.world.apiPod('default/p')).toBeUndefined();
  });

  it('a kubelet restart starts versions afresh without breaking version-monotonic', () => {
    const r = run('restart', `  until: 2m
  pods:
    - metadata: { name: p }
      spec: { containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: 20s, exit: 1 }] } }
  timeline:
    - at: 30s
      restartKubelet: { downFor: 5s }
`);
    expect(r.trace.filter((t) => t.type === 'kubelet.start')).toHaveLength(2);
    expect(violated(r)).toEqual([]);
  });

  it("a pod recreated between the kubelet's GET and PATCH: the UID precondition keeps the write off the new pod", () => {
    const r = run('recreate-mid-sync', `  until: 1m
  apiserver:
    latency: { get: 1ms..1ms, patch: 40ms..40ms, delete: 1ms..1ms, create: 1ms..1ms }
  pods:
    - metadata: { name: web-0 }
      spec: { containers: [{ name: main, image: busybox }] }
      x-kss: { containers: { main: [{ run: forever }] } }
  timeline:
    - at: 10s
      externalPatch: { pod: web-0, status: { message: nudge } }
    - at: 20010ms
      recreate: { pod: web-0 }
`);
    // The reconcile at 20s GETs the old pod; its PATCH reaches the apiserver after the recreate.
    const conflict = r.trace.find((t) => t.type === 'api.error' && t.verb === 'patch' && t.code === 409);
    expect(conflict?.t).toBeGreaterThan(20_010);
    expect(violated(r).filter((v) => v.startsWith('write-matches-uid'))).toEqual([]);
  });
});
