// From the runtime's view of a pod to the API status the kubelet hands to the status manager
// (pkg/kubelet/kubelet_pods.go generateAPIPodStatus, convertStatusToAPIStatus,
// convertToAPIContainerStatuses; kubecontainer.ShouldContainerBeRestarted), both generations.
import { isPodPhaseTerminal, type Container, type ContainerState, type ContainerStatus, type Pod, type PodCondition, type PodSpec, type PodStatus } from '../../model/pod.js';
import { podConditionByKubelet, getPodConditionIndex, replaceOrAppendPodCondition } from '../status/conditions.js';
import { generateContainersReadyCondition, generatePodInitializedCondition, generatePodReadyCondition, generatePodReadyToStartContainersCondition } from '../status/generate.js';
import { DisruptionTarget, PodScheduled, gateEnabled, type StatusFeatureGates } from '../status/types.js';
import { getPhaseClassic, getPhaseCurrent } from './phase.js';
import type { ProbeManager } from './prober.js';
import { getPodQOS, type PodQOSClass } from '../../model/qos.js';
import { findContainerStatusByName, type Generation, type RuntimeContainerStatus, type RuntimePodStatus } from './types.js';
import type { EvictResponse } from './active-deadline.js';
import { NODE_IP } from './image-ref.js';
import { volumeMountStatuses } from './volume-mount-status.js';

/** Container state reasons of kubelet_pods.go. */
export const PodInitializing = 'PodInitializing';
export const ContainerCreating = 'ContainerCreating';
export const ContainerReasonStatusUnknown = 'ContainerStatusUnknown';

/** kubelet reasonCache entries: why the last start of a container failed. */
export interface StartFailure {
  reason: string;
  message: string;
}

/** The inputs of generateAPIPodStatus beyond the pod and the runtime status. */
export interface GenerateContext {
  gen: Generation;
  gates?: StatusFeatureGates;
  /** RFC 3339 of a virtual instant (VClock.at). */
  at: (virtualMs: number) => string;
  /** The status manager's cached status of the pod, if any (else pod.status is the base). */
  cachedStatus?: PodStatus;
  /** reasonCache.Get(uid, name) */
  reasonFor?: (containerName: string) => StartFailure | undefined;
  /** The prober (UpdatePodStatus). Without one, nothing is started or ready. */
  prober?: Pick<ProbeManager, 'updatePodStatus'>;
  /** Log sink for "Pod attempted illegal phase transition". */
  log?: (msg: string) => void;
  /** The pod sync handlers' ShouldEvict (activeDeadlineSeconds): a reason and message, or none. */
  shouldEvict?: () => EvictResponse | undefined;
  /** revert #102821 (vanished running containers outside deletion): vanishedContainerOnlyOnDelete. */
  vanishedContainerOnlyOnDelete?: boolean;
  /** revert #107845 (a created, never started container is waiting): createdCountsAsExited. */
  createdCountsAsExited?: boolean;
  /** revert #54593 (a removed terminated container keeps its status): missingContainersWaiting. */
  missingContainersWaiting?: boolean;
  noReasonMessageCarry?: boolean; // revert #103785 (a kept phase keeps its reason and message)
}

/** kubecontainer.ShouldContainerBeRestarted */
export function shouldContainerBeRestarted(container: Container, pod: Pod, podStatus: RuntimePodStatus): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  const status = findContainerStatusByName(podStatus, container.name);
  if (status === undefined) return true;
  if (status.state === 'running') return false;
  if (status.state === 'unknown' || status.state === 'created') return true;
  const policy = pod.spec?.restartPolicy ?? '';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && status.exitCode === 0) return false;
  return true;
}

/** A copy of a (frozen) status value that is safe to hand on: statuses are frozen as they enter
 *  the status manager, nothing here or in the prober changes what a generated status shares, only
 *  its own top-level fields. A frozen value is shared as is; anything else is copied. */
function clone<T>(v: T): T {
  return v === undefined || v === null || Object.isFrozen(v) ? v : structuredClone(v);
}

/** A container status to fill in from an earlier one: its own top level, the rest shared. */
function copyContainerStatus(s: ContainerStatus): ContainerStatus {
  return Object.isFrozen(s) ? { ...s } : structuredClone(s);
}

/** convertContainerStatus: one runtime instance as an API container status. */
function convertContainerStatus(cs: RuntimeContainerStatus, old: ContainerStatus | undefined, at: (ms: number) => string, createdExited?: boolean): ContainerStatus {
  const status: ContainerStatus = {
    name: cs.name,
    state: convertContainerState(cs, old, at, createdExited),
    lastState: {},
    ready: false,
    restartCount: cs.restartCount,
    image: cs.image,
    imageID: cs.imageRef,
    containerID: cs.id,
  };
  if (old?.volumeMounts !== undefined) status.volumeMounts = old.volumeMounts; // immutable
  if (isVanishedRunning(cs, old)) status.restartCount = (old!.restartCount ?? 0) + 1;
  return status;
}

/** An instance in no state the kubelet knows whose previous status was running. */
function isVanishedRunning(cs: RuntimeContainerStatus, old: ContainerStatus | undefined): boolean {
  return cs.state !== 'running' && cs.state !== 'created' && cs.state !== 'exited' && !!old?.state?.running;
}

/** The state of convertContainerStatus's status (all a last state takes of it). */
function convertContainerState(cs: RuntimeContainerStatus, old: ContainerStatus | undefined, at: (ms: number) => string, createdExited?: boolean): ContainerState {
  switch (cs.state) {
    case 'running':
      return { running: { startedAt: at(cs.startedAtMs) } };
    case 'created':
    case 'exited': {
      // #107845 (smarterclayton, v1.24; picks #108882 1.23, #108883 1.22): containers that are
      // created but not running are "waiting to be running". revert: #41382's fallthrough to exited
      if (cs.state === 'created' && !createdExited) return { waiting: {} };
      const t: NonNullable<ContainerState['terminated']> = { exitCode: cs.exitCode ?? 0 };
      if (cs.reason) t.reason = cs.reason;
      if (cs.message) t.message = cs.message;
      t.startedAt = at(cs.startedAtMs);
      if (cs.finishedAtMs !== undefined) t.finishedAt = at(cs.finishedAtMs);
      t.containerID = cs.id;
      return { terminated: t };
    }
    default:
      if (isVanishedRunning(cs, old)) return { terminated: { exitCode: 137, reason: ContainerReasonStatusUnknown, message: 'The container could not be located when the pod was terminated' } };
      return { waiting: {} };
  }
}

/** The index of the first container named `name` (-1: none). */
function firstIndexByName(containers: readonly Container[], name: string): number {
  for (let i = 0; i < containers.length; i++) if (containers[i].name === name) return i;
  return -1;
}

/** The entry of containers[i] in the statuses by name: the index of the first container of its name. */
function slotOf(containers: readonly Container[], i: number): number {
  return containers.length === 1 ? 0 : firstIndexByName(containers, containers[i].name);
}

/** The last status named `name` (what a map filled from the list in order holds for it). */
function lastStatusByName(statuses: readonly ContainerStatus[] | undefined, name: string): ContainerStatus | undefined {
  if (statuses === undefined) return undefined;
  for (let i = statuses.length - 1; i >= 0; i--) if (statuses[i].name === name) return statuses[i];
  return undefined;
}

/** convertToAPIContainerStatuses: the API statuses of `containers` (regular or init), from the
 *  runtime instances (newest is the state, the one before it the lastState), the previous statuses
 *  (a terminated one is kept as is), and the reason cache (a container to be restarted whose last
 *  start failed is waiting with that reason).
 *
 *  Upstream keeps the statuses in a map by container name; here they are kept by the spec index of
 *  the first container of that name (slotOf), which is that map: a later container of the same name
 *  writes the same entry, and the map's insertion order is the order of the first indices.
 *
 *  Over 80 lines, as upstream's kl.convertToAPIContainerStatuses (kubelet_pods.go, some 150 lines) is:
 *  one function, ported whole. */
// upstream-length: convertToAPIContainerStatuses (pkg/kubelet/kubelet_pods.go) is itself ~150 lines.
export function convertToAPIContainerStatuses(
  pod: Pod,
  podStatus: RuntimePodStatus,
  previousStatus: readonly ContainerStatus[] | undefined,
  containers: readonly Container[],
  hasInitContainers: boolean,
  isInitContainer: boolean,
  ctx: Pick<GenerateContext, 'at' | 'reasonFor' | 'vanishedContainerOnlyOnDelete' | 'createdCountsAsExited' | 'missingContainersWaiting'> & Partial<Pick<GenerateContext, 'gen' | 'gates'>>,
): ContainerStatus[] {
  // no containers of this kind (most pods have no init containers): every step below yields nothing
  if (containers.length === 0) return [];
  const n = containers.length;

  const defaultReason = hasInitContainers ? PodInitializing : ContainerCreating;
  const rro = ctx.gen !== undefined && gateEnabled(ctx.gen, ctx.gates, 'RecursiveReadOnlyMounts');
  const statuses: ContainerStatus[] = new Array<ContainerStatus>(n);
  for (let i = 0; i < n; i++) {
    const c = containers[i];
    // a container with a runtime instance has its newest instance as its status (below)
    if (findContainerStatusByName(podStatus, c.name) !== undefined) continue;
    let status: ContainerStatus = { name: c.name, state: { waiting: { reason: defaultReason } }, lastState: {}, ready: false, restartCount: 0, image: c.image ?? '', imageID: '' };
    const mounts = rro ? volumeMountStatuses(c) : undefined; // (RecursiveReadOnlyMounts, v1.30+)
    if (mounts !== undefined) status.volumeMounts = mounts;
    const old = lastStatusByName(previousStatus, c.name);
    if (old !== undefined) {
      // revert #54593 (v1.9): as #51644 (v1.8), only an init container keeps a terminated status
      if (old.state?.terminated && (isInitContainer || !ctx.missingContainersWaiting)) status = copyContainerStatus(old);
      else {
        status.restartCount = old.restartCount ?? 0;
        status.lastState = clone(old.lastState) ?? {};
      }
    }
    statuses[slotOf(containers, i)] = status;
  }

  // A container that used to run and has vanished from the runtime terminated, exit code unknown.
  for (let i = 0; i < n; i++) {
    const c = containers[i];
    if (findContainerStatusByName(podStatus, c.name) !== undefined) continue;
    // revert #102821 (ehashman, v1.22): before it, #95364's inference applied to deleted pods only
    if (ctx.vanishedContainerOnlyOnDelete && !pod.metadata?.deletionTimestamp) continue;
    const old = lastStatusByName(previousStatus, c.name);
    if (old === undefined || old.state?.terminated || !old.state?.running) continue;
    const status = statuses[slotOf(containers, i)];
    const isDefaultWaiting = status.state?.waiting !== undefined && status.state.waiting.reason === (hasInitContainers ? PodInitializing : ContainerCreating);
    if (!isDefaultWaiting || status.lastState?.terminated) continue;
    status.lastState = {
      terminated: { exitCode: 137, reason: ContainerReasonStatusUnknown, message: 'The container could not be located when the pod was deleted.  The container used to be Running' },
    };
    if (!pod.metadata?.deletionTimestamp) status.restartCount = (status.restartCount ?? 0) + 1;
  }

  // The runtime's instances, newest first: the first is the state, the second the last state (per
  // entry, converted entry by entry: each conversion reads only its instance and the entry's old status).
  for (let j = 0; j < n; j++) {
    if (slotOf(containers, j) !== j) continue;
    const name = containers[j].name;
    let seen = 0;
    for (const cs of podStatus.containers) {
      if (cs.name !== name) continue;
      const old = lastStatusByName(previousStatus, name);
      if (seen === 0) statuses[j] = convertContainerStatus(cs, old, ctx.at, ctx.createdCountsAsExited);
      else {
        statuses[j].lastState = convertContainerState(cs, old, ctx.at, ctx.createdCountsAsExited);
        break;
      }
      seen++;
    }
  }

  // Containers to be restarted whose last start failed (back-off) are waiting with that reason.
  for (let i = 0; i < n; i++) {
    const c = containers[i];
    if (isInitContainer) {
      const s = findContainerStatusByName(podStatus, c.name);
      if (s !== undefined && s.state === 'exited' && s.exitCode === 0) continue;
    }
    if (!shouldContainerBeRestarted(c, pod, podStatus)) continue;
    const failure = ctx.reasonFor?.(c.name);
    if (failure === undefined) continue;
    const status = statuses[slotOf(containers, i)];
    if (status.state?.terminated) status.lastState = status.state;
    const waiting: NonNullable<ContainerState['waiting']> = { reason: failure.reason };
    if (failure.message) waiting.message = failure.message;
    status.state = { waiting };
  }

  if (isInitContainer) {
    // SortStatusesOfInitContainers: spec order
    const out: ContainerStatus[] = new Array<ContainerStatus>(n);
    for (let i = 0; i < n; i++) out[i] = statuses[slotOf(containers, i)];
    return out;
  }
  // the map's values (one per name, in first-index order), sorted by name
  let out = statuses;
  if (n > 1) {
    out = [];
    for (let i = 0; i < n; i++) if (slotOf(containers, i) === i) out.push(statuses[i]);
  }
  let sorted = true;
  for (let i = 1; i < out.length && sorted; i++) sorted = out[i - 1].name < out[i].name;
  return sorted ? out : out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** GetPodQOS of frozen pod specs: it reads nothing of the pod but its spec, which cannot change. */
const qosBySpec = new WeakMap<PodSpec, PodQOSClass>();

function podQOS(pod: Pod): PodQOSClass {
  const spec = pod.spec;
  if (spec === undefined || !Object.isFrozen(spec)) return getPodQOS(pod);
  let q = qosBySpec.get(spec);
  if (q === undefined) {
    q = getPodQOS(pod);
    qosBySpec.set(spec, q);
  }
  return q;
}

/** generateAPIPodStatus: the API status of a pod from its runtime status.
 *  classic (v1.19/v1.20): phase from getPhase; an API terminal phase is never left; probes; the
 *    non-kubelet conditions of pod.status, then Initialized, Ready, ContainersReady, PodScheduled.
 *  current (v1.27+): getPhase with podIsTerminal; three-way terminal merge with the cached and the
 *    API phase; reason/message carried while the phase is unchanged; DisruptionTarget carried from
 *    the cache; conditions computed over init + regular statuses, PodReadyToStartContainers first
 *    when its gate is on. */
// upstream-length: generateAPIPodStatus (pkg/kubelet/kubelet_pods.go) is itself ~110 lines.
export function generateAPIPodStatus(pod: Pod, podStatus: RuntimePodStatus, podIsTerminal: boolean, ctx: GenerateContext): PodStatus {
  const gen = ctx.gen;
  const apiStatus: PodStatus = pod.status ?? {};
  const oldPodStatus: PodStatus = ctx.cachedStatus ?? apiStatus;
  const spec = pod.spec;
  const inits = spec?.initContainers ?? [];
  const hasInit = inits.length > 0;

  const prev = ctx.missingContainersWaiting ? apiStatus : oldPodStatus; // revert #54593: pod.Status's, not the cache's
  const containerStatuses = convertToAPIContainerStatuses(pod, podStatus, prev.containerStatuses, spec?.containers ?? [], hasInit, false, ctx);
  const initContainerStatuses = convertToAPIContainerStatuses(pod, podStatus, prev.initContainerStatuses, inits, hasInit, true, ctx);
  // current (GA v1.25) and transitional (beta-on v1.23): the ephemeral containers' statuses (not in the phase, the probes or the conditions)
  const ephemerals = gen !== 'classic' ? ((spec?.ephemeralContainers ?? []) as Container[]) : [];
  const ephemeralContainerStatuses = ephemerals.length === 0 ? [] : convertToAPIContainerStatuses(pod, podStatus, oldPodStatus.ephemeralContainerStatuses, ephemerals, hasInit, false, ctx);
  // (read only: without init containers, the regular statuses are the whole list)
  const all = initContainerStatuses.length === 0 ? containerStatuses : [...containerStatuses, ...initContainerStatuses];

  let phase: string;
  let reason: string | undefined;
  let message: string | undefined;
  const evict = ctx.shouldEvict?.();
  if (gen === 'classic') {
    // v1.20: an evicting sync handler ends generation right after convertStatusToAPIStatus: no
    // getPhase, no probes, no kubelet conditions (the others are kept)
    if (evict !== undefined) return evictedStatusClassic(pod, podStatus, apiStatus, oldPodStatus, containerStatuses, initContainerStatuses, evict);
    phase = getPhaseClassic(spec, all);
  } else {
    // (transitional, v1.23: getPhase(spec, allStatus) as v1.20's, then the v1.22 three-way merge)
    phase = gen === 'transitional' ? getPhaseClassic(spec, all) : getPhaseCurrent(pod, all, podIsTerminal, ctx.gates);
    if (!isPodPhaseTerminal(phase)) {
      if (isPodPhaseTerminal(oldPodStatus.phase)) phase = oldPodStatus.phase!;
      else if (isPodPhaseTerminal(apiStatus.phase)) phase = apiStatus.phase!;
    }
    // revert #103785 (v1.22): the regenerated status of an evicted pod loses reason and message
    if (phase === oldPodStatus.phase && !ctx.noReasonMessageCarry) {
      reason = oldPodStatus.reason || apiStatus.reason || undefined;
      message = oldPodStatus.message || apiStatus.message || undefined;
    }
    // v1.22+: an internal module (active deadline) requested the pod be evicted
    if (evict !== undefined) {
      phase = 'Failed';
      reason = evict.reason;
      message = evict.message;
    }
  }
  if (isPodPhaseTerminal(apiStatus.phase) && phase !== apiStatus.phase) {
    ctx.log?.(`Pod attempted illegal phase transition from ${apiStatus.phase} to ${phase}`);
    phase = apiStatus.phase!;
  }

  const s: PodStatus = { phase, conditions: [] };
  if (reason) s.reason = reason;
  if (message) s.message = message;
  if (initContainerStatuses.length > 0) s.initContainerStatuses = initContainerStatuses;
  if (containerStatuses.length > 0) s.containerStatuses = containerStatuses;
  if (ephemeralContainerStatuses.length > 0) s.ephemeralContainerStatuses = ephemeralContainerStatuses;
  s.qosClass = podQOS(pod);
  setIPs(s, podStatus, oldPodStatus, gen, pod.spec?.hostNetwork === true);

  ctx.prober?.updatePodStatus(pod, s, oldPodStatus);

  let conditions: PodCondition[] = [];
  const apiConditions = apiStatus.conditions;
  if (apiConditions) for (let i = 0; i < apiConditions.length; i++) if (!podConditionByKubelet(apiConditions[i].type, gen, ctx.gates)) conditions.push(clone(apiConditions[i]));
  const initStatuses = s.initContainerStatuses ?? [];
  const regular = s.containerStatuses ?? [];
  if (gen !== 'current') {
    conditions.push(generatePodInitializedCondition(spec, initStatuses, phase, gen, ctx.gates));
    conditions.push(generatePodReadyCondition(spec, conditions, regular, phase, gen, ctx.gates));
    conditions.push(generateContainersReadyCondition(spec, regular, phase, gen, ctx.gates));
  } else {
    if (gateEnabled(gen, ctx.gates, 'PodDisruptionConditions')) {
      const i = getPodConditionIndex(oldPodStatus.conditions, DisruptionTarget);
      if (i >= 0) conditions = replaceOrAppendPodCondition(conditions, clone(oldPodStatus.conditions![i]));
    }
    if (gateEnabled(gen, ctx.gates, 'PodReadyToStartContainersCondition')) {
      conditions.push(generatePodReadyToStartContainersCondition(podStatus.sandbox?.ready === true));
    }
    const allStatuses = initStatuses.length === 0 ? regular : [...initStatuses, ...regular];
    conditions.push(generatePodInitializedCondition(spec, allStatuses, phase, gen, ctx.gates));
    conditions.push(generatePodReadyCondition(spec, conditions, allStatuses, phase, gen, ctx.gates));
    conditions.push(generateContainersReadyCondition(spec, allStatuses, phase, gen, ctx.gates));
  }
  conditions.push({ type: PodScheduled, status: 'True' });
  s.conditions = conditions;
  return s;
}

/** The pod's IPs (convertStatusToAPIStatus: the ready sandbox's, else the previous status's; a
 *  hostNetwork pod's sandbox has none: the node's, from its first status on, in every generation)
 *  and the node's (generateAPIPodStatus getHostIPsAnyWay; hostIPs from v1.29, GA v1.30: current). */
function setIPs(s: PodStatus, podStatus: RuntimePodStatus, old: PodStatus, gen: Generation, hostNetwork = false): void {
  s.hostIP = NODE_IP;
  if (gen === 'current') s.hostIPs = [{ ip: NODE_IP }];
  const ip = (podStatus.sandbox?.ready ? podStatus.sandbox.ip : old.podIP) || (hostNetwork ? NODE_IP : '');
  if (ip) {
    s.podIP = ip;
    s.podIPs = [{ ip }];
  }
}

/** generateAPIPodStatus's classic early return for an evicted pod (v1.20 kubelet_pods.go):
 *  convertStatusToAPIStatus's status (container statuses, QOS class, pod IPs, the non-kubelet
 *  conditions of the API status; no host IP) with phase Failed and the handler's reason and message. */
// prettier-ignore
function evictedStatusClassic(pod: Pod, podStatus: RuntimePodStatus, apiStatus: PodStatus, old: PodStatus, containerStatuses: ContainerStatus[], initContainerStatuses: ContainerStatus[], evict: EvictResponse): PodStatus {
  const s: PodStatus = { phase: 'Failed', conditions: [], reason: evict.reason, message: evict.message };
  if (initContainerStatuses.length > 0) s.initContainerStatuses = initContainerStatuses;
  if (containerStatuses.length > 0) s.containerStatuses = containerStatuses;
  s.qosClass = podQOS(pod);
  setIPs(s, podStatus, old, 'classic');
  delete s.hostIP; // (set after the early return)
  for (const c of apiStatus.conditions ?? []) if (!podConditionByKubelet(c.type, 'classic')) s.conditions!.push(clone(c));
  return s;
}

/** notRunning: every status is waiting or terminated (kubelet_pods.go). */
export function notRunning(statuses: readonly ContainerStatus[] | undefined): boolean {
  for (const s of statuses ?? []) if (!s.state?.terminated && !s.state?.waiting) return false;
  return true;
}
