// A small world for Node-level tests: the real engine, status manager, pod manager and apiserver
// store, reached through a fake KubeClient that answers after 1 ms (no network model), and a watch
// that feeds the pod manager and the node as the world does.
import { Engine, Rng, type Proc } from '../../../src/engine/index.js';
import { ApiServer } from '../../../src/apiserver/index.js';
import type { ApiResult, DeleteOptions, KubeClient } from '../../../src/model/client.js';
import { VClock } from '../../../src/model/time.js';
import { isMirrorPod, podKey, type Pod } from '../../../src/model/pod.js';
import type { LogLevel, TraceEvent, Tracer } from '../../../src/model/trace.js';
import { PodManager } from '../../../src/kubelet/pod-manager.js';
import { StatusManager } from '../../../src/kubelet/status/status-manager.js';
import { Node, Runtime, type NodeTuning } from '../../../src/kubelet/node/index.js';
import type { Attempt, KubeletConfig, Variant } from '../../../src/scenario/types.js';

export interface Rec {
  t: number;
  type: string;
  actor: string;
  pod?: string;
  [k: string]: unknown;
}

export class RecordingTracer implements Tracer {
  readonly records: Rec[] = [];
  readonly logs: Array<{ t: number; level: LogLevel; msg: string; pod?: string }> = [];
  constructor(private readonly engine: Engine) {}
  emit(e: TraceEvent): void {
    this.records.push({ t: this.engine.nowMs, ...e });
  }
  log(level: LogLevel, msg: string, pod?: string): void {
    this.logs.push({ t: this.engine.nowMs, level, msg, pod });
  }
  of(type: string, pod?: string): Rec[] {
    return this.records.filter((r) => r.type === type && (pod === undefined || r.pod === pod));
  }
}

export function kubeletConfig(variant: Variant, over: Partial<KubeletConfig> = {}): KubeletConfig {
  const on = variant === 'current';
  return {
    nodeName: 'node-a',
    statusManager: variant,
    syncPeriodMs: 10_000,
    statusChannelCapacity: 1000,
    runtime: 'simulated',
    plegRelistPeriodMs: 1000,
    apiQPS: 50,
    apiBurst: 100,
    requestTimeoutMs: 10_000,
    deletionSafety: { podResourcesReclaimed: true, podCouldHaveRunningContainers: false },
    featureGates: { PodDisruptionConditions: on, PodReadyToStartContainersCondition: on, SidecarContainers: on },
    ...over,
  };
}

export function attempt(runMs: number | 'forever', exit = 0, term: number | 'ignore' = 0, extra: Partial<Attempt> = {}): Attempt {
  return { runMs, exit, term, ...extra };
}

export function simplePod(name: string, restartPolicy: 'Always' | 'OnFailure' | 'Never', extra: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      restartPolicy,
      terminationGracePeriodSeconds: 30,
      nodeName: 'node-a',
      containers: [{ name: 'main', image: 'busybox' }],
      ...extra,
    },
  };
}

export interface HarnessOptions {
  variant: Variant;
  pods?: Pod[];
  behaviour?: Record<string, Record<string, Attempt[]>>; // by pod name
  config?: Partial<KubeletConfig>;
  tuning?: Partial<NodeTuning>;
}

export class Harness {
  readonly engine = new Engine(new Rng('7'));
  readonly clock = new VClock(this.engine);
  readonly tracer = new RecordingTracer(this.engine);
  readonly api: ApiServer;
  readonly client: KubeClient;
  readonly runtime: Runtime;
  readonly config: KubeletConfig;
  pm!: PodManager;
  sm!: StatusManager;
  node!: Node;
  private incarnation = 0;
  alive = false;

  constructor(readonly opts: HarnessOptions) {
    this.config = kubeletConfig(opts.variant, opts.config);
    this.api = new ApiServer({ engine: this.engine, clock: this.clock, rng: this.engine.rng.fork('apiserver'), tracer: this.tracer });
    const api = this.api;
    const h = this;
    const call = function* <T>(f: () => ApiResult<T>): Proc<ApiResult<T>> {
      yield 1;
      return f();
    };
    this.client = {
      getPod: (ns: string, name: string) => call(() => api.get(ns, name, 'kubelet')),
      patchPodStatus: (ns: string, name: string, patch: object) => call(() => api.patchStatus(ns, name, patch, 'kubelet')),
      deletePod: (ns: string, name: string, o: DeleteOptions) => call(() => api.delete(ns, name, o, 'kubelet')),
      createPod: (pod: Pod) => call(() => api.create(pod, 'kubelet')),
    };
    this.runtime = new Runtime({ engine: this.engine, clock: this.clock, rng: this.engine.rng.fork('runtime'), tracer: this.tracer });
    api.watch((ev) => this.engine.after(1, () => h.onWatch(ev.type, ev.object)));
    for (const p of opts.pods ?? []) api.create(p, 'user');
    this.startKubelet();
  }

  behaviourOf(pod: Pod): Record<string, Attempt[]> {
    return this.opts.behaviour?.[pod.metadata?.name ?? ''] ?? {};
  }

  startKubelet(): void {
    const group = `kubelet-${++this.incarnation}`;
    this.pm = new PodManager();
    const node: { n: Node | null } = { n: null };
    this.sm = new StatusManager({
      engine: this.engine,
      clock: this.clock,
      client: this.client,
      podManager: this.pm,
      deletionSafety: {
        podResourcesAreReclaimed: (p, s) => node.n!.deletionSafety.podResourcesAreReclaimed(p, s),
        podCouldHaveRunningContainers: (p) => node.n!.deletionSafety.podCouldHaveRunningContainers(p),
      },
      tracer: this.tracer,
      config: { variant: this.opts.variant, syncPeriodMs: 10_000, statusChannelCapacity: 1000, featureGates: this.config.featureGates },
      group,
      rng: this.engine.rng.fork(`${group}/status`),
    });
    for (const p of this.api.list()) this.pm.addPod(p);
    this.node = new Node({
      engine: this.engine,
      clock: this.clock,
      rng: this.engine.rng.fork(`${group}/node`),
      tracer: this.tracer,
      statusManager: this.sm,
      podManager: this.pm,
      client: this.client,
      config: this.config,
      runtime: this.runtime,
      behaviour: (pod) => this.behaviourOf(pod),
      group,
      tuning: this.opts.tuning,
    });
    node.n = this.node;
    this.alive = true;
    this.sm.start();
    this.node.start();
    for (const p of this.pm.getPods()) this.node.podAdded(p);
  }

  stopKubelet(): void {
    this.node.stop();
    this.sm.stop();
    this.alive = false;
  }

  private onWatch(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Pod): void {
    if (!this.alive) return;
    const pm = this.pm;
    if (type === 'DELETED') {
      pm.removePod(obj);
      this.node.podRemoved(obj);
      return;
    }
    const known = isMirrorPod(obj) ? pm.getMirrorPods().some((p) => p.metadata?.uid === obj.metadata?.uid) : pm.getPodByUID(obj.metadata!.uid!) !== undefined;
    if (known) {
      pm.updatePod(obj);
      this.node.podUpdated(obj);
    } else {
      pm.addPod(obj);
      this.node.podAdded(obj);
    }
  }

  run(untilMs: number): void {
    this.engine.run({ untilMs, maxEvents: 2_000_000 });
  }

  at(ms: number, fn: () => void): void {
    this.engine.at(ms, fn);
  }

  apiPod(name: string): Pod | undefined {
    return this.api.peek('default', name);
  }

  /** Instants (ms) of runtime.start for a pod's container. */
  starts(name: string, container = 'main'): number[] {
    return this.tracer.of('runtime.start', `default/${name}`).filter((r) => r.container === container).map((r) => r.t);
  }

  key(name: string): string {
    return podKey({ metadata: { name, namespace: 'default' } });
  }
}
