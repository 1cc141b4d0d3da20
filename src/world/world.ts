// world.ts wires the actors onto one engine: the apiserver, the network between it and the kubelet,
// and the kubelet (pod manager, status manager and, with `runtime: simulated`, the node). It sets
// the run up, feeds the watch to the kubelet, and runs the timeline steps through the step table
// (steps/); the kubelet's lifecycle is kubelet-lifecycle.ts, the expectations assertions.ts.
import { produce } from 'immer';
import { Engine, RunawayError, rootRng, type ChoiceLog, type ChoiceOptions, type Timer } from '../engine/index.js';
import { ApiServer, ApiServerLoad } from '../apiserver/index.js';
import { Network } from '../network/index.js';
import { VClock } from '../model/time.js';
import { isMirrorPod, podKey, type Pod, type PodStatus } from '../model/pod.js';
import { featureGateDefault, type FeatureGate, type KubeletConfig, type Scenario, type ScenarioPod, type Step, type Variant } from '../scenario/types.js';
import { Runtime } from '../kubelet/node/index.js';
import { StaticDeletionSafety } from './deletion-safety.js';
import { startIncarnation, stopIncarnation, type KubeletHost, type KubeletIncarnation } from './kubelet-lifecycle.js';
import { setupNodeLifecycle } from './node-lifecycle.js';
import { applyStep, StepError, type StepContext } from './steps/index.js';
import { WorldTracer, type TraceRecord } from './tracer.js';

export { StepError, mirrorOf } from './steps/index.js';
export type { KubeletIncarnation } from './kubelet-lifecycle.js';

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

export class World implements StepContext, KubeletHost {
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
  /** Keys whose apiserver objects live on another node (`only: apiserver`): the kubelet never sees them. */
  readonly hiddenKeys = new Set<string>();
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
    const { serviceTime, apf } = scenario.apiserver;
    if (serviceTime !== undefined || apf !== undefined) this.apiserver.load = new ApiServerLoad(this.engine, this.tracer, { serviceTime, apf });
    this.staticSafety = new StaticDeletionSafety({ ...k.deletionSafety });
    this.runtime = k.runtime === 'simulated' ? new Runtime({ engine: this.engine, clock: this.clock, rng: rng.fork('runtime'), tracer: this.tracer }) : null;
  }

  /** The kubelet configuration of this run: a --status-manager override also moves the feature
   *  gates the file left to the generation's defaults. */
  get config(): KubeletConfig {
    const k = this.scenario.kubelet;
    if (this.variant === k.statusManager) return k;
    const gates = { ...k.featureGates };
    for (const g of Object.keys(gates) as FeatureGate[]) gates[g] = k.explicitFeatureGates?.[g] ?? featureGateDefault(g, this.variant);
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
    if (s.nodeLifecycle) setupNodeLifecycle(this, s.nodeLifecycle);
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

  createInApiserver(sp: ScenarioPod, actor: 'user' | 'kubelet'): Pod | undefined {
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
  readonly kubeletOnlyPods = new Map<string, Pod>();
  /** Static pods whose manifest a removeStaticPod step took out of the manifest directory, by key. */
  readonly removedStaticPods = new Set<string>();
  /** The comeback of a kubelet stopped by restartKubelet, while it is down. */
  private pendingKubeletStart: Timer | null = null;
  /** The last copy of each (non-mirror) pod the kubelet was given, kept after the pod manager drops
   *  it: upstream calls TerminatePod and reads the cache of pods already gone from its config. */
  readonly lastKnown = new Map<string, Pod>();

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

  /** Start a kubelet incarnation (kubelet-lifecycle.ts). */
  startKubelet(initial: boolean): void {
    startIncarnation(this, ++this.incarnations, (kl) => {
      this.kubelet = kl;
    });
    void initial;
  }

  stopKubelet(): void {
    const kl = this.kubelet;
    if (kl === null) return;
    stopIncarnation(this, kl);
    this.kubelet = null;
  }

  /** The restartKubelet step. A restart while the kubelet is down (an earlier restart's downFor)
   *  replaces that one's comeback, as a restartApiserver while down does: there is never more
   *  than one kubelet. */
  restartKubelet(downForMs: number): void {
    if (this.poweredOff) return;
    this.stopKubelet();
    this.pendingKubeletStart?.cancel();
    this.pendingKubeletStart = null;
    if (downForMs > 0) {
      this.pendingKubeletStart = this.engine.after(downForMs, () => {
        this.pendingKubeletStart = null;
        this.startKubelet(false);
      });
    } else this.startKubelet(false);
  }

  /** The node is off (nodeShutdown's power-off): no kubelet comes back. */
  poweredOff = false;

  /** The end of a nodeShutdown: the kubelet stops (its in-flight requests are dropped), the
   *  runtime's containers stop where they are, and no restart brings the kubelet back. */
  powerOff(): void {
    this.poweredOff = true;
    this.stopKubelet();
    this.pendingKubeletStart?.cancel();
    this.pendingKubeletStart = null;
    this.runtime?.halt();
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
      applyStep(this, step);
    } catch (err) {
      if (err instanceof StepError) this.stepErrors.push({ step, message: err.message });
      else throw err;
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

export type { PodStatus };
