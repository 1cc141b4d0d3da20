// What the runtime manager must do to bring a pod towards its spec
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions, findNextInitContainerToRun,
// computeInitContainerActions). Pure: decided from the PLEG's cached runtime status.
import type { Container, Pod } from '../../model/pod.js';
import { isRestartableInitContainer } from '../status/conditions.js';
import type { StatusFeatureGates } from '../status/types.js';
import { shouldContainerBeRestarted } from './api-status.js';
import { findContainerStatusByName, type Generation, type RuntimeContainerStatus, type RuntimePodStatus } from './types.js';

/** podActions */
export interface PodActions {
  /** Stop every running container and the sandbox. */
  killPod: boolean;
  /** Create a (new) sandbox first. */
  createSandbox: boolean;
  /** classic: the one init container to start next. */
  nextInitContainerToStart?: Container;
  /** current with sidecars: indices into spec.initContainers to start, in order. (An empty list
   *  may be a shared frozen one.) */
  initContainersToStart: number[];
  /** Indices into spec.containers to start. (An empty list may be a shared frozen one.) */
  containersToStart: number[];
}

/** shouldRestartOnFailure: any restart policy but Never. */
export function shouldRestartOnFailure(pod: Pod): boolean {
  return (pod.spec?.restartPolicy ?? '') !== 'Never';
}

/** isInitContainerFailed */
export function isInitContainerFailed(s: RuntimeContainerStatus): boolean {
  if (s.state === 'exited' && s.exitCode !== 0) return true;
  if (s.state === 'unknown') return true;
  return false;
}

function containerSucceeded(c: Container, podStatus: RuntimePodStatus): boolean {
  const s = findContainerStatusByName(podStatus, c.name);
  return s !== undefined && s.state === 'exited' && s.exitCode === 0;
}

/** findNextInitContainerToRun (no sidecars): the last failed init container, or the next one after
 *  the last that exited, or the first; done once all exited 0 or a regular container runs. */
export function findNextInitContainerToRun(pod: Pod, podStatus: RuntimePodStatus): { lastStatus?: RuntimeContainerStatus; next?: Container; done: boolean } {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return { done: true };
  for (const c of pod.spec?.containers ?? []) {
    const s = findContainerStatusByName(podStatus, c.name);
    if (s !== undefined && s.state === 'running') return { done: true };
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const s = findContainerStatusByName(podStatus, inits[i].name);
    if (s !== undefined && isInitContainerFailed(s)) return { lastStatus: s, next: inits[i], done: false };
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const s = findContainerStatusByName(podStatus, inits[i].name);
    if (s === undefined) continue;
    if (s.state === 'running') return { done: false };
    if (s.state === 'exited') {
      if (i === inits.length - 1) return { done: true };
      return { next: inits[i + 1], done: false };
    }
  }
  return { next: inits[0], done: false };
}

/** computeInitContainerActions (current, sidecars on): which init containers to (re)start (a new
 *  list in changes.initContainersToStart); returns whether the pod has initialized. Startup results gate a sidecar's "initialized".
 *  Over 80 lines, as upstream's computeInitContainerActions (kuberuntime_container.go, some 200 lines)
 *  is: one function, ported whole. */
// upstream-length: computeInitContainerActions (pkg/kubelet/kuberuntime/kuberuntime_container.go) is itself ~200 lines.
function computeInitContainerActions(
  pod: Pod,
  podStatus: RuntimePodStatus,
  changes: PodActions,
  gates: StatusFeatureGates | undefined,
  startupResult: (containerID: string) => boolean | undefined,
): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;
  changes.initContainersToStart = [];
  // A regular container created or running proves the init containers ran; an exited one does not
  // (v1.28+, #120247: after a node reboot every container is exited and the new sandbox is not
  // initialized).
  let podHasInitialized = false;
  for (const c of pod.spec?.containers ?? []) {
    const s = findContainerStatusByName(podStatus, c.name);
    if (s !== undefined && (s.state === 'created' || s.state === 'running')) {
      podHasInitialized = true;
      break;
    }
  }
  // isPreviouslyInitialized: whether the init container being looked at was initialized before
  let isPreviouslyInitialized = podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  let anyStatus = false;

  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    const sidecar = isRestartableInitContainer(c, 'current', gates);
    const s = findContainerStatusByName(podStatus, c.name);
    if (s === undefined) {
      if (isPreviouslyInitialized && sidecar) changes.initContainersToStart.push(i);
      continue;
    }
    anyStatus = true;
    if (isPreviouslyInitialized && !sidecar) continue;

    switch (s.state) {
      case 'created':
        changes.initContainersToStart.push(i);
        break;
      case 'running': {
        if (!sidecar) break;
        if (c.startupProbe) {
          const r = startupResult(s.id);
          if (r !== true) break; // not started yet (a failed startup probe would restart it; not modelled)
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!isPreviouslyInitialized) changes.initContainersToStart.push(i + 1);
        break;
      }
      case 'exited':
        if (sidecar) {
          changes.initContainersToStart.push(i);
        } else if (isInitContainerFailed(s)) {
          if (!restartOnFailure) {
            changes.killPod = true;
            changes.initContainersToStart = [];
            return false;
          }
          changes.initContainersToStart.push(i);
        } else if (i === inits.length - 1) podHasInitialized = true;
        else changes.initContainersToStart.push(i + 1);
        break;
      default:
        // unknown: restart it (sidecar or a failed init container under a restarting policy)
        if (sidecar || restartOnFailure) changes.initContainersToStart.push(i);
        else {
          changes.killPod = true;
          changes.initContainersToStart = [];
          return false;
        }
    }
    // the one before this init container has been initialized: go on to the earlier ones, so that
    // an exited sidecar is restarted while a later init container still runs (v1.29+)
    if (!isPreviouslyInitialized) isPreviouslyInitialized = true;
  }
  if (!anyStatus && !isPreviouslyInitialized && changes.initContainersToStart.length === 0) changes.initContainersToStart.push(0);
  // the list was built from the last init container backwards; start in spec order
  changes.initContainersToStart.sort((a, b) => a - b);
  return podHasInitialized;
}

/** The shared empty index list of a PodActions (frozen: a list that gets entries is a new one). */
const NO_INDICES: number[] = Object.freeze([]) as unknown as number[];
const NO_CONTAINERS: readonly Container[] = Object.freeze([]);

/** list with idx appended: a new list in place of the shared empty one. */
function withIndex(list: number[], idx: number): number[] {
  if (list === NO_INDICES) return [idx];
  list.push(idx);
  return list;
}

/** computePodActions (no liveness probes, no spec changes, no in-place resize). */
export function computePodActions(
  pod: Pod,
  podStatus: RuntimePodStatus,
  gen: Generation,
  gates?: StatusFeatureGates,
  startupResult: (containerID: string) => boolean | undefined = () => undefined,
): PodActions {
  const inits = pod.spec?.initContainers ?? NO_CONTAINERS;
  const containers = pod.spec?.containers ?? NO_CONTAINERS;
  let sidecars = false;
  if (gen === 'current') for (let i = 0; i < inits.length && !sidecars; i++) sidecars = isRestartableInitContainer(inits[i], gen, gates);
  const changes: PodActions = { killPod: false, createSandbox: false, initContainersToStart: NO_INDICES, containersToStart: NO_INDICES };

  // podSandboxChanged: no sandbox, or it is not ready
  const sandbox = podStatus.sandbox;
  if (sandbox === null || !sandbox.ready) {
    // a pod that must not restart does not get a second sandbox once its containers ran
    if (!shouldRestartOnFailure(pod) && sandbox !== null && podStatus.containers.length > 0) return changes;
    let toStart = NO_INDICES;
    for (let idx = 0; idx < containers.length; idx++) {
      if ((pod.spec?.restartPolicy ?? '') === 'OnFailure' && containerSucceeded(containers[idx], podStatus)) continue;
      toStart = withIndex(toStart, idx);
    }
    if (toStart.length === 0 && findNextInitContainerToRun(pod, podStatus).done) return changes;
    changes.createSandbox = true;
    if (inits.length > 0) {
      if (sidecars) changes.initContainersToStart = [0];
      else changes.nextInitContainerToStart = inits[0];
      return changes;
    }
    changes.containersToStart = toStart;
    return changes;
  }

  if (!sidecars) {
    const { lastStatus, next, done } = findNextInitContainerToRun(pod, podStatus);
    if (!done) {
      if (next !== undefined) {
        const initFailed = lastStatus !== undefined && isInitContainerFailed(lastStatus);
        if (initFailed && !shouldRestartOnFailure(pod)) changes.killPod = true;
        else changes.nextInitContainerToStart = next;
      }
      return changes;
    }
  } else {
    const initialized = computeInitContainerActions(pod, podStatus, changes, gates, startupResult);
    if (changes.killPod || !initialized) return changes;
  }

  let keepCount = 0;
  for (let idx = 0; idx < containers.length; idx++) {
    const c = containers[idx];
    const s = findContainerStatusByName(podStatus, c.name);
    if (s === undefined || s.state !== 'running') {
      if (shouldContainerBeRestarted(c, pod, podStatus)) changes.containersToStart = withIndex(changes.containersToStart, idx);
      continue;
    }
    keepCount++;
  }
  if (keepCount === 0 && changes.containersToStart.length === 0) {
    changes.killPod = true;
    if (sidecars) changes.initContainersToStart = NO_INDICES;
  }
  return changes;
}
