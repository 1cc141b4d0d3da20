// world.ts wires the actors onto one engine: the apiserver, the network between it and the kubelet,
// and the kubelet (pod manager, status manager and, with `runtime: simulated`, the node). It runs
// the timeline steps and evaluates the scenario's expectations.
import { produce } from 'immer';
import { Engine, RunawayError, rootRng, type ChoiceLog, type ChoiceOptions, type Process, type Timer } from '../engine/index.js';
import { ApiServer } from '../apiserver/index.js';
import { NetworkClient, Network } from '../network/index.js';
import { VClock, formatRfc3339 } from '../model/time.js';
import { isMirrorPod, isStaticPod, podKey, type Pod, type PodStatus, type UID } from '../model/pod.js';
import type { PodDeletionSafetyProvider } from '../model/client.js';
import type { FeatureGate, KubeletConfig, Scenario, ScenarioPod, Step, Variant } from '../scenario/types.js';
import { PodManager } from '../kubelet/pod-manager.js';
import { StatusManager } from '../kubelet/status/status-manager.js';
import { Node, Runtime } from '../kubelet/node/index.js';
import { StaticDeletionSafety } from './deletion-safety.js';
import { WorldTracer, type TraceRecord } from './tracer.js';

export interface WorldOptions {
  seed?: number;
  untilMs?: number;
  variant?: Variant;
  maxEvents?: number;
  /** Keep every trace record in memory (needed for trace files and most assertions). */
  keepTrace?: boolean;
  /** Record the run's choices, drive it from a given sequence, make ties choice points
   *  (docs/choices.md). Absent: the plain seeded run. */
  choices?: ChoiceOptions;
}

/** One incarnation of the kubelet process: everything it holds in memory. */
export interface KubeletIncarnation {
  n: number;
  group: string;
  podManager: PodManager;
  statusManager: StatusManager;
  node: Node | null;
  safety: PodDeletionSafetyProvider;
}

export class World {
  readonly engine: Engine;
  readonly clock: VClock;
  readonly tracer: WorldTracer;
  readonly apiserver: ApiServer;
  readonly network: Network;
  readonly seed: number;
  readonly variant: Variant;
  readonly untilMs: number;
  readonly maxEvents: number;
  /** The log of a driven run (choices recorded or replayed), else null. */
  readonly choiceLog: ChoiceLog | null;
  /** The runtime outlives kubelet restarts: containers keep running. */
  readonly runtime: Runtime | null;
  kubelet: KubeletIncarnation | null = null;
  private incarnations = 0;
  private readonly processes: Process[] = [];
  /** Keys whose apiserver objects live on another node (`only: apiserver`): the kubelet never sees them. */
  private readonly hiddenKeys = new Set<string>();
  readonly staticSafety: StaticDeletionSafety;
  /** Runtime errors of steps (e.g. a node action with runtime none): reported as failures. */
  readonly stepErrors: Array<{ step: Step; message: string }> = [];

  constructor(readonly scenario: Scenario, opts: WorldOptions = {}) {
    this.seed = opts.seed ?? scenario.seed;
    this.variant = opts.variant ?? scenario.kubelet.statusManager;
    this.untilMs = opts.untilMs ?? scenario.untilMs;
    this.maxEvents = opts.maxEvents ?? 50_000_000;
    const { rng, log } = rootRng(String(this.seed), opts.choices);
    this.choiceLog = log;
    this.engine = new Engine(rng);
    this.clock = new VClock(this.engine, scenario.epoch);
    this.tracer = new WorldTracer(this.engine, opts.keepTrace ?? true);
    const k = scenario.kubelet;
    this.apiserver = new ApiServer({ engine: this.engine, clock: this.clock, rng: rng.fork('apiserver'), tracer: this.tracer });
    this.network = new Network({
      engine: this.engine,
      apiserver: this.apiserver,
      rng: rng.fork('network'),
      tracer: this.tracer,
      latency: scenario.apiserver.latency,
      qps: k.apiQPS,
      burst: k.apiBurst,
      requestTimeoutMs: k.requestTimeoutMs,
    });
    this.staticSafety = new StaticDeletionSafety({ ...k.deletionSafety });
    this.runtime = k.runtime === 'simulated' ? new Runtime({ engine: this.engine, clock: this.clock, rng: rng.fork('runtime'), tracer: this.tracer }) : null;
  }

  /** The kubelet configuration of this run: a --status-manager override also moves the feature
   *  gates the file left to the generation's defaults. */
  get config(): KubeletConfig {
    const k = this.scenario.kubelet;
    if (this.variant === k.statusManager) return k;
    const gates = { ...k.featureGates };
    for (const g of Object.keys(gates) as FeatureGate[]) gates[g] = k.explicitFeatureGates?.[g] ?? this.variant === 'current';
    return { ...k, statusManager: this.variant, featureGates: gates };
  }

  // ---- set-up -------------------------------------------------------------------------------

  /** Pods created at 0s are in the apiserver and, as if the informer had synced before the run,
   *  in the kubelet's pod manager; later ones reach the kubelet through the watch. */
  setup(): void {
    const s = this.scenario;
    for (const sp of s.pods) {
      if (sp.only === 'apiserver') this.hiddenKeys.add(sp.key);
    }
    // The watch feeds the current kubelet incarnation's pod manager.
    this.network.watch((ev) => this.onWatchEvent(ev.type, ev.object));
    for (const sp of s.pods) {
      if (sp.only === 'kubelet' || sp.createAtMs !== 0) continue;
      this.createInApiserver(sp, 'user');
    }
    this.startKubelet(true);
    for (const sp of s.pods) {
      if (sp.only === 'kubelet') this.kubeletOnlyPod(sp);
      else if (typeof sp.createAtMs === 'number' && sp.createAtMs > 0) {
        this.engine.at(sp.createAtMs, () => this.createInApiserver(sp, 'user'));
      }
    }
    for (const step of [...s.timeline].sort((a, b) => a.atMs - b.atMs || a.index - b.index)) {
      this.engine.at(step.atMs, () => this.runStep(step));
    }
  }

  private createInApiserver(sp: ScenarioPod, actor: 'user' | 'kubelet'): Pod | undefined {
    const r = this.apiserver.create(sp.pod, actor);
    return r.ok ? r.value : undefined;
  }

  private kubeletOnlyPod(sp: ScenarioPod): void {
    // The kubelet holds an incarnation the apiserver never had (or has replaced).
    let pod = sp.pod;
    if (!pod.metadata?.uid) {
      const uid = this.apiserver.newUID();
      pod = produce(pod, (d) => {
        d.metadata!.uid = uid;
      });
    }
    this.kubeletOnlyPods.set(sp.key, pod);
    this.kubelet!.podManager.addPod(pod);
    this.kubelet!.node?.podAdded(pod);
  }
  private readonly kubeletOnlyPods = new Map<string, Pod>();
  /** The comeback of a kubelet stopped by restartKubelet, while it is down. */
  private pendingKubeletStart: Timer | null = null;
  /** The last copy of each (non-mirror) pod the kubelet was given, kept after the pod manager drops
   *  it: upstream calls TerminatePod and reads the cache of pods already gone from its config. */
  private readonly lastKnown = new Map<string, Pod>();

  private onWatchEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Pod): void {
    const kl = this.kubelet;
    if (kl === null) return;
    const key = podKey(obj);
    if (this.hiddenKeys.has(key)) return;
    if ((obj.spec?.nodeName ?? '') !== this.scenario.kubelet.nodeName) return;
    const pm = kl.podManager;
    if (!isMirrorPod(obj)) this.lastKnown.set(key, obj);
    if (type === 'DELETED') {
      pm.removePod(obj);
      kl.node?.podRemoved(obj);
      return;
    }
    const uid = obj.metadata?.uid ?? '';
    const known = isMirrorPod(obj) ? pm.getMirrorPodByUID(uid) !== undefined : pm.getPodByUID(uid) !== undefined;
    if (known) {
      pm.updatePod(obj);
      kl.node?.podUpdated(obj);
    } else {
      pm.addPod(obj);
      kl.node?.podAdded(obj);
    }
  }

  /** Start a kubelet incarnation: a fresh pod manager (listed from the apiserver), a fresh status
   *  manager, and the node processes. */
  startKubelet(initial: boolean): void {
    const n = ++this.incarnations;
    const group = `kubelet-${n}`;
    const k = this.config;
    const podManager = new PodManager();
    const client = new NetworkClient(this.network, group);
    let safety: PodDeletionSafetyProvider = this.staticSafety;
    const incarnation: KubeletIncarnation = { n, group, podManager, statusManager: null!, node: null, safety };
    const statusManager = new StatusManager({
      engine: this.engine,
      clock: this.clock,
      client,
      podManager,
      deletionSafety: { podResourcesAreReclaimed: (p, s) => incarnation.safety.podResourcesAreReclaimed(p, s), podCouldHaveRunningContainers: (p) => incarnation.safety.podCouldHaveRunningContainers(p) },
      tracer: this.tracer,
      config: { variant: this.variant, syncPeriodMs: k.syncPeriodMs, statusChannelCapacity: k.statusChannelCapacity, featureGates: k.featureGates },
      group,
      rng: this.engine.rng.fork(`${group}/status`),
    });
    incarnation.statusManager = statusManager;
    this.kubelet = incarnation;
    // The informer's initial list.
    for (const pod of this.apiserver.list()) {
      if (this.hiddenKeys.has(podKey(pod))) continue;
      if ((pod.spec?.nodeName ?? '') !== k.nodeName) continue;
      podManager.addPod(pod);
      if (!isMirrorPod(pod)) this.lastKnown.set(podKey(pod), pod);
    }
    if (this.runtime !== null) {
      const node = new Node({
        engine: this.engine,
        clock: this.clock,
        rng: this.engine.rng.fork(`${group}/node`),
        tracer: this.tracer,
        statusManager,
        podManager,
        client,
        config: k,
        runtime: this.runtime,
        behaviour: (pod: Pod) => this.behaviourOf(pod),
        group,
      });
      incarnation.node = node;
      incarnation.safety = node.deletionSafety;
    }
    this.tracer.emit({ type: 'kubelet.start', actor: 'kubelet', incarnation: n, variant: this.variant });
    statusManager.start();
    if (incarnation.node) {
      incarnation.node.start();
      for (const pod of podManager.getPods()) incarnation.node.podAdded(pod);
      for (const sp of this.scenario.staticPods) incarnation.node.addStaticPod(sp.pod);
    } else {
      for (const sp of this.scenario.staticPods) podManager.addPod(sp.pod);
    }
    void initial;
  }

  stopKubelet(): void {
    const kl = this.kubelet;
    if (kl === null) return;
    kl.node?.stop();
    kl.statusManager.stop();
    this.network.killGroup(kl.group);
    this.tracer.emit({ type: 'kubelet.stop', actor: 'kubelet', incarnation: kl.n });
    this.kubelet = null;
  }

  behaviourOf(pod: Pod): ScenarioPod['containers'] {
    let byKey = this.behaviours;
    if (byKey === null) {
      // The first pod of each key that the kubelet may run (then static pods), as a lookup.
      byKey = this.behaviours = new Map();
      for (const p of this.scenario.pods) if (p.only !== 'apiserver' && !byKey.has(p.key)) byKey.set(p.key, p.containers);
      for (const p of this.scenario.staticPods) if (!byKey.has(p.key)) byKey.set(p.key, p.containers);
    }
    return byKey.get(podKey(pod)) ?? {};
  }
  private behaviours: Map<string, ScenarioPod['containers']> | null = null;

  // ---- lookups used by steps and assertions -------------------------------------------------

  /** The kubelet's copy of a pod named in a status-manager step or a kubelet assertion. */
  kubeletPod(key: string): Pod | undefined {
    const kl = this.kubelet;
    if (kl === null) return undefined;
    let fullName = this.fullNames.get(key);
    if (fullName === undefined) {
      const [ns, name] = key.split('/');
      this.fullNames.set(key, (fullName = `${name}_${ns}`));
    }
    const pod = kl.podManager.getPodByFullName(fullName);
    if (pod !== undefined) return pod;
    return this.kubeletOnlyPods.get(key) ?? this.lastKnown.get(key);
  }

  /** "ns/name" → the pod manager's full name "name_ns", for the steps' lookups. */
  private readonly fullNames = new Map<string, string>();

  /** The apiserver's current object of that name. */
  apiPod(key: string): Pod | undefined {
    const [ns, name] = key.split('/');
    return this.apiserver.peek(ns, name);
  }

  // ---- timeline ------------------------------------------------------------------------------

  private runStep(step: Step): void {
    this.tracer.emit({ type: 'step', actor: 'timeline', pod: 'pod' in step ? (step as { pod: string }).pod : undefined, action: step.action, index: step.index });
    try {
      this.applyStep(step);
    } catch (err) {
      if (err instanceof StepError) this.stepErrors.push({ step, message: err.message });
      else throw err;
    }
  }

  private requireKubelet(step: Step): KubeletIncarnation {
    if (this.kubelet === null) throw new StepError(`the kubelet is down at ${step.atMs}ms (restartKubelet downFor): ${step.action} cannot run`);
    return this.kubelet;
  }

  private requireNode(step: Step): Node {
    const kl = this.requireKubelet(step);
    if (kl.node === null) throw new StepError(`${step.action} needs runtime: simulated`);
    return kl.node;
  }

  private requireKubeletPod(step: Step, key: string): Pod {
    const pod = this.kubeletPod(key);
    if (pod === undefined) throw new StepError(`pod ${key} is not known to the kubelet at ${step.atMs}ms`);
    return pod;
  }

  private containerID(step: Step, pod: Pod, container: string): string {
    const st = this.kubelet!.statusManager.getPodStatus(pod.metadata!.uid!);
    const all = [...(st?.containerStatuses ?? []), ...(st?.initContainerStatuses ?? [])];
    const cs = all.find((c) => c.name === container);
    // Upstream looks the container up by ID; a container without one is matched by its name.
    return cs?.containerID ?? `containerd://${container}`;
  }

  private applyStep(step: Step): void {
    const api = this.apiserver;
    switch (step.action) {
      case 'create': {
        const sp = this.scenario.pods.find((p) => p.key === step.pod && p.only !== 'kubelet')!;
        this.createInApiserver(sp, 'user');
        return;
      }
      case 'delete': {
        const [ns, name] = step.pod.split('/');
        api.delete(ns, name, { gracePeriodSeconds: step.gracePeriodSeconds }, 'user');
        return;
      }
      case 'recreate': {
        const [ns, name] = step.pod.split('/');
        api.delete(ns, name, { gracePeriodSeconds: 0 }, 'user');
        const sp = this.scenario.pods.find((p) => p.key === step.pod && p.only !== 'kubelet')!;
        const fresh = produce(sp.pod, (d) => {
          delete d.metadata!.uid;
        });
        api.create(fresh, 'user');
        return;
      }
      case 'externalPatch': {
        const [ns, name] = step.pod.split('/');
        api.externalPatch(ns, name, step.status, 'controller');
        return;
      }
      case 'restartApiserver':
        this.network.restartApiserver(step.downForMs);
        return;
      case 'partition':
        this.network.partition();
        return;
      case 'repair':
        this.network.repair();
        return;
      case 'fail':
        this.network.fail(step.verbs, step.code, { count: step.count, forMs: step.forMs });
        return;
      case 'latency':
        this.network.setLatency(step.latency);
        return;
      case 'createMirror': {
        const sp = this.scenario.staticPods.find((p) => p.key === step.pod)!;
        const mirror = mirrorOf(sp.pod);
        const r = api.create(mirror, 'kubelet');
        if (r.ok && this.kubelet) this.kubelet.podManager.addPod(r.value);
        return;
      }
      case 'deleteMirror': {
        const [ns, name] = step.pod.split('/');
        api.delete(ns, name, {}, 'user');
        return;
      }
      case 'exit': {
        const node = this.requireNode(step);
        node.exit(this.requireKubeletPod(step, step.pod).metadata!.uid!, step.container, step.code, step.reason, step.message);
        return;
      }
      case 'oom': {
        const node = this.requireNode(step);
        node.oom(this.requireKubeletPod(step, step.pod).metadata!.uid!, step.container);
        return;
      }
      case 'ready': {
        const node = this.requireNode(step);
        node.setReady(this.requireKubeletPod(step, step.pod).metadata!.uid!, step.container, step.value);
        return;
      }
      case 'started': {
        const node = this.requireNode(step);
        node.setStarted(this.requireKubeletPod(step, step.pod).metadata!.uid!, step.container, step.value);
        return;
      }
      case 'restartKubelet': {
        // A restart while the kubelet is down (an earlier restart's downFor) replaces that one's
        // comeback, as a restartApiserver while down does: there is never more than one kubelet.
        this.stopKubelet();
        this.pendingKubeletStart?.cancel();
        this.pendingKubeletStart = null;
        if (step.downForMs > 0) {
          this.pendingKubeletStart = this.engine.after(step.downForMs, () => {
            this.pendingKubeletStart = null;
            this.startKubelet(false);
          });
        } else this.startKubelet(false);
        return;
      }
      case 'setPodStatus': {
        const kl = this.requireKubelet(step);
        kl.statusManager.setPodStatus(this.requireKubeletPod(step, step.pod), step.status);
        return;
      }
      case 'setContainerReadiness': {
        const kl = this.requireKubelet(step);
        const pod = this.requireKubeletPod(step, step.pod);
        kl.statusManager.setContainerReadiness(pod.metadata!.uid!, this.containerID(step, pod, step.container), step.ready);
        return;
      }
      case 'setContainerStartup': {
        const kl = this.requireKubelet(step);
        const pod = this.requireKubeletPod(step, step.pod);
        kl.statusManager.setContainerStartup(pod.metadata!.uid!, this.containerID(step, pod, step.container), step.started);
        return;
      }
      case 'terminatePod': {
        const kl = this.requireKubelet(step);
        kl.statusManager.terminatePod(this.requireKubeletPod(step, step.pod));
        return;
      }
      case 'removeOrphanedStatuses': {
        const kl = this.requireKubelet(step);
        const keep = new Set<UID>();
        for (const key of step.keep) {
          const p = this.kubeletPod(key);
          if (p?.metadata?.uid) keep.add(p.metadata.uid);
          const [ns, name] = key.split('/');
          const m = kl.podManager.getMirrorPods().find((x) => x.metadata?.name === name && x.metadata?.namespace === ns);
          if (m?.metadata?.uid) keep.add(m.metadata.uid);
        }
        kl.statusManager.removeOrphanedStatuses(keep);
        return;
      }
      case 'syncBatch':
        this.requireKubelet(step).statusManager.triggerBatch(step.all);
        return;
      case 'markDeleted': {
        const [ns, name] = step.pod.split('/');
        const now = formatRfc3339(this.clock.epochMs + this.engine.nowMs);
        const updated = api.markDeleted(ns, name, now);
        const kl = this.kubelet;
        if (kl) {
          const kp = this.kubeletPod(step.pod);
          if (kp !== undefined) {
            const withTs = produce(kp, (d) => {
              d.metadata!.deletionTimestamp = now;
              d.metadata!.deletionGracePeriodSeconds ??= 0;
            });
            if (this.kubeletOnlyPods.has(step.pod)) this.kubeletOnlyPods.set(step.pod, withTs);
            kl.podManager.updatePod(updated?.metadata?.uid === withTs.metadata?.uid && updated ? updated : withTs);
            kl.node?.podUpdated(withTs);
          }
        }
        return;
      }
      case 'setDeletionSafety': {
        const { podResourcesReclaimed, podCouldHaveRunningContainers } = step;
        const uid = step.pod !== undefined ? this.kubeletPod(step.pod)?.metadata?.uid : undefined;
        this.staticSafety.set({ podResourcesReclaimed, podCouldHaveRunningContainers }, uid);
        return;
      }
      case 'setApiStatusVersion': {
        const kl = this.requireKubelet(step);
        const kp = this.kubeletPod(step.pod);
        let uid = kp?.metadata?.uid;
        if (kp && isStaticPod(kp)) uid = kl.podManager.getMirrorPodByPod(kp)?.metadata?.uid ?? uid;
        if (uid === undefined) throw new StepError(`pod ${step.pod} is not known to the kubelet`);
        kl.statusManager.setApiStatusVersion(uid, step.version);
        return;
      }
    }
  }

  // ---- running ------------------------------------------------------------------------------

  run(hooks: { afterEvent?: () => void; endOfInstant?: (t: number) => void } = {}): { end: 'until' | 'idle' | 'stopped' | 'runaway'; message?: string } {
    try {
      const end = this.engine.run({ untilMs: this.untilMs, maxEvents: this.maxEvents, afterEvent: hooks.afterEvent, endOfInstant: hooks.endOfInstant });
      return { end };
    } catch (err) {
      if (err instanceof RunawayError) return { end: 'runaway', message: err.message };
      throw err;
    }
  }

  get trace(): readonly TraceRecord[] {
    return this.tracer.records;
  }
}

export class StepError extends Error {}

/** The mirror pod the kubelet would create for a static pod. */
export function mirrorOf(staticPod: Pod): Pod {
  return produce(staticPod, (d) => {
    delete d.metadata!.uid;
    const hash = d.metadata!.annotations?.['kubernetes.io/config.hash'] ?? '';
    d.metadata!.annotations = { ...d.metadata!.annotations, 'kubernetes.io/config.mirror': hash };
    d.status = { phase: 'Pending' };
  });
}

export type { PodStatus };
