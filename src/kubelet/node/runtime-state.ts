// pkg/kubelet/runtime.go (runtimeState) and kubelet.go's updateRuntimeUp: what the kubelet knows of
// its container runtime's health, which its sync loop and its node's Ready condition read.
//
// updateRuntimeUp runs at the kubelet's start and every 5 s after (`go wait.Until(kl.updateRuntimeUp,
// 5*time.Second, ...)` in Run): it asks the runtime for its Status and, when the runtime answers,
// stamps lastBaseRuntimeSync; when it does not, it logs "Container runtime sanity check failed".
// runtimeErrors then reports
//   - "container runtime status check may not have completed yet" before the first answer (never
//     here: a kubelet does not start with its runtime down),
//   - "container runtime is down" once lastBaseRuntimeSync is maxWaitForContainerRuntime (30 s) old,
//   - "PLEG is not healthy: <err>" from the PLEG's health check (addHealthCheck("PLEG", …): no
//     successful relist for relistThreshold, 3 min),
// aggregated as errors.NewAggregate does (one error bare, several as "[a, b]", flattened).
//
// kss runs that 5 s tick only while it can tell something: from the instant the runtime (or its
// network) goes down until a tick finds both well again, or from a start with the network down. Between
// outages the runtime answers every tick, so lastBaseRuntimeSync is never older than 5 s and the
// check has nothing to say; that keeps a run without an outage free of the ticks' events. Not
// modelled: the runtime's RuntimeReady condition false, and the instant at a start before the first
// status check and relist. The runtime's NetworkReady condition false (its CNI plugin not ready:
// networkPluginDown) sets networkErrors at the next tick, clears it at the first tick that finds it
// ready: the node's Ready condition reports it, and syncPod refuses every pod without hostNetwork
// ("network is not ready: …"); the sync loop does not wait for it.
import type { Proc } from '../../engine/index.js';

/** maxWaitForContainerRuntime (kubelet.go): lastBaseRuntimeSync older than this is "down". */
export const MAX_WAIT_FOR_CONTAINER_RUNTIME_MS = 30_000;
/** updateRuntimeUp's period (kubelet.go Run). */
export const RUNTIME_UP_PERIOD_MS = 5_000;
/** genericPlegRelistThreshold (pleg/generic.go): no relist for this long is unhealthy. */
export const PLEG_RELIST_THRESHOLD_MS = 3 * 60_000;

export const RUNTIME_DOWN = 'container runtime is down';

export interface RuntimeStateHost {
  nowMs(): number;
  /** The instant this kubelet incarnation started (updateRuntimeUp's ticks are counted from it). */
  readonly startMs: number;
  /** Whether the container runtime answers CRI calls now. */
  criUp(): boolean;
  /** Whether the runtime's Status says NetworkReady=false now (its CNI plugin is not ready). */
  networkDown(): boolean;
  /** How this release words networkError ("runtime network not ready" before the structured logs
   *  of v1.21, "container runtime network not ready" since). */
  readonly networkErrorPrefix: string;
  /** The PLEG's Healthy(): undefined when healthy, else its error's text. */
  plegHealth(nowMs: number): string | undefined;
  spawn(name: string, body: Proc<void>): void;
  logError(msg: string): void;
}

/** The NetworkReady condition containerd reports while its CNI plugin has no configuration, as
 *  kubecontainer.RuntimeCondition's String() prints it. */
export const NETWORK_NOT_READY_CONDITION = 'NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

export class RuntimeState {
  /** lastBaseRuntimeSync while the tick runs. */
  private lastSyncMs = 0;
  /** networkError, as the last tick that reached the runtime set it. */
  private networkError: string | undefined;
  /** The 5 s tick runs: the runtime went down (or its network), and no tick has found both well
   *  since. */
  private tracking = false;

  constructor(private readonly h: RuntimeStateHost) {}

  /** Whether runtimeErrors or networkErrors can have anything to say (the hot paths ask this first). */
  get troubled(): boolean {
    return this.tracking || !this.h.criUp();
  }

  /** The kubelet starts: its first updateRuntimeUp finds the runtime up (a kubelet does not start
   *  with the runtime down: NewMainKubelet's first CRI call fails, node-site.ts), its network
   *  ready or not. */
  start(): void {
    this.lastSyncMs = this.h.startMs;
    if (!this.h.networkDown()) return;
    this.networkError = this.networkErrorText();
    this.track();
  }

  /** The runtime or its network went down now: the last tick that found the runtime up was the
   *  last one strictly before now (a tick at this very instant sees the change). */
  runtimeChanged(): void {
    if (this.tracking) return;
    const since = this.h.nowMs() - this.h.startMs;
    if (since > 0) this.lastSyncMs = this.h.startMs + Math.floor((since - 1) / RUNTIME_UP_PERIOD_MS) * RUNTIME_UP_PERIOD_MS;
    this.track();
  }

  private track(): void {
    this.tracking = true;
    this.h.spawn('runtime-up', this.updateRuntimeUpLoop());
  }

  private networkErrorText(): string {
    return `${this.h.networkErrorPrefix}: ${NETWORK_NOT_READY_CONDITION}`;
  }

  /** updateRuntimeUp on its 5 s tick (the next one after now: one at the start instant has run),
   *  until a tick finds the runtime up and its network ready. */
  private *updateRuntimeUpLoop(): Proc<void> {
    const since = this.h.nowMs() - this.h.startMs;
    yield since === 0 ? RUNTIME_UP_PERIOD_MS : Math.ceil(since / RUNTIME_UP_PERIOD_MS) * RUNTIME_UP_PERIOD_MS - since;
    for (;; yield RUNTIME_UP_PERIOD_MS) {
      if (!this.h.criUp()) {
        this.h.logError('Container runtime sanity check failed: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"');
        continue;
      }
      this.lastSyncMs = this.h.nowMs();
      if (this.h.networkDown()) {
        this.networkError = this.networkErrorText();
        this.h.logError(`Container runtime network not ready: ${NETWORK_NOT_READY_CONDITION}`);
        continue;
      }
      this.networkError = undefined;
      this.tracking = false;
      return;
    }
  }

  /** runtimeErrors: the texts of the errors, in upstream's order (empty: none). */
  runtimeErrors(nowMs: number): string[] {
    if (!this.troubled) return [];
    const errs: string[] = [];
    if (!(this.lastSyncMs + MAX_WAIT_FOR_CONTAINER_RUNTIME_MS > nowMs)) errs.push(RUNTIME_DOWN);
    const pleg = this.h.plegHealth(nowMs);
    if (pleg !== undefined) errs.push(`PLEG is not healthy: ${pleg}`);
    return errs;
  }

  /** networkErrors: the runtime's network error, as the last status check set it (undefined: none). */
  networkErrors(): string | undefined {
    return this.networkError;
  }
}

/** utilerrors.NewAggregate(errs).Error(): "" for none, the one error bare, several (each message
 *  once) as "[a, b]". */
export function aggregateError(errs: readonly string[]): string {
  const seen = [...new Set(errs)];
  return seen.length <= 1 ? (seen[0] ?? '') : `[${seen.join(', ')}]`;
}
