// pkg/kubelet/volumemanager (WaitForAttachAndMount) with pkg/kubelet/token (token_manager.go),
// reduced to the one volume source that talks to the apiserver: a projected serviceAccountToken
// (the kube-api-access-* volume the ServiceAccount admission plugin adds to every pod since
// v1.22). Mounting it asks the apiserver for a TokenRequest bound to the pod (CreateToken), through
// the kubelet's own rate-limited client; the token manager caches it per pod, so one request per
// source per pod incarnation (and again after a kubelet restart: the cache is in memory). The
// pod's sync waits for the mount, so its containers start only once the token came back.
import type { Proc } from '../../engine/index.js';
import type { Pod } from '../../model/pod.js';
import type { KubeletState } from './kubelet-state.js';

interface TokenSource {
  volume: string;
  index: number;
}

const NO_SOURCES: readonly TokenSource[] = Object.freeze([]);

/** The pod's projected serviceAccountToken sources (spec.volumes[].projected.sources[]). */
export function tokenSources(pod: Pod): readonly TokenSource[] {
  const volumes = (pod.spec as { volumes?: Array<{ name?: string; projected?: { sources?: Array<{ serviceAccountToken?: unknown }> } }> } | undefined)?.volumes;
  if (volumes == null || volumes.length === 0) return NO_SOURCES; // (asked on every sync)
  const out: TokenSource[] = [];
  for (const v of volumes) {
    (v.projected?.sources ?? []).forEach((s, index) => {
      if (s.serviceAccountToken !== undefined) out.push({ volume: v.name ?? '', index });
    });
  }
  return out;
}

/** True when every token source of the pod is mounted (nothing to ask the apiserver). */
export function volumesMounted(kl: KubeletState, pod: Pod): boolean {
  const sources = tokenSources(pod);
  if (sources.length === 0) return true;
  const uid = pod.metadata?.uid ?? '';
  return sources.every((s) => kl.mountedTokens.has(`${uid}/${s.volume}/${s.index}`));
}

/** WaitForAttachAndMount: request each missing token (GetServiceAccountToken → CreateToken); an
 *  error fails this sync ("unmounted volumes"), the pod worker retries it. */
export function* waitForAttachAndMount(kl: KubeletState, pod: Pod): Proc<string | undefined> {
  const uid = pod.metadata?.uid ?? '';
  const ns = pod.metadata?.namespace ?? 'default';
  const sa = (pod.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? 'default';
  const client = kl.client;
  if (client.createToken === undefined) return undefined;
  for (const s of tokenSources(pod)) {
    const key = `${uid}/${s.volume}/${s.index}`;
    if (kl.mountedTokens.has(key)) continue;
    const r = yield* client.createToken(ns, sa, pod.metadata?.name ?? '');
    if (!r.ok) return `unmounted volumes=[${s.volume}]: MountVolume.SetUp failed for volume "${s.volume}": failed to fetch token: ${r.message}`;
    kl.mountedTokens.add(key);
  }
  return undefined;
}
