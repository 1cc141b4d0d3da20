// The pod-condition generators of pkg/kubelet/status/generate.go, both generations.
// Classic = v1.19/v1.20; current = v1.29+ (sidecars, PodFailed on ContainersReady, "any regular
// container started" proves initialization). The conditions carry no timestamps: the status manager
// stamps lastTransitionTime when it caches them.
import type { ContainerStatus, PodCondition, PodSpec } from '../../model/pod.js';
import { getContainerStatus, getPodConditionIndex, isRestartableInitContainerUngated } from './conditions.js';
import { ContainersReady, PodInitialized, PodReady, PodReadyToStartContainers, type Generation, type StatusFeatureGates } from './types.js';

export const UnknownContainerStatuses = 'UnknownContainerStatuses';
export const PodCompleted = 'PodCompleted';
export const PodFailed = 'PodFailed';
export const ContainersNotReady = 'ContainersNotReady';
export const ContainersNotInitialized = 'ContainersNotInitialized';
export const ReadinessGatesNotReady = 'ReadinessGatesNotReady';

/** Go's fmt %s of a []string: "[a b]". */
function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

/** "containers with unready status: [name]", the message of the commonest not-ready verdict (one
 *  container, not ready), kept per container name: strings are values, so the kept one is the
 *  message the general path would spell, without its lists and joins. */
const oneUnreadyMessages = new Map<string, string>();
function oneUnreadyMessage(name: string): string {
  let m = oneUnreadyMessages.get(name);
  if (m === undefined) {
    m = `containers with unready status: ${goList([name])}`;
    if (oneUnreadyMessages.size >= 4096) oneUnreadyMessages.clear();
    oneUnreadyMessages.set(name, m);
  }
  return m;
}

function cond(type: string, status: string, reason?: string, message?: string): PodCondition {
  const c: PodCondition = { type, status };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/** generateContainersReadyConditionForTerminalPhase (current): False with PodFailed / PodCompleted. */
export function generateContainersReadyConditionForTerminalPhase(phase: string | undefined): PodCondition {
  return cond(ContainersReady, 'False', phase === 'Failed' ? PodFailed : phase === 'Succeeded' ? PodCompleted : undefined);
}

/** generatePodReadyConditionForTerminalPhase (current): False with PodFailed / PodCompleted. */
export function generatePodReadyConditionForTerminalPhase(phase: string | undefined): PodCondition {
  return cond(PodReady, 'False', phase === 'Failed' ? PodFailed : phase === 'Succeeded' ? PodCompleted : undefined);
}

/** GenerateContainersReadyCondition. `containerStatuses` undefined is Go's nil (an empty list is not).
 *  Current: restartable init containers (sidecars) must be ready too, and phase Failed gives PodFailed. */
export function generateContainersReadyCondition(
  spec: PodSpec | undefined,
  containerStatuses: readonly ContainerStatus[] | undefined,
  phase: string | undefined,
  gen: Generation,
  gates?: StatusFeatureGates,
): PodCondition {
  if (containerStatuses === undefined || containerStatuses === null) return cond(ContainersReady, 'False', UnknownContainerStatuses);
  // (Indexed loops and lists made at their first name: this runs for every status generated.)
  let unknown: string[] | null = null;
  let unready: string[] | null = null;
  if (gen === 'current') {
    const inits = spec?.initContainers;
    if (inits) {
      for (let i = 0; i < inits.length; i++) {
        const c = inits[i];
        if (!isRestartableInitContainerUngated(c, gen)) continue;
        const s = getContainerStatus(containerStatuses, c.name);
        if (!s) (unknown ??= []).push(c.name);
        else if (!s.ready) (unready ??= []).push(c.name);
      }
    }
  }
  const containers = spec?.containers;
  if (containers) {
    for (let i = 0; i < containers.length; i++) {
      const name = containers[i].name;
      const s = getContainerStatus(containerStatuses, name);
      if (!s) (unknown ??= []).push(name);
      else if (!s.ready) (unready ??= []).push(name);
    }
  }

  if (phase === 'Succeeded' && unknown === null) {
    return gen !== 'classic' ? generateContainersReadyConditionForTerminalPhase(phase) : cond(ContainersReady, 'False', PodCompleted);
  }
  if (gen !== 'classic' && phase === 'Failed') return generateContainersReadyConditionForTerminalPhase(phase);

  if (unknown === null && unready === null) return cond(ContainersReady, 'True');
  if (unknown === null && unready!.length === 1) return cond(ContainersReady, 'False', ContainersNotReady, oneUnreadyMessage(unready![0]));
  const msgs: string[] = [];
  if (unknown !== null) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready !== null) msgs.push(`containers with unready status: ${goList(unready)}`);
  return cond(ContainersReady, 'False', ContainersNotReady, msgs.join(', '));
}

/** GeneratePodReadyCondition: ContainersReady's verdict, then the readiness gates, looked up in
 *  `conditions` (missing, or not "True", makes Ready False with ReadinessGatesNotReady). */
export function generatePodReadyCondition(
  spec: PodSpec | undefined,
  conditions: readonly PodCondition[] | undefined,
  containerStatuses: readonly ContainerStatus[] | undefined,
  phase: string | undefined,
  gen: Generation,
  gates?: StatusFeatureGates,
): PodCondition {
  const cr = generateContainersReadyCondition(spec, containerStatuses, phase, gen, gates);
  if (cr.status !== 'True') return cond(PodReady, cr.status, cr.reason, cr.message);
  const gatesList = spec?.readinessGates;
  if (!gatesList || gatesList.length === 0) return cond(PodReady, 'True');
  const msgs: string[] = [];
  for (const rg of gatesList) {
    const i = getPodConditionIndex(conditions, rg.conditionType);
    if (i < 0) msgs.push(`corresponding condition of pod readiness gate "${rg.conditionType}" does not exist.`);
    else if (conditions![i].status !== 'True') msgs.push(`the status of pod readiness gate "${rg.conditionType}" is not "True", but ${conditions![i].status}`);
  }
  if (msgs.length > 0) return cond(PodReady, 'False', ReadinessGatesNotReady, msgs.join(', '));
  return cond(PodReady, 'True');
}

/** kubecontainer.HasAnyRegularContainerStarted (current): a spec container running or terminated. */
export function hasAnyRegularContainerStarted(spec: PodSpec | undefined, statuses: readonly ContainerStatus[] | undefined): boolean {
  if (!statuses || statuses.length === 0) return false;
  const containers = spec?.containers;
  if (!containers) return false;
  // (a linear search of the spec's names rather than a Set of them: both lists are short)
  for (let i = 0; i < statuses.length; i++) {
    const s = statuses[i];
    if (!(s.state?.running || s.state?.terminated)) continue;
    for (let j = 0; j < containers.length; j++) if (containers[j].name === s.name) return true;
  }
  return false;
}

/** GeneratePodInitializedCondition. Classic: every init container ready. Current: regular init
 *  containers ready, sidecars started; and any regular container having started proves it. */
export function generatePodInitializedCondition(
  spec: PodSpec | undefined,
  containerStatuses: readonly ContainerStatus[] | undefined,
  phase: string | undefined,
  gen: Generation,
  gates?: StatusFeatureGates,
): PodCondition {
  const inits = spec?.initContainers ?? [];
  if ((containerStatuses === undefined || containerStatuses === null) && inits.length > 0) {
    return cond(PodInitialized, 'False', UnknownContainerStatuses);
  }
  // (lists made at their first name: most pods have no init containers)
  let unknown: string[] | null = null;
  let incomplete: string[] | null = null;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    const s = getContainerStatus(containerStatuses, c.name);
    if (!s) {
      (unknown ??= []).push(c.name);
      continue;
    }
    const initialized = isRestartableInitContainerUngated(c, gen) ? s.started === true : s.ready === true;
    if (!initialized) (incomplete ??= []).push(c.name);
  }
  if (phase === 'Succeeded' && unknown === null) return cond(PodInitialized, 'True', PodCompleted);
  if (gen === 'current' && hasAnyRegularContainerStarted(spec, containerStatuses)) return cond(PodInitialized, 'True');
  const msgs: string[] = [];
  if (unknown !== null) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete !== null) msgs.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (msgs.length > 0) return cond(PodInitialized, 'False', ContainersNotInitialized, msgs.join(', '));
  return cond(PodInitialized, 'True');
}

/** GeneratePodReadyToStartContainersCondition (current): True once the sandbox exists with networking. */
export function generatePodReadyToStartContainersCondition(sandboxReady: boolean): PodCondition {
  return cond(PodReadyToStartContainers, sandboxReady ? 'True' : 'False');
}
