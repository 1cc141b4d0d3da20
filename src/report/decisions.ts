// Each status-manager decision in words: what it decided and which check decided it (the upstream
// function of status_manager.go named), for the pretty timeline, the diagram and the HTML view.
import type { TraceRecord } from '../model/trace.js';
import { statusChanges, statusText } from './status-text.js';

function skipReason(reason: string, v: string): string {
  if (reason === 'unchanged') return `${v} not sent: the merged status equals the apiserver's, the patch is empty (syncPod: PatchPodStatus unchanged)`;
  if (reason === 'up-to-date') return `${v} not sent: already sent and the pod cannot be deleted yet (needsUpdate false)`;
  if (reason === 'not found') return `${v} not sent: the pod is gone from the apiserver (syncPod: GET 404)`;
  if (reason.startsWith('get failed')) return `${v} not sent: ${reason}; tried again at the next sync (syncPod)`;
  return `${v} not sent: ${reason}`;
}

/** The decision a status.* record stands for, in words; `before`, for a status.set, is the pod's
 *  cached status before it (its changes are named). Undefined for other records. */
export function decisionText(r: TraceRecord, before?: unknown): string | undefined {
  const v = r.version !== undefined ? `v${String(r.version)}` : '';
  switch (r.type) {
    case 'status.set': {
      if (r.cached === undefined) return `cached ${v} (updateStatusInternal)`;
      if (before === undefined) return `cached ${v}: ${statusText(r.cached)} (updateStatusInternal: new entry)`;
      const ch = statusChanges(before, r.cached);
      return `cached ${v}: ${ch.length > 0 ? ch.join(', ') : 'same phase, conditions and containers, other fields changed'} (updateStatusInternal)`;
    }
    case 'status.same':
      return `ignored: equal to cached ${v} (updateStatusInternal: isPodStatusByKubeletEqual)`;
    case 'status.reject':
      return `rejected: ${String(r.message ?? '')} (checkContainerStateTransition)`;
    case 'status.drop':
      return `${v} cached but not queued: the status channel is full (updateStatusInternal, classic)`;
    case 'status.sync':
      return `syncing ${v}: newer than the version sent (syncBatch: needsUpdate / needsReconcile)`;
    case 'status.skip':
      return skipReason(String(r.reason ?? ''), v);
    case 'status.recreated':
      return `not sent: the apiserver's pod has another uid (${String(r.apiUID)}), the pod was recreated; cache entry dropped (syncPod)`;
    case 'status.delete':
      return `${v} sent and the pod can be deleted: DELETE with grace 0 (canBeDeleted)`;
    case 'status.orphan':
      return `entry of a pod the pod manager no longer has: removed (RemoveOrphanedStatuses)`;
    default:
      return undefined;
  }
}

/** The short form for diagram notes: the decision without the upstream function named. */
export function decisionShort(r: TraceRecord, before?: unknown): string | undefined {
  const d = decisionText(r, before);
  return d?.replace(/ \([A-Za-z:,/ ]+(, classic)?\)$/, '').replace(/ \((syncPod|updateStatusInternal)[^)]*\)$/, '');
}
