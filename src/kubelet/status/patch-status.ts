// pkg/util/pod/pod.go: preparePatchBytesForPodStatus, the patch statusutil.PatchPodStatus sends.
import { createTwoWayMergePatch } from '../../model/strategic-merge.js';
import type { PodStatus, UID } from '../../model/pod.js';
import { goJsonPodStatus } from './semantic.js';

/** preparePatchBytesForPodStatus: the two-way strategic merge patch from {status: old} to
 *  {metadata: {uid}, status: new}, both in the form encoding/json gives them (a metadata.uid of ""
 *  is omitted, as omitempty does). Unchanged iff the patch is exactly {metadata: {uid}}, which a uid
 *  of "" can never be. */
export function preparePatchForPodStatus(uid: UID, oldStatus: PodStatus, newStatus: PodStatus): { patch: Record<string, unknown>; unchanged: boolean } {
  const original = { status: goJsonPodStatus(oldStatus) };
  const modified = uid === '' ? { status: goJsonPodStatus(newStatus) } : { metadata: { uid }, status: goJsonPodStatus(newStatus) };
  const patch = createTwoWayMergePatch(original, modified);
  // The patch always carries `metadata` (which `original` lacks), and a `status` entry exactly
  // when the two statuses differ: so it is {metadata: {uid}} iff it has no `status`.
  return { patch, unchanged: uid !== '' && patch.status === undefined };
}
