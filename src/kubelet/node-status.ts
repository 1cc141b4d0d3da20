// pkg/kubelet/kubelet_node_status.go: the kubelet's node status, reduced to the Ready condition.
// Every nodeStatusUpdateFrequency (10 s) updateNodeStatus tries up to nodeStatusUpdateRetry (5)
// times: GET the node, run the Ready setter (nodestatus.ReadyCondition: True, KubeletReady,
// "kubelet is posting ready status"; False, KubeletNotReady with the errors as the message when a
// check fails — here runtimeErrors ("container runtime is down", "PLEG is not healthy: …") and the
// node shutdown manager's ShutdownStatus, "node is shutting down"), and
// PATCH it only when the status changed (ignoring heartbeat times: nodeStatusHasChanged) or
// nodeStatusReportFrequency (5 min) has passed since the last report. A node the controller marked
// Unknown is thus marked Ready again within 10 s of the link coming back. Both requests go
// through the heartbeat client (not rate limited). syncNodeStatus holds syncNodeStatusMux: the
// shutdown manager's own call (v1.21+) waits for a periodic one in flight, and the other way round.
import type { Channel, Proc } from '../engine/index.js';
import type { NodeClient, NodeReadyCondition } from '../model/node.js';
import type { VClock } from '../model/time.js';
import type { Tracer } from '../model/trace.js';
import { aggregateError } from './node/runtime-state.js';

/** nodeStatusUpdateRetry */
export const NODE_STATUS_UPDATE_RETRY = 5;
/** --node-status-report-frequency default (with the node lease): 5 min */
export const NODE_STATUS_REPORT_FREQUENCY_MS = 5 * 60_000;

export interface NodeStatusOptions {
  client: NodeClient;
  clock: VClock;
  tracer: Tracer;
  nodeName: string;
  updateFrequencyMs: number;
  /** The Ready setter's checks that fail now (runtimeErrors, the shutdown manager's ShutdownStatus),
   *  in upstream's order. */
  errors?: () => string[];
  /** syncNodeStatusMux: a channel of capacity 1, full while a sync runs. */
  mutex: Channel<void>;
  /** lastStatusReportTime (virtual ms), shared by every sync of the incarnation. */
  lastReportMs?: number;
}

/** nodestatus.ReadyCondition: True when every check passes, else False with the errors; the
 *  transition time moves only when the status does. */
export function readyCondition(now: string, prev: NodeReadyCondition | undefined, errs: readonly string[]): NodeReadyCondition {
  const ready = errs.length === 0;
  const status = ready ? 'True' : 'False';
  return {
    status,
    reason: ready ? 'KubeletReady' : 'KubeletNotReady',
    message: ready ? 'kubelet is posting ready status' : aggregateError(errs),
    lastHeartbeatTime: now,
    lastTransitionTime: prev !== undefined && prev.status === status ? prev.lastTransitionTime : now,
  };
}

/** The Ready condition the kubelet posts with every check passing. */
export function kubeletReady(now: string, prev: NodeReadyCondition | undefined): NodeReadyCondition {
  return readyCondition(now, prev, []);
}

/** syncNodeStatus on its ticker, forever. */
export function* nodeStatusLoop(o: NodeStatusOptions): Proc<void> {
  for (;;) {
    yield o.updateFrequencyMs;
    yield* syncNodeStatus(o);
  }
}

/** syncNodeStatus: updateNodeStatus under syncNodeStatusMux. */
export function* syncNodeStatus(o: NodeStatusOptions): Proc<void> {
  yield* o.mutex.send(undefined);
  try {
    if (yield* updateNodeStatus(o)) o.lastReportMs = o.clock.nowMs;
  } finally {
    o.mutex.tryRecv();
  }
}

/** updateNodeStatus → tryUpdateNodeStatus, up to five tries; whether a status was reported. */
function* updateNodeStatus(o: NodeStatusOptions): Proc<boolean> {
  for (let i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) {
    const got = yield* o.client.getNode(o.nodeName);
    if (!got.ok) {
      o.tracer.log('error', `Error updating node status, will retry: error getting node "${o.nodeName}": ${got.message}`);
      continue;
    }
    const prev = got.value.ready;
    const next = readyCondition(o.clock.now(), prev, o.errors?.() ?? []);
    const changed = next.status !== prev.status || next.reason !== prev.reason || next.message !== prev.message || next.lastTransitionTime !== prev.lastTransitionTime;
    if (!changed && o.lastReportMs !== undefined && o.clock.nowMs < o.lastReportMs + NODE_STATUS_REPORT_FREQUENCY_MS) return false;
    const r = yield* o.client.patchNodeReady(o.nodeName, next);
    if (r.ok) return true;
    o.tracer.log('error', `Error updating node status, will retry: ${r.message}`);
  }
  o.tracer.log('error', 'Unable to update node status: update node status exceeds retry count');
  return false;
}
