// pkg/kubelet/lifecycle/predicate.go (predicateAdmitHandler, generalFilter) with the scheduler's
// noderesources fitsRequest and component-helpers resource.PodRequests, for the node's allocatable
// resources (`spec.kubelet.allocatable`; absent, kss's node has no limit — upstream's default
// maxPods is 110): a pod handed to the kubelet that does not fit beside the active pods is rejected,
// reason OutOf<resource> and "Node didn't have enough resource: <r>, requested: <n>, used: <n>,
// capacity: <n>" (cpu in millicores, memory and ephemeral-storage in bytes); the first failure
// counts, pods first; then the node affinity and the host ports (node-affinity.ts), and the node's
// NoExecute taints; before them all (v1.25+) the pod's OS label and field. Not modelled: extended
// resources, the critical pod admission handler's preemption of other pods.
import { isMirrorPod, isPodPhaseTerminal, isStaticPod, type Container, type Pod, type UID } from '../../model/pod.js';
import { toleratesTaint, tolerationsWithDefaults } from '../../model/node.js';
import { parseQuantityValue, scaledValue } from '../../model/quantity.js';
import type { Allocatable } from '../../scenario/types.js';
import { gateEnabled } from '../status/types.js';
import { notRunning } from './api-status.js';
import type { KubeletState } from './kubelet-state.js';
import { hostPortsFit, hostPortsOf, nodeLabelsOf, requiredNodeAffinityMatches } from './node-affinity.js';

/** The requests a pod counts for, as the scheduler sums them. */
export interface PodRequests {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
}

type ResourceList = Record<string, string | number> | undefined;

/** Requests in fitsRequest's units, a limit standing in for a missing request (the apiserver
 *  defaults it so). */
function requestsOf(requests: ResourceList, limits?: ResourceList): PodRequests {
  const get = (name: string, scale: number) => {
    const v = requests?.[name] ?? limits?.[name];
    const q = v === undefined ? undefined : parseQuantityValue(v);
    return q === undefined ? 0 : scaledValue(q, scale);
  };
  return { milliCPU: get('cpu', -3), memory: get('memory', 0), ephemeralStorage: get('ephemeral-storage', 0) };
}

/** A container's requests. */
function containerRequests(c: Container): PodRequests {
  const r = c.resources as { requests?: ResourceList; limits?: ResourceList } | undefined;
  return requestsOf(r?.requests, r?.limits);
}

const add = (a: PodRequests, b: PodRequests): PodRequests => ({ milliCPU: a.milliCPU + b.milliCPU, memory: a.memory + b.memory, ephemeralStorage: a.ephemeralStorage + b.ephemeralStorage });
const max = (a: PodRequests, b: PodRequests): PodRequests => ({ milliCPU: Math.max(a.milliCPU, b.milliCPU), memory: Math.max(a.memory, b.memory), ephemeralStorage: Math.max(a.ephemeralStorage, b.ephemeralStorage) });
const ZERO: PodRequests = { milliCPU: 0, memory: 0, ephemeralStorage: 0 };

/** resource.PodRequests: the regular containers and the sidecars summed; each init container with
 *  the sidecars started before it (the largest such moment); the larger of the two; and the pod's
 *  overhead. */
export function podRequests(pod: Pod, sidecars: boolean): PodRequests {
  let reqs = ZERO;
  for (const c of pod.spec?.containers ?? []) reqs = add(reqs, containerRequests(c));
  let restartable = ZERO;
  let init = ZERO;
  for (const c of pod.spec?.initContainers ?? []) {
    let r = containerRequests(c);
    if (sidecars && c.restartPolicy === 'Always') {
      reqs = add(reqs, r);
      restartable = add(restartable, r);
      r = restartable;
    } else r = add(r, restartable);
    init = max(init, r);
  }
  reqs = max(reqs, init);
  const overhead = pod.spec?.overhead as ResourceList;
  return overhead ? add(reqs, requestsOf(overhead)) : reqs;
}

/** The node's allocatable resources in the units fitsRequest compares. */
function allocatableOf(a: Allocatable): { pods?: number; milliCPU?: number; memory?: number; ephemeralStorage?: number } {
  const q = (v: string | number | undefined, scale: number) => (v === undefined ? undefined : scaledValue(parseQuantityValue(v)!, scale));
  return { pods: a.pods, milliCPU: q(a.cpu, -3), memory: q(a.memory, 0), ephemeralStorage: q(a['ephemeral-storage'], 0) };
}

/** The predicate admit handler's answer for `pod` beside the active pods `others` (undefined: it
 *  fits). */
export function admitByResources(allocatable: Allocatable, pod: Pod, others: readonly Pod[], sidecars: boolean): { reason: string; message: string } | undefined {
  const cap = allocatableOf(allocatable);
  const fail = (resource: string, requested: number, used: number, capacity: number) => ({
    reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  });
  if (cap.pods !== undefined && others.length + 1 > cap.pods) return fail('pods', 1, others.length, cap.pods);
  const want = podRequests(pod, sidecars);
  if (want.milliCPU === 0 && want.memory === 0 && want.ephemeralStorage === 0) return undefined;
  let used = ZERO;
  for (const p of others) used = add(used, podRequests(p, sidecars));
  if (cap.milliCPU !== undefined && want.milliCPU > 0 && want.milliCPU > cap.milliCPU - used.milliCPU) return fail('cpu', want.milliCPU, used.milliCPU, cap.milliCPU);
  if (cap.memory !== undefined && want.memory > 0 && want.memory > cap.memory - used.memory) return fail('memory', want.memory, used.memory, cap.memory);
  if (cap.ephemeralStorage !== undefined && want.ephemeralStorage > 0 && want.ephemeralStorage > cap.ephemeralStorage - used.ephemeralStorage) {
    return fail('ephemeral-storage', want.ephemeralStorage, used.ephemeralStorage, cap.ephemeralStorage);
  }
  return undefined;
}

/** The active pods HandlePodAdditions admits against (besides `uid`): v1.22+ filterOutInactivePods
 *  — not known terminated by the pod workers, and not terminal (the API's phase or the status
 *  manager's) unless termination was requested; classic filterOutTerminatedPods — not terminal and
 *  not deleted with nothing running, per the cached status (else the API's). */
export function activePods(kl: KubeletState, uid: UID): Pod[] {
  const out: Pod[] = [];
  const workers = kl.workersCurrent;
  // (the pods handed to the kubelet before this one: upstream's pod manager before its AddPod — at
  // a kubelet's start, the first list's pods before it in creation order)
  for (const [id, p] of kl.lastConfig) {
    if (id === uid || isMirrorPod(p)) continue;
    const cached = kl.sm.getPodStatus(id);
    if (workers !== null) {
      const st = workers.status(id);
      if (st?.isTerminated()) continue;
      const terminal = isPodPhaseTerminal(p.status?.phase) || isPodPhaseTerminal(cached?.phase);
      if (terminal && !st?.isTerminationRequested()) continue;
    } else {
      const status = cached ?? p.status ?? {};
      if (isPodPhaseTerminal(status.phase) || (!!p.metadata?.deletionTimestamp && notRunning(status.containerStatuses))) continue;
    }
    out.push(p);
  }
  return out;
}

/** The predicate admit handler for a pod handed to the kubelet, the first failure being the
 *  answer: (current) its OS label and field; its resources against the node's allocatable ones
 *  (when the scenario gives them); its nodeSelector and required node affinity against the node's
 *  labels; its host ports against the active pods' (scheduler.AdmissionCheck's order); its
 *  tolerations against the node's NoExecute taints (generalFilter). A predicate's reason is its
 *  name, e.g. NodeAffinity, "Predicate NodeAffinity failed: node(s) didn't match Pod's node
 *  affinity/selector" (before v1.27 the name only). The active pods are gathered (one pass over the
 *  kubelet's pods) only for the checks that need them. */
export function admitPredicates(kl: KubeletState, pod: Pod): { reason: string; message: string } | undefined {
  const name = kl.config.nodeName;
  const labels = nodeLabelsOf(name, kl.nodeLabels() ?? kl.config.nodeLabels);
  // (v1.25+, IdentifyPodOS: checks preemption could not help come first)
  if (kl.gen === 'current') {
    const os = pod.metadata?.labels?.['kubernetes.io/os'];
    if (os !== undefined && os !== labels['kubernetes.io/os']) return { reason: 'PodOSSelectorNodeLabelDoesNotMatch', message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label" };
    if (pod.spec?.os?.name !== undefined && pod.spec.os.name !== 'linux') return { reason: 'PodOSNotSupported', message: "Failed to admit pod as the OS field doesn't match node OS" };
  }
  const a = kl.config.allocatable;
  const others = a !== undefined || hostPortsOf(pod).length > 0 ? activePods(kl, pod.metadata?.uid ?? '') : [];
  const resources = a === undefined ? undefined : admitByResources(a, pod, others, gateEnabled(kl.gen, kl.gates, 'SidecarContainers'));
  if (resources !== undefined) return resources;
  if (!requiredNodeAffinityMatches(pod, labels, name)) return predicateFailure(kl, 'NodeAffinity', "node(s) didn't match Pod's node affinity/selector");
  if (!hostPortsFit(pod, others)) return predicateFailure(kl, 'NodePorts', "node(s) didn't have free ports for the requested pod ports");
  // generalFilter: a NoExecute taint the pod does not tolerate (its stored tolerations, with the
  // DefaultTolerationSeconds ones), except for a static pod
  if (isStaticPod(pod)) return undefined;
  const tolerations = tolerationsWithDefaults(pod);
  const untolerated = kl.nodeTaints().some((t) => t.effect === 'NoExecute' && !tolerations.some((tol) => toleratesTaint(tol, t)));
  return untolerated ? predicateFailure(kl, 'TaintToleration', "node(s) had taints that the pod didn't tolerate") : undefined;
}

/** PredicateFailureError: reason the predicate's name, message "Predicate <name> failed: <desc>"
 *  (before v1.27 the name only). */
function predicateFailure(kl: KubeletState, name: string, desc: string): { reason: string; message: string } {
  return { reason: name, message: kl.gen === 'current' ? `Predicate ${name} failed: ${desc}` : `Predicate ${name} failed` };
}
