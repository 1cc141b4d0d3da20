// The pod phase from its container statuses (pkg/kubelet/kubelet_pods.go getPhase), both generations.
import { isStaticPod, type Container, type ContainerStatus, type Pod, type PodSpec } from '../../model/pod.js';
import { getContainerStatus, isRestartableInitContainer } from '../status/conditions.js';
import { hasAnyRegularContainerStarted } from '../status/generate.js';
import type { StatusFeatureGates } from '../status/types.js';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** getPhase's first loop, shared by both generations: regular init containers still to run
 *  (pending) and those that failed (a non-zero exit, now or as the last termination). */
function countInitContainers(
  inits: readonly Container[],
  statuses: readonly ContainerStatus[],
  skip: (c: Container) => boolean,
): { pendingInitialization: number; failedInitialization: number } {
  let pendingInitialization = 0;
  let failedInitialization = 0;
  for (const c of inits) {
    if (skip(c)) continue;
    const s = getContainerStatus(statuses, c.name);
    if (s === undefined) {
      pendingInitialization++;
      continue;
    }
    const st = s.state ?? {};
    if (st.running) pendingInitialization++;
    else if (st.terminated) {
      if (st.terminated.exitCode !== 0) failedInitialization++;
    } else if (st.waiting) {
      const last = s.lastState?.terminated;
      if (last) {
        if (last.exitCode !== 0) failedInitialization++;
      } else pendingInitialization++;
    } else pendingInitialization++;
  }
  return { pendingInitialization, failedInitialization };
}

interface ContainerCounts {
  unknown: number;
  running: number;
  waiting: number;
  stopped: number;
  succeeded: number;
}

const ZERO_COUNTS: ContainerCounts = { unknown: 0, running: 0, waiting: 0, stopped: 0, succeeded: 0 };

/** getPhase's loop over the regular containers, shared by both generations: adds to `from`. */
function countRegularContainers(containers: readonly Container[], statuses: readonly ContainerStatus[], from: ContainerCounts): ContainerCounts {
  let { unknown, running, waiting, stopped, succeeded } = from;
  for (const c of containers) {
    const s = getContainerStatus(statuses, c.name);
    if (s === undefined) {
      unknown++;
      continue;
    }
    const st = s.state ?? {};
    if (st.running) running++;
    else if (st.terminated) {
      stopped++;
      if (st.terminated.exitCode === 0) succeeded++;
    } else if (st.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  return { unknown, running, waiting, stopped, succeeded };
}

/** getPhase, classic (v1.19/v1.20): `statuses` = containerStatuses ++ initContainerStatuses. */
export function getPhaseClassic(spec: PodSpec | undefined, statuses: readonly ContainerStatus[]): PodPhase {
  const { pendingInitialization, failedInitialization } = countInitContainers(spec?.initContainers ?? [], statuses, () => false);

  const { unknown, running, waiting, stopped, succeeded } = countRegularContainers(spec?.containers ?? [], statuses, ZERO_COUNTS);

  const restartPolicy = spec?.restartPolicy ?? '';
  if (failedInitialization > 0 && restartPolicy === 'Never') return 'Failed';
  if (pendingInitialization > 0 || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** getPhase, current (v1.28+): restartable init containers (sidecars) are counted with the regular
 *  containers, initialization does not hold a pod in Pending once a regular container has started,
 *  and a terminal pod (podIsTerminal, not static) is Succeeded/Failed whatever its restart policy.
 *  With the SidecarContainers gate off this is the v1.27 function. */
export function getPhaseCurrent(pod: Pod, statuses: readonly ContainerStatus[], podIsTerminal: boolean, gates?: StatusFeatureGates): PodPhase {
  const spec = pod.spec;
  const inits = spec?.initContainers ?? [];
  let { pendingInitialization, failedInitialization } = countInitContainers(inits, statuses, (c) => isRestartableInitContainer(c, 'current', gates));

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of inits) {
    if (!isRestartableInitContainer(c, 'current', gates)) continue;
    const s = getContainerStatus(statuses, c.name);
    if (s === undefined) {
      unknown++;
      continue;
    }
    const st = s.state ?? {};
    if (st.running) {
      if (s.started !== true) pendingInitialization++;
      running++;
    } else if (st.terminated) {
      // a stopped sidecar does not count towards the phase
    } else if (st.waiting) {
      if (!s.lastState?.terminated) {
        pendingInitialization++;
        waiting++;
      }
    } else {
      pendingInitialization++;
      unknown++;
    }
  }
  ({ unknown, running, waiting, stopped, succeeded } = countRegularContainers(spec?.containers ?? [], statuses, { unknown, running, waiting, stopped, succeeded }));

  const restartPolicy = spec?.restartPolicy ?? '';
  if (failedInitialization > 0 && restartPolicy === 'Never') return 'Failed';
  if ((pendingInitialization > 0 && !hasAnyRegularContainerStarted(spec, statuses)) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal && !isStaticPod(pod)) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}
