// v1qos.GetPodQOS as the kubelet writes it into every generated status. Kept in step with the
// apiserver's (same rules, quantities compared as written) so that the two never disagree.
import type { Container, Pod } from '../../model/pod.js';

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** GetPodQOS: BestEffort when no container asks for cpu or memory; Guaranteed when every container
 *  sets cpu and memory limits and its requests (if any) equal them; Burstable otherwise. */
export function getPodQOS(pod: Pod): PodQOSClass {
  const all: Container[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let asksAnything = false;
  let guaranteed = true;
  for (const c of all) {
    for (const r of ['cpu', 'memory'] as const) {
      const req = c.resources?.requests?.[r];
      const lim = c.resources?.limits?.[r];
      if (req !== undefined || lim !== undefined) asksAnything = true;
      if (lim === undefined || (req !== undefined && String(req) !== String(lim))) guaranteed = false;
    }
  }
  if (!asksAnything) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
