// Shared vocabulary of the status-manager port: which kubelet generation a function follows, the
// feature gates that change status behaviour, and the upstream constants.
import type { ContainerState } from '../../model/pod.js';
import { featureGateDefault } from '../../scenario/types.js';

/** The kubelet releases kss models:
 *  - classic = v1.20 (the v1.19/v1.20 status manager and pod workers);
 *  - transitional = v1.23.17 (the last v1.23 patch: v1.20's status loop — the 1000-slot channel,
 *    syncPod's needsUpdate skip, syncBatch() on the ticker — with the v1.22 pod lifecycle refactor
 *    (#102344) and the backports of #108366 (terminal phase held back while containers may run;
 *    TerminatePod rewrites waiting containers of an initialized pod) and #110256 (a terminal phase
 *    forces Ready/ContainersReady False));
 *  - current = v1.27+ (baseline v1.31). */
export type Generation = 'classic' | 'transitional' | 'current';

/** Every generation, oldest first. */
export const GENERATIONS: readonly Generation[] = ['classic', 'transitional', 'current'];

/** v1.20's status loop (classic and transitional): the podStatusChannel of capacity 1000 drained on
 *  the 10 s ticker before syncBatch() (always the full batch), syncPod's needsUpdate skip, and
 *  canBeDeleted asking PodResourcesAreReclaimed alone. v1.27 replaced it with a one-slot wake-up. */
export function hasStatusChannel(gen: Generation): boolean {
  return gen !== 'current';
}

export type StatusFeatureGate = 'PodDisruptionConditions' | 'PodReadyToStartContainersCondition' | 'SidecarContainers' | 'ChangeContainerStatusOnKubeletRestart' | 'RecursiveReadOnlyMounts';

/** The gates that change status behaviour. A gate left out takes the generation's default
 *  (off in classic, on in current), as scenario-format.md says. Structurally compatible with
 *  KubeletConfig.featureGates. */
export type StatusFeatureGates = Partial<Record<StatusFeatureGate, boolean>>;

/** Is the gate on for this generation? */
export function gateEnabled(gen: Generation, gates: StatusFeatureGates | undefined, gate: StatusFeatureGate): boolean {
  const v = gates?.[gate];
  return v === undefined ? featureGateDefault(gate, gen) : v;
}

/** kubecontainer.MaxPodTerminationMessageLogLength: 12 KiB for the whole pod. */
export const MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH = 1024 * 12;

/** kubecontainer.ContainerReasonStatusUnknown */
export const CONTAINER_REASON_STATUS_UNKNOWN = 'ContainerStatusUnknown';
export const CONTAINER_STATUS_UNKNOWN_MESSAGE = 'The container could not be located when the pod was terminated';

/** The state TerminatePod writes for a container it cannot account for (exit 137, no timestamps). */
export const UNKNOWN_TERMINATED_STATE: ContainerState = Object.freeze({
  terminated: Object.freeze({
    exitCode: 137,
    reason: CONTAINER_REASON_STATUS_UNKNOWN,
    message: CONTAINER_STATUS_UNKNOWN_MESSAGE,
  }),
}) as ContainerState;

// Condition types (v1.PodConditionType).
export const PodScheduled = 'PodScheduled';
export const PodReady = 'Ready';
export const PodInitialized = 'Initialized';
export const ContainersReady = 'ContainersReady';
export const PodReadyToStartContainers = 'PodReadyToStartContainers';
export const DisruptionTarget = 'DisruptionTarget';
