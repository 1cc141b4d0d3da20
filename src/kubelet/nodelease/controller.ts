// k8s.io/component-helpers/apimachinery/lease/controller.go, as the kubelet runs it
// (pkg/kubelet/kubelet.go: lease.NewController(..., kl.heartbeatClient, leaseDuration,
// renewInterval = leaseDuration × 0.25, ...)): the node's heartbeat. Every renewInterval (jittered
// by 4 %, measured from the end of the previous sync) the Lease's renewTime is updated; an update
// that fails is retried at once, up to maxUpdateRetries (5) times, and then waits for the next
// interval. Its requests go through the heartbeat client: over the network, not rate limited.
import type { Proc, Rng } from '../../engine/index.js';
import type { NodeClient } from '../../model/node.js';
import type { Tracer } from '../../model/trace.js';

/** maxUpdateRetries */
export const LEASE_MAX_UPDATE_RETRIES = 5;
/** wait.JitterUntil's factor for the lease controller */
export const LEASE_JITTER = 0.04;

export interface LeaseControllerOptions {
  client: NodeClient;
  nodeName: string;
  renewIntervalMs: number;
  rng: Rng;
  tracer: Tracer;
}

/** controller.Run: sync, then sleep the jittered renew interval, forever. */
export function* leaseController(o: LeaseControllerOptions): Proc<void> {
  for (;;) {
    yield* syncLease(o);
    yield o.renewIntervalMs + Math.floor(o.rng.float() * LEASE_JITTER * o.renewIntervalMs);
  }
}

/** controller.sync → retryUpdateLease: up to five updates until one succeeds. */
function* syncLease(o: LeaseControllerOptions): Proc<void> {
  for (let i = 0; i < LEASE_MAX_UPDATE_RETRIES; i++) {
    const r = yield* o.client.renewLease(o.nodeName);
    if (r.ok) return;
    o.tracer.log('error', `failed to update lease, error: ${r.message}`, undefined, { node: o.nodeName });
  }
  o.tracer.log('error', `failed ${LEASE_MAX_UPDATE_RETRIES} attempts to update lease`, undefined, { node: o.nodeName });
}
