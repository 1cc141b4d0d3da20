// The cluster's parts of spec (docs/scenario-format.md "Many nodes", "Extensions"): the node
// lifecycle's settings (spec.nodeLifecycle) and the check that a node's zone is given once (as
// `zone`, or as its label in `labels`). Used by schema.ts.
import { z } from 'zod';
import { LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE } from '../model/node.js';
import { positiveDuration } from './schema-values.js';

/** spec.nodeLifecycle: kube-controller-manager's and the kubelet's settings (build.ts gives the
 *  defaults). */
export const nodeLifecycle = z.strictObject({
  nodeMonitorPeriod: positiveDuration.optional(),
  nodeMonitorGracePeriod: positiveDuration.optional(),
  leaseDuration: positiveDuration.optional(),
  nodeStatusUpdateFrequency: positiveDuration.optional(),
  healthyNodes: z.int().min(0).max(1000).optional(),
  nodeEvictionRate: z.number().min(0).max(1000).optional().meta({ description: '--node-eviction-rate: nodes tainted per second in a healthy zone (default 0.1)' }),
  secondaryNodeEvictionRate: z.number().min(0).max(1000).optional().meta({ description: '--secondary-node-eviction-rate: per second in a partially disrupted zone of more than largeClusterSizeThreshold nodes (default 0.01)' }),
  largeClusterSizeThreshold: z.int().min(0).max(100000).optional().meta({ description: '--large-cluster-size-threshold: a partially disrupted zone of at most this many nodes taints none (default 50)' }),
  unhealthyZoneThreshold: z.number().min(0).max(1).optional().meta({ description: '--unhealthy-zone-threshold: the share of not-Ready nodes (more than 2) that makes a zone partially disrupted (default 0.55)' }),
  terminatedPodGCThreshold: z.int().min(0).max(10_000_000).optional().meta({ description: '--terminated-pod-gc-threshold: PodGC force-deletes the terminated pods (Succeeded, Failed) beyond this many, the oldest first (default 12500; 0: never)' }),
});

/** A node's zone and region given once: as `zone` / `region`, or as the topology label. */
export function zoneGivenOnce(n: { zone?: string; region?: string; labels?: Record<string, string> }, ctx: z.RefinementCtx): void {
  for (const [field, label] of [['zone', LABEL_TOPOLOGY_ZONE], ['region', LABEL_TOPOLOGY_REGION]] as const) {
    if (n[field] === undefined || n.labels?.[label] === undefined) continue;
    const expected = `the ${field} once: \`${field}\` or the label ${label}, not both`;
    ctx.addIssue({ code: 'custom', path: ['labels', label], input: label, message: `expected ${expected}, got both`, params: { code: 'DUPLICATE_LABEL', expected, got: 'both', atKey: true } });
  }
}
