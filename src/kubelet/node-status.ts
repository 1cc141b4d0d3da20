// pkg/kubelet/kubelet_node_status.go: the kubelet's node status, reduced to the Ready condition.
// Every nodeStatusUpdateFrequency (10 s) updateNodeStatus tries up to nodeStatusUpdateRetry (5)
// times: GET the node, run the Ready setter (True, KubeletReady, "kubelet is posting ready
// status"), and PATCH it only when the status changed (ignoring heartbeat times:
// nodeStatusHasChanged) or nodeStatusReportFrequency (5 min) has passed since the last report.
// A node the controller marked Unknown is thus marked Ready again within 10 s of the link coming
// back. Both requests go through the heartbeat client (not rate limited).
import type { Proc } from '../engine/index.js';
import type { NodeClient, NodeReadyCondition } from '../model/node.js';
import type { VClock } from '../model/time.js';
import type { Tracer } from '../model/trace.js';

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
}

/** The Ready condition the kubelet posts (setters.ReadyCondition with every check passing). */
export function kubeletReady(now: string, prev: NodeReadyCondition | undefined): NodeReadyCondition {
  return {
    status: 'True',
    reason: 'KubeletReady',
    message: 'kubelet is posting ready status',
    lastHeartbeatTime: now,
    lastTransitionTime: prev !== undefined && prev.status === 'True' ? prev.lastTransitionTime : now,
  };
}

/** syncNodeStatus on its ticker, forever. */
export function* nodeStatusLoop(o: NodeStatusOptions): Proc<void> {
  let lastReportMs: number | undefined;
  for (;;) {
    yield o.updateFrequencyMs;
    const reported = yield* updateNodeStatus(o, lastReportMs);
    if (reported) lastReportMs = o.clock.nowMs;
  }
}

/** updateNodeStatus → tryUpdateNodeStatus, up to five tries; whether a status was reported. */
function* updateNodeStatus(o: NodeStatusOptions, lastReportMs: number | undefined): Proc<boolean> {
  for (let i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) {
    const got = yield* o.client.getNode(o.nodeName);
    if (!got.ok) {
      o.tracer.log('error', `Error updating node status, will retry: error getting node "${o.nodeName}": ${got.message}`);
      continue;
    }
    const prev = got.value.ready;
    const changed = prev.status !== 'True' || prev.reason !== 'KubeletReady';
    if (!changed && lastReportMs !== undefined && o.clock.nowMs < lastReportMs + NODE_STATUS_REPORT_FREQUENCY_MS) return false;
    const r = yield* o.client.patchNodeReady(o.nodeName, kubeletReady(o.clock.now(), prev));
    if (r.ok) return true;
    o.tracer.log('error', `Error updating node status, will retry: ${r.message}`);
  }
  o.tracer.log('error', 'Unable to update node status: update node status exceeds retry count');
  return false;
}
