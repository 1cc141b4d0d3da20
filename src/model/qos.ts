// GetPodQOS (pkg/apis/core/helper/qos), over cpu and memory: the one QoS rule that the loader, the
// apiserver and the kubelet's generated statuses share.
import type { Pod } from './pod.js';

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const SUFFIX: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/** A resource.Quantity as a number (NaN when unreadable, which compares unequal). */
export function quantity(q: string | number): number {
  if (typeof q === 'number') return q;
  const m = /^([+-]?[\d.]+(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]?)$/.exec(q.trim());
  return m ? Number(m[1]) * SUFFIX[m[2]] : NaN;
}

type Resources = { requests?: Record<string, string | number>; limits?: Record<string, string | number> };

/** BestEffort when no container asks for cpu or memory; Guaranteed when every container sets cpu and
 *  memory limits and its requests (defaulted to the limits) equal them; Burstable otherwise. */
export function getPodQOS(pod: Pod): PodQOSClass {
  const spec = pod.spec;
  const containers = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const r = (c.resources ?? {}) as Resources;
    for (const res of ['cpu', 'memory']) {
      const limit = r.limits?.[res];
      // The apiserver defaults a missing request to the limit.
      const request = r.requests?.[res] ?? limit;
      if ([request, limit].some((q) => q !== undefined && quantity(q) !== 0)) any = true;
      if (limit === undefined || request === undefined || quantity(request) !== quantity(limit)) guaranteed = false;
    }
  }
  return !any ? 'BestEffort' : guaranteed ? 'Guaranteed' : 'Burstable';
}
