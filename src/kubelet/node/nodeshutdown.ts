// The kubelet's node shutdown manager (pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go,
// kubernetes/kubernetes; GracefulNodeShutdown, beta-on since v1.21): on logind's PrepareForShutdown
// it kills every active pod, the regular ones first with shutdownGracePeriod −
// shutdownGracePeriodCriticalPods, then the critical ones with shutdownGracePeriodCriticalPods
// (migrateConfig's two priority groups, groupByPriority), each group for at most its grace
// (processShutdownEvent: the kills run in goroutines; a timer of the group's grace ends the wait),
// then releases its inhibitor lock. logind holds the shutdown until the lock is released or
// InhibitDelayMaxSec (which the kubelet set to shutdownGracePeriod) has passed, whichever is
// first: then the node powers off — the kubelet and the runtime stop, nothing is sent after (a
// scenario may give systemd's stop of the units a time, powerOffDelay; 0 by default).
//
// Each kill is killPodNow (eviction.ts) with the group's grace (the pod's own when shorter) and a
// PodStatusFunc: phase Failed unless already Succeeded, reason Terminated, message "Pod was
// terminated in response to imminent node shutdown.", and (current, PodDisruptionConditions on)
// DisruptionTarget with reason TerminationByKubelet. From the announcement on, the manager's
// admit handler (v1.21+, kubernetes#98005) rejects every pod the kubelet is handed (admit, below).
// With spec.nodeLifecycle the kubelet's Ready setter reads the manager's ShutdownStatus: the node
// is posted Ready=False, KubeletNotReady, "node is shutting down" (v1.21+ at once: the manager calls
// syncNodeStatus; v1.20 at the next periodic update). Not modelled: the state file, metrics.
// classic (v1.20, alpha there) hands the bare status {phase Failed, reason, message}, as the eviction
// manager does, with v1.20's words: reason Shutdown, message "Node is shutting, evicting pods", and
// kills as v1.20 did (processShutdownEventV120, below: no priority groups yet).
import { Deferred, type Proc } from '../../engine/index.js';
import { isMirrorPod, isPodPhaseTerminal, isStaticPod, podKey, type Pod, type PodStatus } from '../../model/pod.js';
import { DisruptionTarget, gateEnabled } from '../status/types.js';
import { isCriticalPod, killPodNow, POD_REASON_TERMINATION_BY_KUBELET, SYSTEM_CRITICAL_PRIORITY, updatePodCondition } from './eviction.js';
import type { KubeletState } from './kubelet-state.js';

export const NODE_SHUTDOWN_REASON = 'Terminated';
export const NODE_SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.';
/** v1.20 and v1.21's NodeShutdownReason / NodeShutdownMessage: renamed to the two above in v1.22
 *  (kubernetes#102840, for #102820: "Shutdown" read as a shutdown still in progress). */
export const NODE_SHUTDOWN_REASON_V120 = 'Shutdown';
export const NODE_SHUTDOWN_MESSAGE_V120 = 'Node is shutting, evicting pods';

/** ShutdownStatus's error while the node shuts down (the Ready condition's message). */
export const NODE_SHUTTING_DOWN = 'node is shutting down';

/** nodeShutdownNotAdmittedReason / nodeShutdownNotAdmittedMessage (v1.22+, #102840). */
export const NODE_SHUTDOWN_NOT_ADMITTED_REASON = 'NodeShutdown';
export const NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE = 'Pod was rejected as the node is shutting down.';

/** The shutdown manager's Admit (a PodAdmitHandler of canAdmitPod): while the node is shutting down
 *  every pod is refused, with its reason and message. classic (v1.20) has no admit handler. */
export function admit(kl: KubeletState): { reason: string; message: string } | undefined {
  if (kl.gen === 'classic' || !kl.shuttingDown) return undefined;
  return { reason: NODE_SHUTDOWN_NOT_ADMITTED_REASON, message: NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE };
}

export interface ShutdownConfig {
  /** shutdownGracePeriod (s) */
  gracePeriodSeconds: number;
  /** shutdownGracePeriodCriticalPods (s) */
  criticalPodsGracePeriodSeconds: number;
  /** From logind going on with the shutdown to the kubelet's death (systemd stopping units): 0. */
  powerOffDelayMs?: number;
}

/** ShutdownGracePeriodByPodPriority */
interface PriorityGroup {
  priority: number;
  shutdownGracePeriodSeconds: number;
  pods: Pod[];
}

/** migrateConfig: two groups (priority 0 and system-critical), or none when the periods are off. */
export function migrateConfig(c: ShutdownConfig): Array<{ priority: number; shutdownGracePeriodSeconds: number }> {
  if (c.gracePeriodSeconds === 0) return [];
  const defaultPriority = c.gracePeriodSeconds - c.criticalPodsGracePeriodSeconds;
  if (defaultPriority < 0) return [];
  const criticalPriority = c.gracePeriodSeconds - defaultPriority;
  return [
    { priority: 0, shutdownGracePeriodSeconds: defaultPriority },
    { priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: criticalPriority },
  ];
}

/** groupByPriority: each pod into the group of the highest priority not above its own. */
export function groupByPriority(config: ReturnType<typeof migrateConfig>, pods: readonly Pod[]): PriorityGroup[] {
  const groups: PriorityGroup[] = config.map((g) => ({ ...g, pods: [] }));
  for (const pod of pods) {
    const p = pod.spec?.priority ?? 0;
    let i = groups.length - 1;
    while (i > 0 && groups[i].priority > p) i--;
    if (i >= 0) groups[i].pods.push(pod);
  }
  return groups;
}

/** GetActivePods: the pod manager's pods that are not terminal (status manager's phase) and whose
 *  worker has not terminated them. */
export function activePods(kl: KubeletState): Pod[] {
  const out: Pod[] = [];
  for (const pod of kl.pm.getPods()) {
    if (isMirrorPod(pod)) continue;
    const uid = pod.metadata?.uid ?? '';
    const phase = kl.sm.getPodStatus(uid)?.phase ?? pod.status?.phase;
    if (isPodPhaseTerminal(phase)) continue;
    if (kl.workersCurrent?.status(uid)?.isTerminated()) continue;
    out.push(pod);
  }
  return out;
}

/** The shutdown's PodStatusFunc. */
function shutdownStatus(kl: KubeletState): (s: PodStatus) => PodStatus {
  // v1.20: the bare status {phase Failed, message, reason}, as the eviction manager's (eviction.ts)
  if (kl.gen === 'classic') return () => ({ phase: 'Failed', message: NODE_SHUTDOWN_MESSAGE_V120, reason: NODE_SHUTDOWN_REASON_V120 });
  return (status) => {
    const s: PodStatus = { ...status, phase: status.phase === 'Succeeded' ? 'Succeeded' : 'Failed', message: NODE_SHUTDOWN_MESSAGE, reason: NODE_SHUTDOWN_REASON };
    if (kl.gen === 'current' && gateEnabled(kl.gen, kl.gates, 'PodDisruptionConditions')) {
      s.conditions = updatePodCondition(s.conditions, { type: DisruptionTarget, status: 'True', reason: POD_REASON_TERMINATION_BY_KUBELET, message: NODE_SHUTDOWN_MESSAGE }, kl.clock.now());
    }
    return s;
  };
}

/** The pods whose newest cached status version the apiserver has not acknowledged (what the
 *  power-off loses), as "ns/name", sorted. */
export function unsentPods(kl: KubeletState): string[] {
  const out: string[] = [];
  for (const uid of kl.sm.cachedUIDs()) {
    const entry = kl.sm.cachedEntry(uid);
    const pod = kl.pm.getPodByUID(uid);
    if (entry === undefined || pod === undefined) continue;
    const apiUID = (isStaticPod(pod) ? kl.pm.getMirrorPodByPod(pod)?.metadata?.uid : uid) ?? uid;
    if ((kl.sm.apiStatusVersion(apiUID) ?? 0) < entry.version) out.push(podKey(pod));
  }
  return out.sort();
}

/** The PrepareForShutdown event: processShutdownEvent in a process of the kubelet, and logind's
 *  InhibitDelayMaxSec deadline. `powerOff` runs once, at the lock's release or the deadline. */
export function startShutdown(kl: KubeletState, c: ShutdownConfig, powerOff: () => void): void {
  let off = false;
  const once = (why: string): void => {
    if (off) return;
    off = true;
    // (at least behind the events of the instant: the release runs in the kubelet's process,
    // which the power-off ends)
    kl.engine.after(c.powerOffDelayMs ?? 0, () => {
      kl.trace({ type: 'node.shutdown', actor: 'kubelet', phase: 'powerOff', why, unsent: unsentPods(kl) });
      powerOff();
    });
  };
  kl.shuttingDown = true; // nodeShuttingDownNow = isShuttingDown
  // v1.21+ (#98005): `go m.syncNodeStatus()`, the node goes NotReady now (v1.20: at its next update)
  if (kl.gen !== 'classic') kl.syncNodeStatus?.();
  kl.trace({ type: 'node.shutdown', actor: 'kubelet', phase: 'begin', gracePeriodSeconds: c.gracePeriodSeconds, criticalPodsGracePeriodSeconds: c.criticalPodsGracePeriodSeconds });
  // logind: InhibitDelayMaxSec (= shutdownGracePeriod) after PrepareForShutdown (an engine timer:
  // logind is not the kubelet, and the kubelet's stop does not cancel it)
  kl.engine.after(c.gracePeriodSeconds * 1000, () => once('InhibitDelayMaxSec'));
  kl.spawn('nodeshutdown', (function* (): Proc<void> {
    yield* (kl.gen === 'classic' ? processShutdownEventV120(kl, c) : processShutdownEvent(kl, c));
    // defer ReleaseInhibitLock: logind goes on with the shutdown at once
    kl.log('V1', 'Shutdown manager completed processing shutdown event, node will shutdown shortly');
    kl.trace({ type: 'node.shutdown', actor: 'kubelet', phase: 'releaseInhibitLock' });
    once('inhibitLockReleased');
  })());
}

/** processShutdownEvent: each priority group's kills, waited on for at most the group's grace. */
export function* processShutdownEvent(kl: KubeletState, c: ShutdownConfig): Proc<void> {
  kl.log('V1', 'Shutdown manager processing shutdown event');
  const groups = groupByPriority(migrateConfig(c), activePods(kl));
  const statusFn = shutdownStatus(kl);
  for (const group of groups) {
    // if there are no pods in a particular range, do not wait for pods in that priority range
    if (group.pods.length === 0) continue;
    const done = new Deferred<boolean>();
    let left = group.pods.length;
    for (const pod of group.pods) {
      let grace = group.shutdownGracePeriodSeconds;
      const own = pod.spec?.terminationGracePeriodSeconds;
      if (own !== undefined && own !== null && own <= grace) grace = own;
      kl.log('V1', 'Shutdown manager killing pod with gracePeriod', podKey(pod), { gracePeriod: grace });
      kl.spawn(`nodeshutdown-kill/${pod.metadata?.uid ?? ''}`, (function* (): Proc<void> {
        const err = yield* killPodNow(kl, pod, false, grace, statusFn);
        if (err !== undefined) kl.log('V1', `Shutdown manager failed killing pod: ${err}`, podKey(pod));
        else kl.log('V1', 'Shutdown manager finished killing pod', podKey(pod));
        if (--left === 0) done.resolve(kl.engine, true); // wg.Done
      })());
    }
    const timer = kl.engine.after(group.shutdownGracePeriodSeconds * 1000, () => done.resolve(kl.engine, false));
    kl.timers.push(timer);
    if (yield* done.wait()) timer.cancel();
    else kl.log('V1', 'Shutdown manager pod killing time out', undefined, { gracePeriod: group.shutdownGracePeriodSeconds, priority: group.priority });
  }
}

/** processShutdownEvent as v1.20 had it (until the priority groups of v1.23): every active pod is
 *  killed at once, each in a goroutine of its own — a critical one (kubelettypes.IsCriticalPod:
 *  static, mirror, or system-critical priority) after sleeping the regular pods' whole period, with
 *  shutdownGracePeriodCriticalPods; the others with the rest of shutdownGracePeriod — the override
 *  as given (killPodNow's, even above the pod's own grace); then wg.Wait for every kill, bounded only
 *  by each killPodNow's own timeout (and logind's InhibitDelayMaxSec). */
export function* processShutdownEventV120(kl: KubeletState, c: ShutdownConfig): Proc<void> {
  kl.log('V1', 'Shutdown manager processing shutdown event');
  const nonCritical = c.gracePeriodSeconds - c.criticalPodsGracePeriodSeconds;
  const statusFn = shutdownStatus(kl);
  const pods = activePods(kl);
  if (pods.length === 0) return;
  const done = new Deferred<boolean>();
  let left = pods.length;
  for (const pod of pods) {
    const critical = isCriticalPod(pod);
    const grace = critical ? c.criticalPodsGracePeriodSeconds : nonCritical;
    kl.spawn(`nodeshutdown-kill/${pod.metadata?.uid ?? ''}`, (function* (): Proc<void> {
      if (critical) yield nonCritical * 1000;
      kl.log('V1', `Shutdown manager killing pod "${pod.metadata?.name ?? ''}" with gracePeriod: ${grace}`, podKey(pod));
      const err = yield* killPodNow(kl, pod, false, grace, statusFn);
      if (err !== undefined) kl.log('V1', `Shutdown manager failed killing pod "${pod.metadata?.name ?? ''}": ${err}`, podKey(pod));
      else kl.log('V1', `Shutdown manager finished killing pod "${pod.metadata?.name ?? ''}"`, podKey(pod));
      if (--left === 0) done.resolve(kl.engine, true); // wg.Done
    })());
  }
  yield* done.wait();
}
