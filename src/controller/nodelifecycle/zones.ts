// The node lifecycle controller's zones (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
// a zone's state from its nodes' Ready conditions (ComputeZoneState) and the tainter's rate in it
// (setLimiterInZone: HealthyQPSFunc, ReducedQPSFunc).
import type { ConditionStatus } from '../../model/node.js';

/** The tainter's rates: kube-controller-manager's --node-eviction-rate (0.1),
 *  --secondary-node-eviction-rate (0.01), --large-cluster-size-threshold (50) and
 *  --unhealthy-zone-threshold (0.55). */
export interface EvictionRates {
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
  unhealthyZoneThreshold: number;
}

/** ZoneState */
export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** ComputeZoneState: FullDisruption with no node Ready, PartialDisruption with more than two not
 *  Ready and at least unhealthyZoneThreshold of them, else Normal. */
export function computeZoneState(zone: readonly ConditionStatus[], unhealthyZoneThreshold: number): ZoneState {
  const ready = zone.filter((c) => c === 'True').length;
  const notReady = zone.length - ready;
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / zone.length >= unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

/** setLimiterInZone's rate: Normal and FullDisruption (HealthyQPSFunc) at nodeEvictionRate;
 *  PartialDisruption (ReducedQPSFunc) at secondaryNodeEvictionRate above
 *  largeClusterSizeThreshold nodes, else 0. */
export function zoneEvictionQps(r: EvictionRates, zoneSize: number, state: ZoneState): number {
  return state === 'PartialDisruption' ? (zoneSize > r.largeClusterSizeThreshold ? r.secondaryNodeEvictionRate : 0) : r.nodeEvictionRate;
}
