// What a golden needs from a finished run, beyond its trace: the apiserver's stored objects by
// resourceVersion, and the final state of the apiserver and of the status manager's cache.
import type { GoldenSource } from '../report/golden.js';
import type { RunResult } from '../world/run.js';

function storedView(obj: { metadata?: { uid?: string; deletionTimestamp?: string | null }; status?: unknown } | null) {
  if (obj === null) return null;
  return { uid: obj.metadata?.uid, deletionTimestamp: obj.metadata?.deletionTimestamp ?? undefined, status: obj.status ?? {} };
}

export function goldenSource(r: RunResult): GoldenSource {
  const w = r.world;
  const byRv = new Map<number, ReturnType<typeof storedView>>();
  for (const wr of w.apiserver.history) byRv.set(wr.resourceVersion, storedView(wr.object));
  const final: Array<Record<string, unknown>> = [];
  for (const pod of w.apiserver.list()) {
    final.push({ final: 'apiserver', pod: `${pod.metadata?.namespace}/${pod.metadata?.name}`, ...storedView(pod) });
  }
  const kl = w.kubelet;
  if (kl === null) final.push({ final: 'kubelet', down: true });
  else {
    for (const uid of kl.statusManager.cachedUIDs()) {
      const e = kl.statusManager.cachedEntry(uid);
      if (e === undefined) continue;
      final.push({
        final: 'kubelet',
        pod: `${e.podNamespace}/${e.podName}`,
        uid,
        version: e.version,
        apiStatusVersion: kl.statusManager.apiStatusVersion(uid),
        podIsFinished: e.podIsFinished || undefined,
        status: e.status,
      });
    }
  }
  return { scenario: r.scenario, seed: r.seed, variant: r.variant, trace: r.trace, storedAt: (rv) => byRv.get(rv), final };
}
