// A container runtime that goes down (restartRuntime): runtimeState's errors, the sync loop's guard
// and its back-off, and the step end to end on one node of several.
import { describe, expect, it } from 'vitest';
import { Engine, Rng, type Proc } from '../../../src/engine/index.js';
import { aggregateError, RuntimeState, RUNTIME_DOWN, type RuntimeStateHost } from '../../../src/kubelet/node/runtime-state.js';
import { SyncLoopGate } from '../../../src/kubelet/node/sync-loop.js';
import { loadScenario, runScenario } from '../../../src/index.js';

function host(engine: Engine, cri: { up: boolean; networkDown?: boolean }, logs: string[], relistMs = () => engine.nowMs): RuntimeStateHost {
  return {
    nowMs: () => engine.nowMs,
    startMs: 0,
    criUp: () => cri.up,
    networkDown: () => cri.networkDown === true,
    networkErrorPrefix: 'container runtime network not ready',
    plegHealth: (t) => (t - relistMs() > 180_000 ? `pleg was last seen active ${t - relistMs()}ms ago` : undefined),
    spawn: (name: string, body: Proc<void>) => void engine.spawn(name, body),
    logError: (m) => logs.push(`${engine.nowMs} ${m}`),
  };
}

describe('runtimeState', () => {
  it('aggregates as utilerrors.NewAggregate: none, one bare, several bracketed, each message once', () => {
    expect(aggregateError([])).toBe('');
    expect(aggregateError(['a'])).toBe('a');
    expect(aggregateError(['a', 'b'])).toBe('[a, b]');
    expect(aggregateError(['a', 'a'])).toBe('a');
  });

  it('is down 30 s after the last 5 s status check that found the runtime up, and up at the first check after it is back', () => {
    const engine = new Engine(new Rng('e'));
    const cri = { up: true };
    const logs: string[] = [];
    const rs = new RuntimeState(host(engine, cri, logs));
    rs.start();
    expect(rs.troubled).toBe(false);
    engine.at(62_000, () => {
      cri.up = false;
      rs.runtimeChanged();
    });
    const seen: Array<[number, string[]]> = [];
    for (const t of [62_000, 89_999, 90_000, 100_000]) engine.at(t, () => seen.push([t, rs.runtimeErrors(t)]));
    engine.at(101_000, () => (cri.up = true));
    engine.at(104_999, () => seen.push([104_999, rs.runtimeErrors(104_999)]));
    engine.at(105_001, () => seen.push([105_001, rs.runtimeErrors(105_001)]));
    engine.run({ untilMs: 200_000 });
    // the last check that found it up was at 60 s: down from 90 s (not after 90 s)
    expect(seen).toEqual([
      [62_000, []],
      [89_999, []],
      [90_000, [RUNTIME_DOWN]],
      [100_000, [RUNTIME_DOWN]],
      [104_999, [RUNTIME_DOWN]],
      [105_001, []],
    ]);
    expect(rs.troubled).toBe(false);
    // checks at 65 … 100 s failed and logged
    expect(logs.filter((l) => l.includes('Container runtime sanity check failed')).map((l) => Number(l.split(' ')[0]))).toEqual([65_000, 70_000, 75_000, 80_000, 85_000, 90_000, 95_000, 100_000]);
  });

  it('adds the PLEG health check after its threshold', () => {
    const engine = new Engine(new Rng('e'));
    const cri = { up: true };
    const rs = new RuntimeState(host(engine, cri, [], () => 61_000));
    rs.start();
    let errs: string[] = [];
    engine.at(62_000, () => {
      cri.up = false;
      rs.runtimeChanged();
    });
    engine.at(241_001, () => (errs = rs.runtimeErrors(241_001)));
    engine.run({ untilMs: 242_000 });
    expect(errs).toEqual([RUNTIME_DOWN, 'PLEG is not healthy: pleg was last seen active 180001ms ago']);
  });
});

describe('the network error', () => {
  it('is set by the first status check after the CNI plugin goes down and cleared by the first after it is back; at a start, at once', () => {
    const engine = new Engine(new Rng('e'));
    const cri = { up: true, networkDown: false };
    const rs = new RuntimeState(host(engine, cri, []));
    rs.start();
    const seen: Array<[number, string | undefined]> = [];
    engine.at(22_000, () => {
      cri.networkDown = true;
      rs.runtimeChanged();
    });
    engine.at(52_000, () => (cri.networkDown = false));
    for (const t of [22_000, 24_999, 25_001, 54_999, 55_001]) engine.at(t, () => seen.push([t, rs.networkErrors()]));
    engine.run({ untilMs: 100_000 });
    const err = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
    expect(seen).toEqual([
      [22_000, undefined],
      [24_999, undefined],
      [25_001, err],
      [54_999, err],
      [55_001, undefined],
    ]);
    expect(rs.troubled).toBe(false);
    // a kubelet that starts with the network down knows it from its first check, at the start
    const again = new RuntimeState(host(new Engine(new Rng('e')), { up: true, networkDown: true }, []));
    again.start();
    expect(again.networkErrors()).toBe(err);
    expect(again.runtimeErrors(0)).toEqual([]);
  });
});

describe('the sync loop guard', () => {
  /** A loop whose select, when it wakes, takes the ready case at `pick(n)` (n ready cases). */
  function gate(errorsUntil: { ms: number }, pick: (n: number) => number) {
    const engine = new Engine(new Rng('e'));
    const logs: number[] = [];
    const g = new SyncLoopGate({
      nowMs: () => engine.nowMs,
      troubled: () => true,
      runtimeErrors: (t) => (t < errorsUntil.ms ? ['container runtime is down'] : []),
      spawn: (name, body) => void engine.spawn(name, body),
      logError: () => logs.push(engine.nowMs),
      rng: () => ({ choose: (_site: string, n: number) => pick(n) }) as unknown as Rng,
    });
    return { engine, g, logs };
  }

  function run(pick: (n: number) => number) {
    const { engine, g, logs } = gate({ ms: 20_000 }, pick);
    const handled: string[] = [];
    // an arrival while the loop is open runs; the check after it finds the errors and the loop sleeps
    engine.at(1_000, () => {
      handled.push('first');
      g.check();
    });
    engine.at(2_000, () => {
      expect(g.closed).toBe(true);
      g.defer('config', () => handled.push('config-1'));
      g.deferTick('sync', () => handled.push('tick-2'));
      g.deferTick('sync', () => handled.push('tick-3 (dropped: the channel holds one)'));
      g.deferTick('housekeeping', () => handled.push('housekeeping'));
      g.defer('pleg', () => handled.push('pleg'));
      g.defer('config', () => handled.push('config-2'));
    });
    engine.run({ untilMs: 60_000 });
    return { g, logs, handled };
  }

  it('backs off 100 ms doubling to 5 s, queues arrivals per channel (a ticker keeps one tick), and when the errors are gone takes one per iteration, as the select picks', () => {
    const first = run(() => 0);
    expect(first.logs).toEqual([1_000, 1_100, 1_300, 1_700, 2_500, 4_100, 7_300, 12_300, 17_300]);
    // always the first ready case in syncLoopIteration's order: config, pleg, sync, …, housekeeping
    expect(first.handled).toEqual(['first', 'config-1', 'config-2', 'pleg', 'tick-2', 'housekeeping']);
    expect(first.g.closed).toBe(false);
    // always the last: each channel's own arrivals stay in order
    expect(run((n) => n - 1).handled).toEqual(['first', 'housekeeping', 'tick-2', 'pleg', 'config-1', 'config-2']);
  });
});

describe('restartRuntime', () => {
  const text = (extra: string) => `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  until: 200s
${extra}`;

  it('takes down one node\'s runtime only (node:), and the other node\'s kubelet goes on', () => {
    const r = loadScenario(
      text(`  kubelet: { statusManager: current }
  nodeLifecycle: {}
  nodes: [{ name: node-a }, { name: node-b }]
  pods:
    - { metadata: { name: a }, spec: { nodeName: node-a, containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: 100s, exit: 0 }] } }, }
    - { metadata: { name: b }, spec: { nodeName: node-b, restartPolicy: Never, containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: 100s, exit: 0 }] } } }
  timeline:
    - { at: 20s, restartRuntime: { downFor: 150s, node: node-b } }
  expect:
    - events: { type: node.status, where: { node: node-b, status: "False", message: container runtime is down }, count: 1 }
    - events: { type: node.status, where: { node: node-a, status: "False" }, count: 0 }
    - apiserver: { pod: a, at: 110s, status: { containerStatuses: [{ name: main, restartCount: 1 }] } }
    - apiserver: { pod: b, at: 169s, status: { phase: Running } }
    - apiserver: { pod: b, at: 180s, status: { phase: Succeeded } }`),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const run = runScenario(r.scenario);
    expect(run.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(run.stepErrors).toEqual([]);
  });

  it('a pod created while containerd is down (before the loop sleeps) gets no sandbox until it is back', () => {
    const r = loadScenario(
      text(`  kubelet: { statusManager: current }
  pods:
    - { metadata: { name: late }, spec: { containers: [{ name: main, image: nginx }] }, x-kss: { createAt: 32s } }
  timeline:
    - { at: 28s, restartRuntime: { downFor: 60s } }
  expect:
    - log: { contains: 'with CreatePodSandboxError: "Failed to create sandbox for pod', pod: late, count: 1 }
    - events: { type: runtime.start, pod: late, count: 1, from: 88s, to: 88s }
    - apiserver: { pod: late, at: 87s, status: { phase: Pending, containerStatuses: [{ name: main, state: { waiting: { reason: ContainerCreating } } }] } }`),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(runScenario(r.scenario).assertions.filter((a) => !a.ok)).toEqual([]);
  });

  it('an exec probe errors while containerd is down (its answers land only after): the liveness kill waits for three failed probes after', () => {
    const probe = (handler: string) =>
      loadScenario(
        text(`  kubelet: { statusManager: current }
  pods:
    - metadata: { name: web }
      spec:
        containers:
          - { name: main, image: nginx, livenessProbe: { ${handler}, periodSeconds: 10, failureThreshold: 3 } }
  timeline:
    - { at: 30s, restartRuntime: { downFor: 70s } }
    - { at: 40s, live: { pod: web, container: main, value: false } }`),
      );
    const exec = probe('exec: { command: [cat, /tmp/healthy] }');
    if (!exec.ok) throw new Error(JSON.stringify(exec.issues));
    const kills = (r: ReturnType<typeof runScenario>) => r.trace.filter((e) => e.type === 'runtime.kill').map((e) => e.t);
    const execRun = runScenario(exec.scenario, { keepTrace: true });
    expect(kills(execRun)).toHaveLength(1);
    expect(kills(execRun)[0]).toBeGreaterThan(120_000);
    const landed = (r: ReturnType<typeof runScenario>) => r.trace.filter((e) => e.type === 'probe.result' && e.probe === 'liveness' && e.result === false).map((e) => e.t);
    expect(landed(execRun)[0]).toBeGreaterThan(120_000);
    // an HTTP probe does not go through the runtime: its failure lands at once
    const http = probe('httpGet: { path: /, port: 80 }');
    if (!http.ok) throw new Error(JSON.stringify(http.issues));
    const httpRun = runScenario(http.scenario, { keepTrace: true });
    expect(landed(httpRun)[0]).toBe(40_000);
    // … but the kill it asks for fails (StopContainer: containerd is down) and waits for the runtime
    expect(httpRun.trace.some((e) => e.type === 'log' && String(e.msg).includes('with KillContainerError: "rpc error: code = Unavailable'))).toBe(true);
    expect(kills(httpRun)).toEqual([100_000]);
  });

  it('is refused without a simulated runtime, and needs downFor', () => {
    const none = loadScenario(text(`  kubelet: { runtime: none }
  timeline:
    - { at: 1s, restartRuntime: { downFor: 5s } }`));
    expect(none.ok).toBe(false);
    const noDuration = loadScenario(text(`  timeline:
    - { at: 1s, restartRuntime: {} }`));
    expect(noDuration.ok).toBe(false);
    if (!noDuration.ok) expect(noDuration.issues.map((i) => i.path)).toContain('spec.timeline[0].restartRuntime.downFor');
  });
});
