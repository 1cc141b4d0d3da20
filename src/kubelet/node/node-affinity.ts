// k8s.io/component-helpers/scheduling/corev1/nodeaffinity: GetRequiredNodeAffinity(pod).Match(node)
// — the pod's nodeSelector and its required node affinity against the node's labels (and its name,
// the one field matchFields may name) — as the kubelet's predicate admission runs it
// (lifecycle/predicate.go, scheduler.AdmissionCheck), with the labels a kubelet registers its node
// with (initialNode: hostname, os, arch, and their beta twins) under the scenario's node labels.
import type { Pod } from '../../model/pod.js';

type Requirement = { key: string; operator: string; values?: string[] };
type Term = { matchExpressions?: Requirement[]; matchFields?: Requirement[] };

/** The labels of the kubelet's Node: initialNode's, then spec.nodes[].labels over them. */
export function nodeLabelsOf(nodeName: string, given: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return {
    'kubernetes.io/hostname': nodeName,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'beta.kubernetes.io/arch': 'amd64',
    ...given,
  };
}

/** NodeSelectorRequirement against a label set (labels.Selector's operators). */
function requirementMatches(r: Requirement, get: (key: string) => string | undefined): boolean {
  const v = get(r.key);
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return v !== undefined && values.includes(v);
    case 'NotIn':
      return v === undefined || !values.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
    case 'Lt': {
      // (the label's and the requirement's values as integers; an unparsable one matches nothing)
      if (v === undefined || values.length !== 1 || !/^-?\d+$/.test(v) || !/^-?\d+$/.test(values[0])) return false;
      return r.operator === 'Gt' ? BigInt(v) > BigInt(values[0]) : BigInt(v) < BigInt(values[0]);
    }
    default:
      return false;
  }
}

/** A term matches when it has requirements and every one holds (an empty term matches nothing). */
function termMatches(t: Term, labels: Readonly<Record<string, string>>, nodeName: string): boolean {
  const exprs = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  return exprs.every((r) => requirementMatches(r, (k) => (Object.hasOwn(labels, k) ? labels[k] : undefined))) && fields.every((r) => requirementMatches(r, (k) => (k === 'metadata.name' ? nodeName : undefined)));
}

/** Whether the pod's nodeSelector and required node affinity (any of its terms) match the node. */
export function requiredNodeAffinityMatches(pod: Pod, labels: Readonly<Record<string, string>>, nodeName: string): boolean {
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms as Term[]).some((t) => termMatches(t, labels, nodeName));
}

/** getContainerPorts: the ports of the pod's regular containers that ask for a host port. */
export function hostPortsOf(pod: Pod): NonNullable<NonNullable<Pod['spec']>['containers'][number]['ports']> {
  return (pod.spec?.containers ?? []).flatMap((c) => (c.ports ?? []).filter((x) => (x.hostPort ?? 0) > 0));
}

/** nodeports.Fits: whether none of the pod's host ports (a regular container's port with hostPort
 *  above 0) is taken by another pod's on the same protocol — 0.0.0.0 (the default host IP) against
 *  any address, or the same address (HostPortInfo.CheckConflict). */
export function hostPortsFit(pod: Pod, others: readonly Pod[]): boolean {
  const want = hostPortsOf(pod);
  if (want.length === 0) return true;
  const used = others.flatMap(hostPortsOf);
  const ip = (x: { hostIP?: string }) => x.hostIP || '0.0.0.0';
  return !want.some((w) => used.some((u) => u.hostPort === w.hostPort && (u.protocol ?? 'TCP') === (w.protocol ?? 'TCP') && (ip(u) === '0.0.0.0' || ip(w) === '0.0.0.0' || ip(u) === ip(w))));
}
