// k8s.io/component-helpers/apimachinery/lease/controller.go (pkg/kubelet/nodelease before v1.23),
// as the kubelet runs it (pkg/kubelet/kubelet.go: lease.NewController(..., kl.heartbeatClient,
// leaseDuration, renewInterval = leaseDuration × 0.25, ...)): the node's heartbeat. Every
// renewInterval (jittered by 4 %, measured from the end of the previous sync: JitterUntil, sliding)
// sync runs:
//  - with the lease it last wrote (latestLease), retryUpdateLease: up to maxUpdateRetries (5)
//    updates until one succeeds; when all fail, "fallback to ensure lease";
//  - backoffEnsureLease: GET the Lease (a 404 creates it, renewed: created, and no update), each
//    failure retried after a back-off doubling from 200 ms to maxBackoff (7 s), for as long as it
//    takes — so a partitioned kubelet keeps asking, and renews within a back-off of the link
//    coming back, not at its next interval;
//  - then, unless just created, retryUpdateLease on what the GET returned.
// So a new kubelet's first heartbeat is a GET (404) and a create, a restarted one's a GET and an
// update. Its requests go through the heartbeat client: over the network, not rate limited.
// Not modelled: onRepeatedHeartbeatFailure (the kubelet closes its connections; kss has none),
// conflicts (no other writer of a node's Lease).
import type { Proc, Rng } from '../../engine/index.js';
import type { NodeClient } from '../../model/node.js';
import type { Tracer } from '../../model/trace.js';
import { goDuration } from '../node/backoff.js';

/** maxUpdateRetries */
export const LEASE_MAX_UPDATE_RETRIES = 5;
/** wait.JitterUntil's factor for the lease controller */
export const LEASE_JITTER = 0.04;
/** maxBackoff: the longest wait between two of backoffEnsureLease's tries */
export const LEASE_MAX_BACKOFF_MS = 7_000;

export interface LeaseControllerOptions {
  client: NodeClient;
  nodeName: string;
  renewIntervalMs: number;
  rng: Rng;
  tracer: Tracer;
}

/** controller.Run: sync, then sleep the jittered renew interval, forever. */
export function* leaseController(o: LeaseControllerOptions): Proc<void> {
  const state: LeaseState = { latest: false };
  for (;;) {
    yield* syncLease(o, state);
    yield o.renewIntervalMs + Math.floor(o.rng.float() * LEASE_JITTER * o.renewIntervalMs);
  }
}

/** What the controller holds between syncs: whether it has a latestLease. */
interface LeaseState {
  latest: boolean;
}

/** controller.sync */
function* syncLease(o: LeaseControllerOptions, s: LeaseState): Proc<void> {
  if (s.latest) {
    if (yield* retryUpdateLease(o)) return;
    o.tracer.log('info', `failed to update lease using latest lease, fallback to ensure lease, err: failed ${LEASE_MAX_UPDATE_RETRIES} attempts to update lease`, undefined, { node: o.nodeName });
  }
  const created = yield* backoffEnsureLease(o);
  s.latest = true;
  if (created) return; // we don't need to update the lease if we just created it
  if (!(yield* retryUpdateLease(o))) {
    o.tracer.log('error', `failed ${LEASE_MAX_UPDATE_RETRIES} attempts to update lease, will retry after ${goDuration(o.renewIntervalMs)}`, undefined, { node: o.nodeName });
  }
}

/** retryUpdateLease: up to five updates until one succeeds. */
function* retryUpdateLease(o: LeaseControllerOptions): Proc<boolean> {
  for (let i = 0; i < LEASE_MAX_UPDATE_RETRIES; i++) {
    const r = yield* o.client.renewLease(o.nodeName);
    if (r.ok) return true;
    o.tracer.log('error', `failed to update lease, error: ${r.message}`, undefined, { node: o.nodeName });
  }
  return false;
}

/** backoffEnsureLease → ensureLease until it succeeds: GET, and on a 404 create; whether it
 *  created the lease. */
function* backoffEnsureLease(o: LeaseControllerOptions): Proc<boolean> {
  let sleep = 100;
  for (;;) {
    const got = yield* o.client.getLease(o.nodeName);
    if (got.ok) return false;
    let err = got.message;
    if (got.code === 404) {
      const made = yield* o.client.createLease(o.nodeName);
      if (made.ok) return true;
      err = made.message;
    }
    sleep = Math.min(2 * sleep, LEASE_MAX_BACKOFF_MS);
    o.tracer.log('error', `failed to ensure node lease exists, will retry in ${goDuration(sleep)}, error: ${err}`, undefined, { node: o.nodeName });
    yield sleep;
  }
}
