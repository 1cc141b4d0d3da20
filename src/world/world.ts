// world.ts wires the actors onto one engine: the apiserver and, per node, a site (node-site.ts:
// the node's link to the apiserver, its runtime and its kubelet — pod manager, status manager and,
// with `runtime: simulated`, the node). It sets the run up and runs the timeline steps through the
// step table (steps/), each on the site of its node (step-routing.ts); the kubelet's lifecycle is
// kubelet-lifecycle.ts, the expectations assertions.ts.
import { Engine, RunawayError, rootRng, type ChoiceLog, type ChoiceOptions } from '../engine/index.js';
import { ApiServer, ApiServerLoad } from '../apiserver/index.js';
import type { Network } from '../network/index.js';
import { VClock } from '../model/time.js';
import { podKey, type Pod, type PodStatus } from '../model/pod.js';
import type { KubeletConfig, Scenario, ScenarioPod, Step, Variant } from '../scenario/types.js';
import type { Runtime } from '../kubelet/node/index.js';
import type { StaticDeletionSafety } from './deletion-safety.js';
import type { KubeletIncarnation } from './kubelet-lifecycle.js';
import { setupNodeLifecycle } from './node-lifecycle.js';
import { NodeSite } from './node-site.js';
import { NodeTracer } from './node-tracer.js';
import { applyStep, StepError } from './steps/index.js';
import { sitesOfStep } from './step-routing.js';
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

export class World {
  readonly engine: Engine;
  readonly clock: VClock;
  readonly tracer: WorldTracer;
  readonly apiserver: ApiServer;
  readonly seed: number;
  readonly variant: Variant;
  readonly untilMs: number;
  readonly maxEvents: number;
  /** The log of a driven run (choices recorded or replayed), else null. */
  readonly choiceLog: ChoiceLog | null;
  /** One site per node, the default node first (spec.nodes; else the one node of spec.kubelet). */
  readonly sites: readonly NodeSite[];
  /** The sites by node name. */
  readonly siteByName: ReadonlyMap<string, NodeSite>;
  /** Keys whose apiserver objects live on no node of the scenario (`only: apiserver`): no kubelet sees them. */
  readonly hiddenKeys = new Set<string>();
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
    this.apiserver = new ApiServer({ engine: this.engine, clock: this.clock, rng: rng.fork('apiserver'), tracer: this.tracer });
    const { serviceTime, apf } = scenario.apiserver;
    if (serviceTime !== undefined || apf !== undefined) this.apiserver.load = new ApiServerLoad(this.engine, this.tracer, { serviceTime, apf });
    const nodes = scenario.nodes;
    if (nodes === undefined) {
      // One node, built as it always was: the root's 'network' and 'runtime' streams, the world's tracer.
      this.sites = [new NodeSite(this, { kubelet: scenario.kubelet, tracer: this.tracer, rng, groupPrefix: '', selectNode: false })];
    } else {
      this.sites = nodes.map(
        (n) => new NodeSite(this, { kubelet: n.kubelet, tracer: new NodeTracer(this.tracer, n.name), rng: rng.fork(`node/${n.name}`), groupPrefix: `${n.name}/`, selectNode: true }),
      );
    }
    this.siteByName = new Map(this.sites.map((s) => [s.name, s]));
  }

  /** The default node's site: pods without spec.nodeName, static pods, and node actions without `node:`. */
  get defaultSite(): NodeSite {
    return this.sites[0];
  }
  /** The default node's link (the one link of a single-node scenario). */
  get network(): Network {
    return this.sites[0].network;
  }
  /** The default node's runtime: it outlives kubelet restarts (containers keep running). */
  get runtime(): Runtime | null {
    return this.sites[0].runtime;
  }
  /** The default node's kubelet incarnation now, or null while it is down. */
  get kubelet(): KubeletIncarnation | null {
    return this.sites[0].kubelet;
  }
  get staticSafety(): StaticDeletionSafety {
    return this.sites[0].staticSafety;
  }
  get kubeletOnlyPods(): Map<string, Pod> {
    return this.sites[0].kubeletOnlyPods;
  }
  get removedStaticPods(): Set<string> {
    return this.sites[0].removedStaticPods;
  }
  get lastKnown(): Map<string, Pod> {
    return this.sites[0].lastKnown;
  }

  /** The default node's kubelet configuration of this run (node-site.ts config). */
  get config(): KubeletConfig {
    return this.sites[0].config;
  }

  /** The site of the node a pod is bound to (its spec.nodeName; the default node's when it names
   *  none of the scenario's nodes, as with one node). */
  siteOfPod(key: string): NodeSite {
    if (this.sites.length === 1) return this.sites[0];
    let byKey = this.podNodes;
    if (byKey === null) {
      byKey = this.podNodes = new Map();
      for (const p of this.scenario.pods) if (!byKey.has(p.key)) byKey.set(p.key, p.pod.spec?.nodeName ?? '');
    }
    return this.siteByName.get(byKey.get(key) ?? '') ?? this.sites[0];
  }
  private podNodes: Map<string, string> | null = null;

  // ---- set-up -------------------------------------------------------------------------------

  /** Pods created at 0s are in the apiserver and, as if the informer had synced before the run,
   *  in the kubelet's pod manager; later ones reach the kubelet through the watch. */
  setup(): void {
    const s = this.scenario;
    for (const sp of s.pods) {
      if (sp.only === 'apiserver') this.hiddenKeys.add(sp.key);
    }
    for (const site of this.sites) site.watch();
    for (const sp of s.pods) {
      if (sp.only === 'kubelet' || sp.createAtMs !== 0) continue;
      this.createInApiserver(sp, 'user');
    }
    if (s.nodeLifecycle) setupNodeLifecycle(this.sites, s.nodeLifecycle, this.tracer, new Map((s.nodes ?? []).map((n) => [n.name, n.labels])));
    for (const site of this.sites) site.startKubelet();
    for (const sp of s.pods) {
      if (sp.only === 'kubelet') this.siteOfPod(sp.key).kubeletOnlyPod(sp);
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

  /** Restart the default node's kubelet (restartKubelet without `node:`). */
  restartKubelet(downForMs: number): void {
    this.sites[0].restartKubelet(downForMs);
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

  /** The kubelet's copy of a pod named in a status-manager step or a kubelet assertion (the
   *  kubelet of the pod's node). */
  kubeletPod(key: string): Pod | undefined {
    return this.siteOfPod(key).kubeletPod(key);
  }

  /** The apiserver's current object of that name. */
  apiPod(key: string): Pod | undefined {
    const [ns, name] = key.split('/');
    return this.apiserver.peek(ns, name);
  }

  // ---- timeline ------------------------------------------------------------------------------

  private runStep(step: Step): void {
    this.tracer.emit({ type: 'step', actor: 'timeline', pod: 'pod' in step ? (step as { pod: string }).pod : undefined, action: step.action, index: step.index });
    for (const site of sitesOfStep(this, step)) {
      try {
        applyStep(site, step);
      } catch (err) {
        if (err instanceof StepError) this.stepErrors.push({ step, message: err.message });
        else throw err;
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

export type { PodStatus };
