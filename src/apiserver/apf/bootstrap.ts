// The default API Priority and Fairness configuration: the priority levels and flow schemas an
// apiserver creates at start-up (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go,
// v1.22–v1.31: the same shares, queues, hand sizes and queue length limits since v1.20, and the
// node-high level with its flow schema system-node-high since v1.22, kubernetes#101151; v1.26+
// call AssuredConcurrencyShares NominalConcurrencyShares and add lendable percentages, which kss
// does not model: no borrowing between levels). The flow schemas are reduced to the subjects and
// resources kss's clients can be: the kubelet (user system:node:<name>, group system:nodes) asking
// about pods, tokens, events, nodes and leases; everything else falls to global-default.
// The priority levels' table is model/apf-levels.ts (the scenario loader checks overrides against it).
import { DEFAULT_PRIORITY_LEVELS, type PriorityLevelSpec } from '../../model/apf-levels.js';

/** One request as flow control classifies it (the request digest of apf_filter.go). */
export interface RequestDigest {
  user: string;
  groups: readonly string[];
  /** The Kubernetes verb: get, list, create, update, patch, delete. */
  verb: string;
  /** The resource, with its subresource: pods, pods/status, serviceaccounts/token, events, nodes, nodes/status, leases. */
  resource: string;
  namespace: string;
}

export type { PriorityLevelSpec };
export { DEFAULT_PRIORITY_LEVELS };

export type Distinguisher = 'ByUser' | 'ByNamespace' | null;

export interface FlowSchemaSpec {
  readonly name: string;
  readonly priorityLevel: string;
  readonly precedence: number;
  readonly distinguisher: Distinguisher;
  readonly matches: (r: RequestDigest) => boolean;
}

const NODES_GROUP = 'system:nodes';
const inGroup = (g: string) => (r: RequestDigest) => r.groups.includes(g);

/** The flow schemas, by matching precedence (lowest first). */
export const DEFAULT_FLOW_SCHEMAS: readonly FlowSchemaSpec[] = [
  { name: 'exempt', priorityLevel: 'exempt', precedence: 1, distinguisher: null, matches: inGroup('system:masters') },
  // system-node-high (400): the nodes group on nodes, nodes/status and leases (node health
  // reporting kept apart from pod start-up load, kubernetes#101151).
  {
    name: 'system-node-high', priorityLevel: 'node-high', precedence: 400, distinguisher: 'ByUser',
    matches: (r) => r.groups.includes(NODES_GROUP) && (r.resource === 'nodes' || r.resource === 'nodes/status' || r.resource === 'leases'),
  },
  // system-nodes (500): everything else the nodes group asks.
  { name: 'system-nodes', priorityLevel: 'system', precedence: 500, distinguisher: 'ByUser', matches: inGroup(NODES_GROUP) },
  { name: 'global-default', priorityLevel: 'global-default', precedence: 9900, distinguisher: 'ByUser', matches: inGroup('system:authenticated') },
  { name: 'catch-all', priorityLevel: 'catch-all', precedence: 10000, distinguisher: 'ByUser', matches: () => true },
];

/** --max-requests-inflight + --max-mutating-requests-inflight (kube-apiserver defaults 400 + 200). */
export const DEFAULT_SERVER_CONCURRENCY = 400 + 200;

/** The request wait limit for a request without its own deadline, and the hard cap (apf_filter.go /
 *  filters/priority-and-fairness.go getRequestWaitContext: a quarter of the request's deadline —
 *  --request-timeout 60 s → 15 s —, never above 1 minute). */
export const DEFAULT_REQUEST_WAIT_LIMIT_MS = 15_000;

/**
 * Nominal concurrency limits (apf_controller.go, computeNominalCL): the server's concurrency limit
 * shared among the non-exempt levels in proportion to their shares, rounded up:
 * NominalCL(l) = ceil(serverCL × shares(l) / Σ shares). With the defaults (600 seats, Σ = 245):
 * system 74, node-high 98, leader-election 25, workload-high 98, workload-low 245,
 * global-default 49, catch-all 13.
 */
export function nominalConcurrency(levels: readonly PriorityLevelSpec[], serverConcurrency: number): Map<string, number> {
  let sum = 0;
  for (const l of levels) if (!l.exempt) sum += l.shares;
  const out = new Map<string, number>();
  for (const l of levels) {
    if (l.exempt) continue;
    out.set(l.name, sum > 0 ? Math.ceil((serverConcurrency * l.shares) / sum) : 0);
  }
  return out;
}

/** The flow schema a request matches (lowest precedence, then name, as apf_controller.go sorts them). */
export function classify(schemas: readonly FlowSchemaSpec[], r: RequestDigest): FlowSchemaSpec {
  for (const fs of schemas) if (fs.matches(r)) return fs;
  return schemas[schemas.length - 1]!;
}

/** The flow distinguisher (apf_controller.go computeFlowDistinguisher). */
export function flowDistinguisher(fs: FlowSchemaSpec, r: RequestDigest): string {
  if (fs.distinguisher === 'ByUser') return r.user;
  if (fs.distinguisher === 'ByNamespace') return r.namespace;
  return '';
}
