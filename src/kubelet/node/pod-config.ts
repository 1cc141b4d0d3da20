// pkg/kubelet/config/config.go: how the config source tells a pod's update from a status-only change.
import type { Pod } from '../../model/pod.js';
import { stableStringify } from './backoff.js';

/** podsDifferSemantically: spec, labels, annotations, deletion timestamp and grace. */
export function podsDifferSemantically(a: Pod, b: Pod): boolean {
  // fast path: a status-only update keeps the other fields' objects (frozen, shared)
  const am = a.metadata;
  const bm = b.metadata;
  if (
    a.spec === b.spec &&
    am?.labels === bm?.labels &&
    am?.annotations === bm?.annotations &&
    am?.deletionTimestamp === bm?.deletionTimestamp &&
    am?.deletionGracePeriodSeconds === bm?.deletionGracePeriodSeconds
  ) {
    return false;
  }
  const key = (p: Pod) =>
    stableStringify({
      spec: p.spec,
      labels: p.metadata?.labels,
      annotations: p.metadata?.annotations,
      deletionTimestamp: p.metadata?.deletionTimestamp,
      deletionGracePeriodSeconds: p.metadata?.deletionGracePeriodSeconds,
    });
  return key(a) !== key(b);
}
