// `kss inspect`: the world at an instant as YAML — each pod's apiserver object, the status manager's
// cache entry and the version sent, what is queued on the status channel, the pod worker's state,
// the runtime's containers, the requests in flight, the faults in force — and, read from the trace,
// the requests in flight and faults of that instant.
import type { TraceRecord } from '../model/trace.js';
import type { RequestInFlight, WorldSnapshot } from '../model/world-snapshot.js';
import { toYamlText } from '../scenario/yaml-text.js';
import { faultName, matchFaults, matchRequests } from './view-model.js';
import { statusChanges } from './status-text.js';

function sec(t: number): string {
  return `${(t / 1000).toFixed(3)}s`;
}

/** The kubelet's requests sent by `atMs` and not answered by then, by pod. */
export function requestsInFlight(trace: readonly TraceRecord[], atMs: number): Map<string, RequestInFlight[]> {
  const out = new Map<string, RequestInFlight[]>();
  for (const s of matchRequests(trace.filter((r) => r.t <= atMs))) {
    if (s.answer !== undefined) continue;
    const list = out.get(s.pod) ?? [];
    list.push({ verb: s.verb, sentAt: sec(s.send.t), sent: s.send.sent });
    out.set(s.pod, list);
  }
  return out;
}

/** The faults begun by `atMs` and not ended by then. */
export function faultsInForce(trace: readonly TraceRecord[], atMs: number): WorldSnapshot['faultsInForce'] {
  return matchFaults(trace.filter((r) => r.t <= atMs))
    .filter((f) => f.end === undefined)
    .map((f) => {
      const extra: Record<string, unknown> = {};
      for (const k of ['node', 'pod', 'container', 'verbs', 'code', 'count', 'forMs', 'downForMs']) if (f.begin[k] !== undefined) extra[k] = f.begin[k];
      return { fault: faultName(f.begin), since: sec(f.begin.t), ...extra };
    });
}

/** The snapshot as YAML, pods filtered to `pod` when given. */
export function inspectYaml(s: WorldSnapshot, pod?: string): string {
  const pods = (pod === undefined ? s.pods : s.pods.filter((p) => p.pod === pod)).map((p) => {
    const cached = p.kubelet?.cached?.status;
    const api = p.apiserver?.status;
    // What the cache holds that the apiserver does not (apiserver → cache), in words.
    const differences = cached !== undefined && api !== undefined ? statusChanges(api, cached) : undefined;
    const { pod: name, node, ...rest } = p;
    return { pod: name, node, cacheVsApiserver: differences === undefined ? undefined : differences.length === 0 ? 'same phase, conditions and containers' : differences, ...rest };
  });
  return toYamlText({ ...s, pods });
}
