// The QoS class the apiserver writes into a new pod's status (upstream pkg/apis/core/helper/qos
// GetPodQOS, simplified: quantities are compared as written, not parsed).
import type { Container, Pod } from '../model/pod.js';

const COMPUTE = ['cpu', 'memory'] as const;

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** GetPodQOS: BestEffort when no container asks for cpu or memory; Guaranteed when every container
 *  sets cpu and memory limits and its requests (if given) equal them; Burstable otherwise. */
export function getPodQOS(pod: Pod): PodQOSClass {
  const containers: Container[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of COMPUTE) {
      const rq = req[r];
      const lm = lim[r];
      if (rq !== undefined || lm !== undefined) any = true;
      if (lm === undefined || (rq !== undefined && String(rq) !== String(lm))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
