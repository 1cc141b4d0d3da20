// The request storm of a cluster run, for `kss run` (text and --format json): the requests the
// apiserver served for the kubelet, their peak rate, the 429s and the retries they caused, and
// how long after the last timeline step the kubelet's cache and the apiserver agreed for good
// (the `converged` assertion's criterion). Read from the trace records, and from the convergence
// clock runScenario keeps when asked (RunOptions.load).
import type { Scenario } from '../scenario/types.js';
import { peakInWindow } from './scale-assertions.js';
import type { TraceRecord } from './tracer.js';

const SERVED = new Set(['api.get', 'api.patch', 'api.delete', 'api.create', 'api.token', 'api.event']);

export interface LoadSummary {
  /** Kubelet requests the apiserver served (api.get/patch/delete/create/token/event). */
  served: number;
  /** The most served in any 1 s window, and where that window starts. */
  peakPerSecond: number;
  peakAtMs: number;
  /** The most served in any 1 s window from the last step on (the storm after the last fault). */
  peakSinceLastStep: number;
  /** The same, per verb (get, patch, delete, create, token, event). */
  peakByVerb: Record<string, number>;
  /** 429 answers (flow control's, and injected ones). */
  tooManyRequests: number;
  /** Of them, flow control's, by priority level. */
  rejectedByLevel: Record<string, number>;
  /** Retries after a Retry-After (api.retry). */
  retries: number;
  /** Requests the client gave up on (api.error code timeout). */
  timeouts: number;
  /** The last timeline step (0 without one). */
  lastStepMs: number;
  /** From when the kubelet's cache and the apiserver agreed to the end of the run (null: they
   *  did not at the end), and how long after the last step that was. */
  convergedAtMs: number | null;
  convergeMs: number | null;
}

/** A cluster run: tagged `cluster`, or an apiserver under load. */
export function isClusterRun(s: Scenario): boolean {
  return s.tags.includes('cluster') || s.apiserver.serviceTime !== undefined || s.apiserver.apf !== undefined;
}

export function loadSummary(trace: readonly TraceRecord[], lastStepMs: number, convergedAtMs: number | null): LoadSummary {
  const all: number[] = [];
  const byVerb = new Map<string, number[]>();
  const rejectedByLevel: Record<string, number> = {};
  let tooMany = 0;
  let retries = 0;
  let timeouts = 0;
  for (const r of trace) {
    if (r.actor !== 'kubelet') continue;
    if (SERVED.has(r.type)) {
      all.push(r.t);
      const v = r.type.slice(4);
      let list = byVerb.get(v);
      if (list === undefined) byVerb.set(v, (list = []));
      list.push(r.t);
    } else if (r.type === 'api.error') {
      if (r.code === 429) {
        tooMany++;
        if (typeof r.priorityLevel === 'string') rejectedByLevel[r.priorityLevel] = (rejectedByLevel[r.priorityLevel] ?? 0) + 1;
      } else if (r.code === 'timeout') timeouts++;
    } else if (r.type === 'api.retry') retries++;
  }
  const peak = peakInWindow(all, 1000);
  const since = peakInWindow(all.filter((t) => t >= lastStepMs), 1000);
  const peakByVerb: Record<string, number> = {};
  for (const [v, times] of [...byVerb].sort(([a], [b]) => (a < b ? -1 : 1))) peakByVerb[v] = peakInWindow(times, 1000).count;
  return {
    served: all.length,
    peakPerSecond: peak.count,
    peakAtMs: peak.atMs,
    peakSinceLastStep: since.count,
    peakByVerb,
    tooManyRequests: tooMany,
    rejectedByLevel,
    retries,
    timeouts,
    lastStepMs,
    convergedAtMs,
    convergeMs: convergedAtMs === null ? null : Math.max(0, convergedAtMs - lastStepMs),
  };
}
