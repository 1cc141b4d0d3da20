// The Node API objects the node lifecycle reads and writes (core/v1 Node, reduced to its Ready
// condition and taints), the pod tolerations that answer taints, and the kubelet's client of them.
import type { Proc } from '../engine/index.js';
import type { ApiResult } from './client.js';
import type { Pod } from './pod.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** The Node's Ready condition (v1.NodeCondition). Times are RFC 3339. */
export interface NodeReadyCondition {
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
  readonly lastHeartbeatTime: string;
  readonly lastTransitionTime: string;
}

/** v1.Taint */
export interface Taint {
  readonly key: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly value?: string;
  readonly timeAdded: string;
}

export interface NodeObject {
  readonly name: string;
  readonly ready: NodeReadyCondition;
  readonly taints: readonly Taint[];
  /** Its zone key (zoneKey of its topology labels; "" without them). */
  readonly zone: string;
  /** Its labels (spec.nodes[].labels, with .zone and .region as their topology labels). */
  readonly labels: Readonly<Record<string, string>>;
}

export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';
const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
/** labelNodeDisruptionExclusion (pkg/controller/nodelifecycle) */
export const LABEL_NODE_DISRUPTION_EXCLUSION = 'node.kubernetes.io/exclude-disruption';

/** nodetopology.GetZoneKey (k8s.io/component-helpers/node/topology; pkg/util/node before v1.22):
 *  the node lifecycle controller's zone of a node, from its labels — the deprecated
 *  failure-domain.beta.kubernetes.io/zone and /region first, else topology.kubernetes.io/zone and
 *  /region: "" without a region or a zone, else region + ":\x00:" + zone. */
export function zoneKey(labels: Readonly<Record<string, string>> | undefined): string {
  if (labels === undefined) return '';
  const zone = labels[LABEL_FAILURE_DOMAIN_BETA_ZONE] ?? labels[LABEL_TOPOLOGY_ZONE] ?? '';
  const region = labels[LABEL_FAILURE_DOMAIN_BETA_REGION] ?? labels[LABEL_TOPOLOGY_REGION] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

/** isNodeExcludedFromDisruptionChecks: the node carries node.kubernetes.io/exclude-disruption
 *  (any value): its Ready condition counts in no zone's state. */
export function isNodeExcludedFromDisruptionChecks(node: NodeObject): boolean {
  return Object.hasOwn(node.labels, LABEL_NODE_DISRUPTION_EXCLUSION);
}

/** taints.TaintNodeUnreachable / TaintNodeNotReady */
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';

/** What the kubelet's node lease and node status loops ask of the apiserver (its heartbeat client). */
export interface NodeClient {
  /** GET leases/{node}: its renewTime (virtual ms); 404 when there is none. */
  getLease(node: string): Proc<ApiResult<number>>;
  /** POST leases: a new Lease, renewed now; 409 when it exists. */
  createLease(node: string): Proc<ApiResult<number>>;
  /** PUT leases/{node}, renewed now; 404 when there is none. */
  renewLease(node: string): Proc<ApiResult<number>>;
  getNode(node: string): Proc<ApiResult<NodeObject>>;
  patchNodeReady(node: string, ready: NodeReadyCondition): Proc<ApiResult<NodeObject>>;
}

/** v1.Toleration */
export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

/** Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go). */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** The DefaultTolerationSeconds admission plugin's default (--default-unreachable-toleration-seconds,
 *  --default-not-ready-toleration-seconds): 300 s. */
export const DEFAULT_TOLERATION_SECONDS = 300;

/** The pod's tolerations as the apiserver stores them: the DefaultTolerationSeconds admission
 *  plugin adds `node.kubernetes.io/{not-ready,unreachable}:NoExecute for 300s` to a pod that does
 *  not tolerate those taints already (kss creates pods without admission, so it is applied here). */
export function tolerationsWithDefaults(pod: Pod): Toleration[] {
  const own = ((pod.spec?.tolerations ?? []) as Toleration[]).slice();
  for (const key of [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE]) {
    const probe: Taint = { key, effect: 'NoExecute', timeAdded: '' };
    if (!own.some((t) => toleratesTaint(t, probe))) own.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
  }
  return own;
}
