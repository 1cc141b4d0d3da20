// One node of the world: its kubelet (the current incarnation, restarts), its container runtime
// (it outlives kubelet restarts), and its link to the apiserver (the Network: latency, partition,
// injected failures, the pod informer's watch with the field selector spec.nodeName=<node>). The
// world holds one site per node on one engine and one apiserver; a scenario without spec.nodes
// has the one site it always had, built exactly as before (same streams, groups and trace).
// A site is what timeline steps act on (StepContext) and what a kubelet incarnation is built
// from (KubeletHost).
import { produce } from 'immer';
import type { Engine, Rng, Timer } from '../engine/index.js';
import type { ApiServer } from '../apiserver/index.js';
import { Network } from '../network/index.js';
import type { VClock } from '../model/time.js';
import { isMirrorPod, podKey, type Pod } from '../model/pod.js';
import type { Tracer } from '../model/trace.js';
import { featureGateDefault, type FeatureGate, type KubeletConfig, type Scenario, type ScenarioPod, type Variant } from '../scenario/types.js';
import { Runtime } from '../kubelet/node/index.js';
import { StaticDeletionSafety } from './deletion-safety.js';
import { startIncarnation, stopIncarnation, type KubeletHost, type KubeletIncarnation } from './kubelet-lifecycle.js';
import type { StepContext } from './steps/index.js';

/** systemd's RestartSec for kubeadm's kubelet.service: a kubelet that exits is started again 10 s later. */
export const KUBELET_RESTART_SEC_MS = 10_000;

/** What a site shares with the world (the World satisfies it). */
export interface SiteWorld {
  readonly scenario: Scenario;
  readonly engine: Engine;
  readonly clock: VClock;
  readonly apiserver: ApiServer;
  readonly variant: Variant;
  readonly hiddenKeys: ReadonlySet<string>;
  behaviourOf(pod: Pod): ScenarioPod['containers'];
  createInApiserver(sp: ScenarioPod, actor: 'user' | 'kubelet'): Pod | undefined;
}

export interface SiteOptions {
  /** The file's kubelet configuration of this node. */
  kubelet: KubeletConfig;
  tracer: Tracer;
  /** The streams of this node's link and runtime: `network`, `runtime` forks are taken from it. */
  rng: Rng;
  /** Prefix of the node's kubelet groups ('' for the one node of a single-node scenario). */
  groupPrefix: string;
  /** Watch with the field selector spec.nodeName (many nodes), or every pod, filtered here (one). */
  selectNode: boolean;
}

export class NodeSite implements StepContext, KubeletHost {
  readonly name: string;
  readonly network: Network;
  readonly runtime: Runtime | null;
  readonly tracer: Tracer;
  readonly staticSafety: StaticDeletionSafety;
  readonly groupPrefix: string;
  kubelet: KubeletIncarnation | null = null;
  private incarnations = 0;
  /** The comeback of a kubelet stopped by restartKubelet, while it is down. */
  private pendingKubeletStart: Timer | null = null;
  readonly kubeletOnlyPods = new Map<string, Pod>();
  /** Static pods whose manifest a removeStaticPod step took out of the manifest directory, by key. */
  readonly removedStaticPods = new Set<string>();
  /** The last copy of each (non-mirror) pod the kubelet was given, kept after the pod manager drops
   *  it: upstream calls TerminatePod and reads the cache of pods already gone from its config. */
  readonly lastKnown = new Map<string, Pod>();
  /** "ns/name" → the pod manager's full name "name_ns", for the steps' lookups. */
  private readonly fullNames = new Map<string, string>();
  private readonly fileConfig: KubeletConfig;

  constructor(readonly world: SiteWorld, opts: SiteOptions) {
    const k = opts.kubelet;
    this.fileConfig = k;
    this.name = k.nodeName;
    this.tracer = opts.tracer;
    this.groupPrefix = opts.groupPrefix;
    this.network = new Network({
      engine: world.engine,
      apiserver: world.apiserver,
      rng: opts.rng.fork('network'),
      tracer: opts.tracer,
      latency: world.scenario.apiserver.latency,
      qps: k.apiQPS,
      burst: k.apiBurst,
      requestTimeoutMs: k.requestTimeoutMs,
    });
    this.staticSafety = new StaticDeletionSafety({ ...k.deletionSafety });
    this.runtime = k.runtime === 'simulated' ? new Runtime({ engine: world.engine, clock: world.clock, rng: opts.rng.fork('runtime'), tracer: opts.tracer }) : null;
    this.selectNode = opts.selectNode;
  }
  private readonly selectNode: boolean;

  get scenario(): Scenario {
    return this.world.scenario;
  }
  get engine(): Engine {
    return this.world.engine;
  }
  get clock(): VClock {
    return this.world.clock;
  }
  get apiserver(): ApiServer {
    return this.world.apiserver;
  }
  get variant(): Variant {
    return this.world.variant;
  }
  get hiddenKeys(): ReadonlySet<string> {
    return this.world.hiddenKeys;
  }

  /** This node's kubelet configuration in this run: a --status-manager override also moves the
   *  feature gates the file left to the generation's defaults. */
  get config(): KubeletConfig {
    const k = this.fileConfig;
    if (this.variant === k.statusManager) return k;
    const gates = { ...k.featureGates };
    for (const g of Object.keys(gates) as FeatureGate[]) gates[g] = k.explicitFeatureGates?.[g] ?? featureGateDefault(g, this.variant);
    return { ...k, statusManager: this.variant, featureGates: gates };
  }

  behaviourOf(pod: Pod): ScenarioPod['containers'] {
    return this.world.behaviourOf(pod);
  }

  createInApiserver(sp: ScenarioPod, actor: 'user' | 'kubelet'): Pod | undefined {
    return this.world.createInApiserver(sp, actor);
  }

  /** The pod informer's watch feeds the current kubelet incarnation's pod manager. */
  watch(): void {
    const listener = (ev: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: Pod }) => this.onWatchEvent(ev.type, ev.object);
    this.network.watch(listener, this.selectNode ? { nodeName: this.name } : undefined);
  }

  kubeletOnlyPod(sp: ScenarioPod): void {
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

  private onWatchEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Pod): void {
    const kl = this.kubelet;
    if (kl === null) return;
    const key = podKey(obj);
    if (this.hiddenKeys.has(key)) return;
    if ((obj.spec?.nodeName ?? '') !== this.name) return;
    if (!isMirrorPod(obj)) this.lastKnown.set(key, obj);
    // the informer hands the update to the config channel: it waits there while the sync loop sleeps
    if (kl.node?.syncLoopClosed) kl.node.deferToSyncLoop(() => this.configUpdate(kl, type, obj));
    else this.configUpdate(kl, type, obj);
  }

  /** syncLoopIteration's configCh: the pod manager and the kubelet's handlers take the update. */
  private configUpdate(kl: KubeletIncarnation, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Pod): void {
    const pm = kl.podManager;
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

  /** Start a kubelet incarnation (kubelet-lifecycle.ts). With containerd down the process exits at
   *  once instead: NewMainKubelet's first CRI call fails (v1.20: the runtime manager's Version;
   *  v1.26+: the CRI client's validateServiceConnection) and systemd starts it again after the
   *  unit's RestartSec (kubeadm's kubelet.service: 10 s). */
  startKubelet(): void {
    if (this.runtime?.criDown) {
      this.tracer.log('error', `failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "unix:///run/containerd/containerd.sock": rpc error: code = Unavailable desc = connection error`);
      this.pendingKubeletStart = this.engine.after(KUBELET_RESTART_SEC_MS, () => {
        this.pendingKubeletStart = null;
        this.startKubelet();
      });
      return;
    }
    startIncarnation(this, ++this.incarnations, (kl) => {
      this.kubelet = kl;
    });
  }

  stopKubelet(): void {
    const kl = this.kubelet;
    if (kl === null) return;
    stopIncarnation(this, kl);
    this.kubelet = null;
  }

  /** The restartKubelet step. A restart while the kubelet is down (an earlier restart's downFor)
   *  replaces that one's comeback, as a restartApiserver while down does: there is never more
   *  than one kubelet on a node. */
  restartKubelet(downForMs: number): void {
    if (this.poweredOff) return;
    this.stopKubelet();
    this.pendingKubeletStart?.cancel();
    this.pendingKubeletStart = null;
    if (downForMs > 0) {
      this.pendingKubeletStart = this.engine.after(downForMs, () => {
        this.pendingKubeletStart = null;
        this.startKubelet();
      });
    } else this.startKubelet();
  }

  /** The restartRuntime step: containerd is down for downForMs (its containers run on under their
   *  shims); the running kubelet notices through its runtime status checks and its PLEG. */
  restartRuntime(downForMs: number): void {
    this.runtimeFault('criDown', 'runtimeDown', downForMs);
  }

  /** The networkPluginDown step: containerd's CNI plugin is not ready for downForMs (its config
   *  gone, its daemon down): the runtime's Status says NetworkReady=false. */
  networkPluginDown(downForMs: number): void {
    this.runtimeFault('networkDown', 'networkNotReady', downForMs);
  }

  /** A fault of the runtime's for downForMs, traced as `fault`; one while it lasts extends it, as a
   *  restartApiserver while down does. */
  private runtimeFault(flag: 'criDown' | 'networkDown', fault: string, downForMs: number): void {
    const rt = this.runtime!;
    const gen = (this.runtimeFaults[flag] ?? 0) + 1;
    this.runtimeFaults[flag] = gen;
    if (!rt[flag]) {
      this.tracer.emit({ type: 'fault.begin', actor: 'runtime', fault, downForMs });
      rt[flag] = true;
      this.kubelet?.node?.runtimeChanged();
    }
    this.engine.after(downForMs, () => {
      if (gen !== this.runtimeFaults[flag]) return;
      rt[flag] = false;
      this.tracer.emit({ type: 'fault.end', actor: 'runtime', fault });
    });
  }
  private readonly runtimeFaults: Partial<Record<'criDown' | 'networkDown', number>> = {};

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
}
