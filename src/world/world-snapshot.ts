// The World at its current instant as a WorldSnapshot (model/world-snapshot.ts), for `kss inspect`:
// read only — the status manager's cache and versions through its inspection hooks, the apiserver
// through peek/list, the node's pod workers and runtime through their read accessors. Requests in
// flight and faults come from the trace (report/inspect.ts), so they are handed in.
import type { Pod, UID } from '../model/pod.js';
import type { KubeletSnapshot, NodeObjectSnapshot, PodSnapshot, RequestInFlight, WorldSnapshot } from '../model/world-snapshot.js';
import type { NodeSite } from './node-site.js';
import type { World } from './world.js';

function key(p: Pod): string {
  return `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name ?? ''}`;
}

function workerState(site: NodeSite, uid: UID): Record<string, unknown> | undefined {
  const node = site.kubelet?.node;
  if (!node) return undefined;
  const cur = node.workersCurrent?.status(uid);
  if (cur !== undefined) {
    return {
      workType: cur.workType(), syncing: cur.syncing, terminationRequested: cur.isTerminationRequested(), terminated: cur.isTerminated(),
      finished: cur.isFinished(), gracePeriodSeconds: cur.isTerminationRequested() ? cur.gracePeriod : undefined, deleted: cur.deleted || undefined,
    };
  }
  if (node.workersClassic !== null) return { worker: node.workersClassic.hasWorker(uid) ? 'running' : 'none' };
  return undefined;
}

function runtimeState(site: NodeSite, uid: UID): Array<Record<string, unknown>> | undefined {
  if (site.runtime === null) return undefined;
  return site.runtime.containersOf(uid).map((c) => ({
    name: c.name, attempt: c.restartCount, id: c.id, state: c.state,
    exitCode: c.exitCode, reason: c.reason, sigtermAt: c.sigtermAtMs !== undefined ? `${(c.sigtermAtMs / 1000).toFixed(3)}s` : undefined,
  }));
}

/** The pods the apiserver or the kubelet knows, and those a runtime still runs containers of
 *  (a pod gone from both: BZ-25's force-deleted pod that was never killed), sorted by "ns/name",
 *  each with the UID to read it by. */
function podKeys(w: World): Map<string, UID | undefined> {
  const out = new Map<string, UID | undefined>();
  for (const p of w.apiserver.list()) out.set(key(p), p.metadata?.uid);
  for (const site of w.sites) {
    const kl = site.kubelet;
    if (kl === null) continue;
    for (const uid of kl.statusManager.cachedUIDs()) {
      const e = kl.statusManager.cachedEntry(uid)!;
      out.set(`${e.podNamespace}/${e.podName}`, uid);
    }
  }
  for (const site of w.sites) {
    const rt = site.runtime;
    if (rt === null) continue;
    for (const uid of rt.podUIDsUnordered()) {
      const p = rt.podOf(uid);
      if (p !== undefined && rt.hasRunningContainers(uid) && !out.has(key(p))) out.set(key(p), uid);
    }
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** A node's kubelet now: up or not, its incarnation, its status channel (classic). */
function kubeletSnapshot(site: NodeSite): KubeletSnapshot {
  const kl = site.kubelet;
  const rt = site.runtime;
  const containerRuntime = rt !== null && (rt.criDown || rt.networkDown) ? { ...(rt.criDown ? { down: true as const } : {}), ...(rt.networkDown ? { networkNotReady: true as const } : {}) } : undefined;
  if (kl === null) return containerRuntime === undefined ? { up: false } : { up: false, containerRuntime };
  const ch = kl.statusManager.podStatusChannel;
  const snap: KubeletSnapshot = { up: true, incarnation: kl.n, statusChannel: ch ? { queued: ch.len, capacity: ch.cap } : undefined };
  if (containerRuntime !== undefined) snap.containerRuntime = containerRuntime;
  const node = kl.node;
  if (node === null) return snap;
  const { runtimeErrors, networkError } = node.runtimeHealth();
  if (runtimeErrors.length > 0) snap.runtimeErrors = runtimeErrors;
  if (networkError !== undefined) snap.networkError = networkError;
  if (node.syncLoopClosed) snap.syncLoop = 'sleeping';
  return snap;
}

export function worldSnapshot(w: World, atMs: number, inFlight: Map<string, RequestInFlight[]>, faults: WorldSnapshot['faultsInForce']): WorldSnapshot {
  // a scenario with spec.nodes names each pod's node and lists every node's kubelet
  const named = w.scenario.nodes !== undefined;
  const pods: PodSnapshot[] = [];
  for (const [k, apiUID] of podKeys(w)) {
    const site = w.siteOfPod(k);
    const { pod, ...rest } = podSnapshot(w, site, k, apiUID, inFlight);
    pods.push(named ? { pod, node: site.name, ...rest } : { pod, ...rest });
  }
  return {
    scenario: w.scenario.name, seed: w.seed, variant: w.variant, at: `${(atMs / 1000).toFixed(3)}s`,
    kubelet: kubeletSnapshot(w.defaultSite),
    nodes: named ? w.sites.map((site) => ({ name: site.name, kubelet: kubeletSnapshot(site) })) : undefined,
    nodeObjects: w.scenario.nodeLifecycle ? nodeObjects(w) : undefined,
    faultsInForce: faults,
    apiserverLoad: loadSnapshot(w),
    pods,
  };
}

/** One pod as its node's kubelet and runtime (and the apiserver) hold it. */
function podSnapshot(w: World, site: NodeSite, k: string, apiUID: UID | undefined, inFlight: Map<string, RequestInFlight[]>): PodSnapshot {
  const kl = site.kubelet;
  const [ns, name] = [k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)];
  const api = w.apiserver.peek(ns, name);
  // The kubelet's own pod (a static pod's cache entry is under its own uid, not its mirror's).
  const kpod = kl === null ? undefined : [...kl.statusManager.cachedUIDs()].map((u) => kl.statusManager.cachedEntry(u)!).find((e) => `${e.podNamespace}/${e.podName}` === k);
  const uid = kl === null ? apiUID : ([...kl.statusManager.cachedUIDs()].find((u) => kl.statusManager.cachedEntry(u) === kpod) ?? apiUID);
  return {
    pod: k,
    apiserver: api === undefined ? null : { uid: api.metadata?.uid, resourceVersion: api.metadata?.resourceVersion, deletionTimestamp: api.metadata?.deletionTimestamp ?? undefined, status: api.status },
    kubelet: kl === null ? null : {
      cached: kpod === undefined ? null : { version: kpod.version, podIsFinished: kpod.podIsFinished || undefined, status: kpod.status },
      apiStatusVersion: apiUID !== undefined ? kl.statusManager.apiStatusVersion(apiUID) : undefined,
    },
    podWorker: uid !== undefined ? workerState(site, uid) : undefined,
    runtime: uid !== undefined ? runtimeState(site, uid) : undefined,
    requestsInFlight: inFlight.get(k) ?? [],
  };
}

/** The Node objects now, by name: every one the apiserver holds (the scenario's nodes and the
 *  healthy ones), and a scenario's node that was deleted as null. */
function nodeObjects(w: World): NodeObjectSnapshot[] {
  const store = w.apiserver.nodes;
  const names = [...new Set([...w.sites.map((s) => s.name), ...store.names()])].sort();
  return names.map((name) => {
    const n = store.node(name);
    if (n === undefined) return { name, object: null };
    const renew = store.leaseRenewMs(name);
    return {
      name,
      object: {
        ready: { ...n.ready },
        taints: n.taints.length > 0 ? n.taints.map((t) => ({ ...t })) : undefined,
        labels: Object.keys(n.labels).length > 0 ? { ...n.labels } : undefined,
        leaseRenewTime: renew === undefined ? null : w.clock.at(renew),
      },
    };
  });
}

/** Flow control's state now: the levels that have seen a request. */
function loadSnapshot(w: World): WorldSnapshot['apiserverLoad'] {
  const load = w.apiserver.load;
  if (load === null) return undefined;
  const levels = load.levels().filter((l) => l.qs.dispatched + l.qs.rejected > 0);
  return {
    executing: load.inflight,
    priorityLevels: load.cfg.apf === undefined ? undefined : levels.map(({ name, qs }) => ({
      name, seats: qs.cfg.concurrencyLimit, seatsInUse: qs.totSeatsInUse, waiting: qs.totRequestsWaiting, rejected: qs.rejected, dispatched: qs.dispatched,
    })),
  };
}
