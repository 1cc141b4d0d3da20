// A small world for the invariant checkers: the real engine, tracer and apiserver, with fakes for
// the kubelet's status manager / pod manager and the container runtime (just what the checkers
// read). Steps are scheduled with `at`, then `run` drives the engine with the checkers' hooks the
// way runScenario does.
import { ApiServer } from '../../src/apiserver/index.js';
import { Engine, Rng } from '../../src/engine/index.js';
import { createCheckers, kubeletStatusEqual, type InvariantChecker } from '../../src/invariants/index.js';
import type { InvariantWorld, KubeletView, NodeView, PodManagerView, RuntimeView, StatusManagerView } from '../../src/model/world-view.js';
import { isMirrorPod, podKey, type Container, type Pod, type PodStatus, type UID } from '../../src/model/pod.js';
import { VClock, formatRfc3339, parseRfc3339 } from '../../src/model/time.js';
import type { InvariantName, Variant } from '../../src/scenario/types.js';
import { WorldTracer, type TraceRecord } from '../../src/world/tracer.js';

export class FakeStatusManager implements StatusManagerView {
  readonly entries = new Map<UID, { status: PodStatus; version: number; podIsFinished?: boolean }>();
  readonly api = new Map<UID, number>();
  constructor(private readonly tracer: WorldTracer) {}
  /** updateStatusInternal, reduced: bump the version (1 for a fresh entry) and trace status.set. */
  set(pod: Pod, status: PodStatus, podIsFinished?: boolean): number {
    const uid = pod.metadata!.uid!;
    const version = (this.entries.get(uid)?.version ?? 0) + 1;
    this.entries.set(uid, { status, version, podIsFinished });
    this.tracer.emit({ type: 'status.set', actor: 'kubelet', pod: podKey(pod), uid, version });
    return version;
  }
  cachedEntry(uid: UID) {
    return this.entries.get(uid);
  }
  apiStatusVersion(uid: UID) {
    return this.api.get(uid);
  }
  cachedUIDs() {
    return [...this.entries.keys()].sort();
  }
}

export class FakePodManager implements PodManagerView {
  readonly pods = new Map<UID, Pod>();
  readonly mirrors = new Map<UID, Pod>();
  add(p: Pod): void {
    (isMirrorPod(p) ? this.mirrors : this.pods).set(p.metadata!.uid!, p);
  }
  getPodByUID(uid: UID) {
    return this.pods.get(uid);
  }
  getMirrorPodByPod(pod: Pod) {
    return [...this.mirrors.values()].find((m) => podKey(m) === podKey(pod));
  }
  getPodByMirrorPod(mirror: Pod) {
    return [...this.pods.values()].find((p) => podKey(p) === podKey(mirror));
  }
}

export class FakeRuntime implements RuntimeView {
  readonly running = new Map<UID, string[]>();
  constructor(private readonly tracer: WorldTracer) {}
  start(pod: Pod, container: string): void {
    const uid = pod.metadata!.uid!;
    this.running.set(uid, [...(this.running.get(uid) ?? []), container]);
    this.tracer.emit({ type: 'runtime.start', actor: 'runtime', pod: podKey(pod), uid, container });
  }
  exit(pod: Pod, container: string): void {
    const uid = pod.metadata!.uid!;
    this.running.set(uid, (this.running.get(uid) ?? []).filter((c) => c !== container));
    this.tracer.emit({ type: 'runtime.exit', actor: 'runtime', pod: podKey(pod), uid, container });
  }
  runningContainers(uid: UID) {
    return (this.running.get(uid) ?? []).map((name) => ({ name }));
  }
}

export interface HarnessOptions {
  variant?: Variant;
  runtime?: boolean;
  syncPeriodMs?: number;
  /** The last timeline instant (quiet starts no earlier). */
  lastScheduledMs?: number;
  foreignKeys?: string[];
  /** Make an event every `tickMs` (the status manager's ticker does in a real run). */
  tickMs?: number;
}

export function harness(opts: HarnessOptions = {}) {
  const engine = new Engine(new Rng('7'));
  const clock = new VClock(engine);
  const tracer = new WorldTracer(engine, true);
  const apiserver = new ApiServer({ clock, rng: engine.rng.fork('apiserver'), tracer });
  const runtime = opts.runtime === false ? null : new FakeRuntime(tracer);
  const variant = opts.variant ?? 'current';
  let n = 0;
  const newKubelet = (): KubeletView & { statusManager: FakeStatusManager; podManager: FakePodManager } => ({ n: ++n, statusManager: new FakeStatusManager(tracer), podManager: new FakePodManager() });
  const h = {
    engine,
    clock,
    tracer,
    apiserver,
    runtime,
    kubelet: newKubelet() as ReturnType<typeof newKubelet> | null,
    world: undefined as unknown as InvariantWorld,
    checkers: [] as InvariantChecker[],
    untilMs: 600_000,
    /** The kubelet dies (kubelet.stop) and, unless `down`, a new incarnation starts at once. */
    restartKubelet(down = false): void {
      tracer.emit({ type: 'kubelet.stop', actor: 'kubelet', incarnation: h.kubelet?.n });
      h.kubelet = null;
      if (!down) h.startKubelet();
    },
    startKubelet(): void {
      h.kubelet = newKubelet();
      tracer.emit({ type: 'kubelet.start', actor: 'kubelet', incarnation: h.kubelet.n });
    },
    /** Create the checkers (after the initial objects exist, as runScenario does after setup). */
    check(names: readonly InvariantName[]): void {
      h.checkers = createCheckers(h.world, names);
    },
    at(t: number, fn: () => void): void {
      engine.at(t, fn);
    },
    run(untilMs: number): void {
      h.untilMs = untilMs;
      if (opts.tickMs) for (let t = opts.tickMs; t <= untilMs; t += opts.tickMs) engine.at(t, () => {});
      const cs = h.checkers;
      engine.run({
        untilMs,
        afterEvent: () => { for (const c of cs) c.afterEvent(); },
        endOfInstant: (t) => { for (const c of cs) c.endOfInstant?.(t); },
      });
      for (const c of cs) c.end();
    },
    violations(): TraceRecord[] {
      return tracer.records.filter((r) => r.type === 'invariant.violation');
    },
    /** Create a pod in the apiserver (as the scenario's user) and hand it to the kubelet's pod manager. */
    create(p: Pod): Pod {
      const r = apiserver.create(p, 'user');
      if (!r.ok) throw new Error(r.message);
      h.kubelet?.podManager.add(r.value);
      return r.value;
    },
    /** Another writer's status patch (a controller's: the environment, not the kubelet). */
    patch(p: Pod | string, status: PodStatus): Pod {
      return h.patchAs(p, status, 'controller');
    },
    /** A status patch the kubelet wrote (what the object-history invariants judge). */
    kubeletPatch(p: Pod | string, status: PodStatus): Pod {
      return h.patchAs(p, status, 'kubelet');
    },
    patchAs(p: Pod | string, status: PodStatus, actor: 'kubelet' | 'controller'): Pod {
      const name = typeof p === 'string' ? p : p.metadata!.name!;
      const r = apiserver.externalPatch('default', name, status, actor);
      if (!r.ok) throw new Error(r.message);
      return r.value;
    },
  };
  const node: NodeView = {
    name: 'node-a',
    runtime,
    kubelet: () => h.kubelet,
    config: { nodeName: 'node-a', syncPeriodMs: opts.syncPeriodMs ?? 10_000 },
    statusEqual: kubeletStatusEqual(variant),
  };
  h.world = {
    engine,
    epochMs: clock.epochMs,
    tracer,
    apiserver,
    nodes: [node],
    namesNodes: false,
    nodeOfPod: () => node,
    seed: 7,
    variant,
    get untilMs() {
      return h.untilMs;
    },
    foreignKeys: new Set(opts.foreignKeys ?? []),
    lastScheduledMs: opts.lastScheduledMs ?? 0,
  };
  return h;
}

export function pod(name: string, o: { restartPolicy?: 'Always' | 'OnFailure' | 'Never'; status?: PodStatus; nodeName?: string; grace?: number; uid?: string; initContainers?: Container[]; annotations?: Record<string, string> } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', ...(o.uid ? { uid: o.uid } : {}), ...(o.annotations ? { annotations: o.annotations } : {}) },
    spec: {
      nodeName: o.nodeName ?? 'node-a',
      restartPolicy: o.restartPolicy ?? 'Always',
      terminationGracePeriodSeconds: o.grace ?? 30,
      containers: [{ name: 'main', image: 'busybox' }],
      ...(o.initContainers ? { initContainers: o.initContainers } : {}),
    },
    ...(o.status ? { status: o.status } : {}),
  };
}

/** "@<s>s" → RFC 3339 at epoch + s seconds (whole or fractional). */
export function at(seconds: number): string {
  return formatRfc3339(parseRfc3339('2026-01-01T00:00:00Z')! + Math.round(seconds * 1000));
}
