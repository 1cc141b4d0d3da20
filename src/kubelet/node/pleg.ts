// The pod lifecycle event generator (pkg/kubelet/pleg/generic.go) and the pod status cache it
// fills (pkg/kubelet/container/cache.go).
//
// Upstream timestamps the cache with time.Now() and pod workers wait with GetNewerThan(lastSyncTime)
// for a relist that started after their previous sync ended. Virtual time has many events per
// instant, so the cache is stamped with a relist generation instead: a worker that finished a sync
// when the cache was at generation g waits for generation g+1, whatever the clock says.
import { Deferred, type Engine, type Proc, type Rng } from '../../engine/index.js';
import { podKey, type UID } from '../../model/pod.js';
import type { TraceEvent, Tracer } from '../../model/trace.js';
import { goDuration } from './backoff.js';
import type { Runtime } from './runtime.js';
import { PLEG_RELIST_THRESHOLD_MS } from './runtime-state.js';
import { emptyRuntimePodStatus, type RuntimePodStatus } from './types.js';

/** kubecontainer.Cache: the last relisted status of each pod and the global relist generation. */
export class PodCache {
  private readonly pods = new Map<UID, { status: RuntimePodStatus; gen: number }>();
  private gen = 0;
  private waiters: Array<{ uid: UID; minGen: number; d: Deferred<RuntimePodStatus> }> = [];

  constructor(private readonly engine: Engine) {}

  /** How many relists have completed. */
  get generation(): number {
    return this.gen;
  }

  /** Get: the cached status (an empty one for a pod the runtime does not know). */
  get(uid: UID): RuntimePodStatus {
    return this.pods.get(uid)?.status ?? emptyRuntimePodStatus(uid);
  }

  /** Set: record a pod's status as of the relist in progress. */
  set(uid: UID, status: RuntimePodStatus): void {
    this.pods.set(uid, { status, gen: this.gen + 1 });
  }

  delete(uid: UID): void {
    this.pods.delete(uid);
  }

  /** UpdateTime: a relist completed; wake the workers waiting for it. */
  updateTime(): void {
    this.gen++;
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => this.gen > w.minGen);
    this.waiters = this.waiters.filter((w) => this.gen <= w.minGen);
    for (const w of ready) w.d.resolve(this.engine, this.get(w.uid));
  }

  /** GetNewerThan: the pod's status from a relist newer than generation minGen (waits for one). */
  *getNewerThan(uid: UID, minGen: number): Proc<RuntimePodStatus> {
    if (this.gen > minGen) return this.get(uid);
    const d = new Deferred<RuntimePodStatus>();
    this.waiters.push({ uid, minGen, d });
    return (yield d) as RuntimePodStatus; // d.wait(), without its generator
  }
}

export type PodLifeCycleEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged';

export interface PodLifecycleEvent {
  uid: UID;
  type: PodLifeCycleEventType;
  containerID: string;
  container: string;
}

type PlegContainerState = 'running' | 'exited' | 'unknown' | 'non-existent';

/** generateEvents: the events of one container's change of state, appended to `events`. */
function generateEvents(events: PodLifecycleEvent[], uid: UID, id: string, name: string, oldState: PlegContainerState, newState: PlegContainerState): void {
  if (newState === oldState) return;
  switch (newState) {
    case 'running':
      events.push({ uid, type: 'ContainerStarted', containerID: id, container: name });
      return;
    case 'exited':
      events.push({ uid, type: 'ContainerDied', containerID: id, container: name });
      return;
    case 'unknown':
      events.push({ uid, type: 'ContainerChanged', containerID: id, container: name });
      return;
    case 'non-existent':
      if (oldState !== 'exited') events.push({ uid, type: 'ContainerDied', containerID: id, container: name });
      events.push({ uid, type: 'ContainerRemoved', containerID: id, container: name });
  }
}

function plegState(s: RuntimePodStatus['containers'][number]['state']): PlegContainerState {
  if (s === 'running') return 'running';
  if (s === 'exited') return 'exited';
  // created containers count as unknown to the PLEG
  return 'unknown';
}

/** The IDs of the instances the runtime status lists (built once per relisted pod: asking each
 *  record by a scan of the list was O(R²) in the pod's instances). */
function listedIDs(status: RuntimePodStatus): Set<string> {
  const ids = new Set<string>();
  for (const c of status.containers) ids.add(c.id);
  return ids;
}

/** GenericPLEG: relists the runtime, diffs every container's state against the previous relist, fills
 *  the cache and hands the events to the kubelet. */
export class GenericPLEG {
  /** podRecords: the container states of the previous relist. */
  private readonly records = new Map<UID, Map<string, { readonly name: string; state: PlegContainerState }>>();
  /** The pods whose runtime state changed (Runtime.onPodChange) since the previous relist; at first
   *  every pod the runtime holds. */
  private readonly changed = new Set<UID>();
  private readonly unsubscribe: () => void;
  relistCount = 0;
  /** relistTime: the instant of the last relist that reached the runtime (undefined: none yet). */
  private relistMs: number | undefined;
  /** Armed dropPlegEvent faults: the next matching events are discarded (see dropEvents). */
  private drops: Array<{ uid: UID; container?: string; event?: PodLifeCycleEventType; left: number }> = [];

  constructor(
    private readonly runtime: Runtime,
    readonly cache: PodCache,
    private readonly rng: Rng,
    private readonly tracer: Tracer,
    private readonly onEvents: (events: PodLifecycleEvent[]) => void,
  ) {
    for (const uid of runtime.podUIDsUnordered()) this.changed.add(uid);
    this.unsubscribe = runtime.onPodChange((uid) => this.changed.add(uid));
  }

  /** The kubelet stopped: stop collecting changes. */
  stop(): void {
    this.unsubscribe();
  }

  /** Fault (dropPlegEvent): the next `count` events of the pod (of one container, of one type)
   *  are discarded on their way to the sync loop, as generic.go's relist does when the event
   *  channel is full ("Event channel is full, discard this relist() cycle event"): the cache still
   *  has the new state, but no sync is triggered; the pod's next sync (its resync, another event)
   *  reads it from the cache. */
  dropEvents(uid: UID, count: number, container?: string, event?: PodLifeCycleEventType): void {
    this.drops.push({ uid, container, event, left: count });
  }

  /** Whether an event is discarded by an armed drop (which it uses up). */
  private takeDrop(e: PodLifecycleEvent): boolean {
    const d = this.drops.find((x) => x.uid === e.uid && (x.container === undefined || x.container === e.container) && (x.event === undefined || x.event === e.type));
    if (d === undefined) return false;
    if (--d.left === 0) this.drops = this.drops.filter((x) => x !== d);
    return true;
  }

  /** Healthy(): undefined when a relist reached the runtime within relistThreshold (3 min), else the
   *  error's text. */
  health(nowMs: number): string | undefined {
    if (this.relistMs === undefined) return 'pleg has yet to be successful';
    const elapsed = nowMs - this.relistMs;
    if (elapsed > PLEG_RELIST_THRESHOLD_MS) return `pleg was last seen active ${goDuration(elapsed)} ago; threshold is ${goDuration(PLEG_RELIST_THRESHOLD_MS)}`;
    return undefined;
  }

  /** relist: only pods whose runtime state changed since the previous relist are diffed (the others
   *  would produce no event and keep their cached status). With the runtime down, GetPods fails:
   *  nothing is diffed, the cache is not stamped (so pod workers waiting on it wait on), and the
   *  relist time stays where it was. */
  relist(nowMs: number): void {
    this.relistCount++;
    if (this.runtime.criDown) {
      this.tracer.log('error', 'GenericPLEG: Unable to retrieve pods: rpc error: code = Unavailable desc = connection error');
      return;
    }
    this.relistMs = nowMs;
    if (this.changed.size === 0) {
      // nothing to diff (the shuffle of no pod draws nothing)
      this.cache.updateTime();
      return;
    }
    const changed = [...this.changed];
    this.changed.clear();
    // Go iterates podRecords, a map: a seeded order. (One pod's shuffle draws nothing.)
    const order = changed.length === 1 ? changed : this.rng.shuffle(changed.sort());
    const events: PodLifecycleEvent[] = [];
    for (const uid of order) {
      const status = this.runtime.getPodStatus(uid);
      // The pod's records are brought up to date in place: the instances the runtime no longer lists
      // leave, the others take their new state, new ones join at the end (they are the newest), so
      // that the records stay in creation order, as a map rebuilt from this relist would be.
      let records = this.records.get(uid);
      if (records !== undefined) {
        const rs = records;
        const listed = listedIDs(status);
        rs.forEach((o, id) => {
          if (listed.has(id)) return;
          generateEvents(events, uid, id, o.name, o.state, 'non-existent');
          rs.delete(id); // (deleting the entry visited does not disturb the iteration)
        });
      }
      // oldest first, so that a pod's events come in the order its containers were created
      for (let i = status.containers.length - 1; i >= 0; i--) {
        const c = status.containers[i];
        const state = plegState(c.state);
        const o = records?.get(c.id);
        generateEvents(events, uid, c.id, c.name, o?.state ?? 'non-existent', state);
        if (o !== undefined) o.state = state;
        else (records ??= new Map()).set(c.id, { name: c.name, state });
      }
      if (records !== undefined && records.size > 0) this.records.set(uid, records);
      else this.records.delete(uid);
      this.cache.set(uid, status);
    }
    this.cache.updateTime();
    let sent = events;
    // ContainerChanged (a created or unknown container) is filtered out: "not reliable and no other
    // components use yet" (generic.go relist); so are the events an armed drop discards
    if (this.drops.length > 0 || events.some((e) => e.type === 'ContainerChanged')) sent = events.filter((e) => e.type !== 'ContainerChanged' && !this.takeDrop(e));
    for (const e of events) {
      const pod = this.runtime.podOf(e.uid);
      const ev: TraceEvent = { type: 'pleg.event', actor: 'kubelet', pod: pod ? podKey(pod) : undefined, uid: e.uid, event: e.type, container: e.container, containerID: e.containerID };
      if (sent !== events && e.type !== 'ContainerChanged' && !sent.includes(e)) ev.dropped = true;
      this.tracer.emit(ev);
    }
    if (sent.length > 0) this.onEvents(sent);
  }
}
