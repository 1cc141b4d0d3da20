// The apiserver's pod store: the stored objects, the one resourceVersion counter, the history of
// every write, and the watch (the role of k8s.io/apiserver's storage and watch cache, reduced to
// what spec §6 needs). The base of ApiServer (api-server.ts), which serves the requests on it.
//
// Stored objects are immutable values (immer): a read hands out the stored, frozen object itself.
// Every write bumps one global resourceVersion counter and is kept in a history, so "what did the
// apiserver hold at 12.3 s" is a lookup (`at`). Watch listeners are told of every write,
// synchronously and in order.
import type { Rng } from '../engine/rng.js';
import type { ApiErrorCode, ApiResult } from '../model/client.js';
import type { Pod } from '../model/pod.js';
import type { VClock } from '../model/time.js';
import { emitsNothing, type Actor, type TraceType, type Tracer } from '../model/trace.js';
import { POD_PATCH_META, type PatchMeta } from '../model/strategic-merge.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent {
  readonly type: WatchEventType;
  /** The object after the write; for DELETED, its last state (carrying the deletion's resourceVersion). */
  readonly object: Pod;
  /** Who wrote it (the request's actor: the kubelet, a user, a controller). */
  readonly actor?: Actor;
}

export type WatchListener = (event: WatchEvent) => void;

/** One write to the store, kept for time-travel lookups and for checkers. */
export interface StoreWrite {
  readonly atMs: number;
  readonly resourceVersion: number;
  readonly key: string;
  readonly type: WatchEventType;
  /** The object after the write, or null once removed. */
  readonly object: Pod | null;
  readonly actor: Actor;
}

export type ApiVerb = 'get' | 'patch' | 'delete' | 'create' | 'update';

export interface ApiServerOptions {
  clock: VClock;
  /** Accepted for symmetry with the other actors; the server reads time from `clock` only. */
  engine?: unknown;
  /** The apiserver's stream (pass `root.fork('apiserver')`); UIDs come from its fork 'uid'
   *  (so the stream is named 'apiserver/uid'). */
  rng: Rng;
  tracer: Tracer;
  /** Patch metadata for status patches (default: upstream's, see strategic-merge.ts). */
  patchMeta?: PatchMeta;
}

export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

export abstract class PodStore {
  /** While true (restartApiserver), every request is answered 503; stored objects survive. Set
   *  through setDown, which tells the availability listeners. */
  down = false;
  private readonly availability: Array<(down: boolean) => void> = [];

  /** The apiserver goes down (restartApiserver) or comes back. */
  setDown(down: boolean): void {
    if (this.down === down) return;
    this.down = down;
    for (const fn of this.availability) fn(down);
  }

  /** Be told when the apiserver goes down or comes back (the control plane's clients). */
  onAvailability(fn: (down: boolean) => void): void {
    this.availability.push(fn);
  }

  protected readonly pods = new Map<string, Pod>();
  protected readonly historyByKey = new Map<string, StoreWrite[]>();
  protected readonly log: StoreWrite[] = [];
  protected rv = 0;
  protected listeners: WatchListener[] = [];
  /** Watches with the field selector spec.nodeName=<node> (a kubelet's), by node: a write is
   *  dispatched to its node's watchers only, so many kubelets cost no per-write scan over them. */
  private readonly nodeListeners = new Map<string, WatchListener[]>();
  /** The keys of the stored objects bound to each node (spec.nodeName), for listOnNode. */
  private readonly keysByNode = new Map<string, Set<string>>();
  /** The keys of the stored objects PodGC's isPodTerminated counts (phase neither Pending, Running
   *  nor Unknown), for gcTerminated: a count and a list without a scan over every pod. */
  private readonly terminatedKeys = new Set<string>();
  protected readonly uidRng: Rng;
  protected readonly clock: VClock;
  protected readonly tracer: Tracer;
  protected readonly patchMeta: PatchMeta;

  constructor(opts: ApiServerOptions) {
    this.clock = opts.clock;
    this.tracer = opts.tracer;
    this.uidRng = opts.rng.fork('uid');
    this.patchMeta = opts.patchMeta ?? POD_PATCH_META;
  }

  // ----------------------------------------------------------------------------------------------
  // Watch and inspection (never traced, never refused)

  /** Subscribe to every change, synchronously and in write order. Returns an unsubscribe function. */
  watch(listener: WatchListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Subscribe to the changes of the objects bound to `nodeName` (the field selector
   *  spec.nodeName=<node>, as every kubelet's pod informer has), in write order. */
  watchNode(nodeName: string, listener: WatchListener): () => void {
    this.nodeListeners.set(nodeName, [...(this.nodeListeners.get(nodeName) ?? []), listener]);
    return () => {
      this.nodeListeners.set(nodeName, (this.nodeListeners.get(nodeName) ?? []).filter((l) => l !== listener));
    };
  }

  /** Every stored object bound to `nodeName`, sorted by "ns/name" (list() filtered by node). */
  listOnNode(nodeName: string): Pod[] {
    return [...(this.keysByNode.get(nodeName) ?? [])].sort().map((k) => this.pods.get(k)!);
  }

  /** How many stored objects are terminated as PodGC's isPodTerminated judges. */
  get terminatedCount(): number {
    return this.terminatedKeys.size;
  }

  /** The stored objects PodGC's isPodTerminated counts, sorted by "ns/name". */
  listTerminated(): Pod[] {
    return [...this.terminatedKeys].sort().map((k) => this.pods.get(k)!);
  }

  /** The nodes some stored object is bound to (spec.nodeName), sorted. */
  boundNodeNames(): string[] {
    const out: string[] = [];
    for (const [node, keys] of this.keysByNode) if (node !== '' && keys.size > 0) out.push(node);
    return out.sort();
  }

  /** The stored object now, if any (no trace, works while down). */
  peek(namespace: string, name: string): Pod | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  /** The object stored under "ns/name" at virtual time `atMs` (after every write of that instant). */
  at(key: string, atMs: number): Pod | undefined {
    const h = this.historyByKey.get(key);
    if (h === undefined || h.length === 0 || h[0].atMs > atMs) return undefined;
    let lo = 0, hi = h.length - 1; // last index with atMs <= atMs
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (h[mid].atMs <= atMs) lo = mid;
      else hi = mid - 1;
    }
    return h[lo].object ?? undefined;
  }

  /** Every stored object, sorted by "ns/name". */
  list(): Pod[] {
    return [...this.pods.keys()].sort().map((k) => this.pods.get(k)!);
  }

  /** Every write so far, in order. */
  get history(): readonly StoreWrite[] {
    return this.log;
  }

  /** The writes to one "ns/name", in order. */
  historyOf(key: string): readonly StoreWrite[] {
    return this.historyByKey.get(key) ?? [];
  }

  /** The last resourceVersion handed out. */
  get resourceVersion(): number {
    return this.rv;
  }

  /** A fresh UID from the 'apiserver/uid' stream (8-4-4-4-12 hex digits). */
  newUID(): string {
    const h = this.uidRng.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // ----------------------------------------------------------------------------------------------
  // Writes and answers (for the requests of api-server.ts)

  protected nextRV(): number {
    return ++this.rv;
  }

  protected commit(key: string, type: WatchEventType, object: Pod, actor: Actor, rv: number): void {
    if (type !== 'DELETED') this.pods.set(key, object);
    const node = object.spec?.nodeName ?? '';
    let onNode = this.keysByNode.get(node);
    if (onNode === undefined) this.keysByNode.set(node, (onNode = new Set()));
    if (type === 'DELETED') onNode.delete(key);
    else onNode.add(key);
    if (type !== 'DELETED' && isPodTerminated(object)) this.terminatedKeys.add(key);
    else this.terminatedKeys.delete(key);
    const w: StoreWrite = { atMs: this.clock.nowMs, resourceVersion: rv, key, type, object: type === 'DELETED' ? null : object, actor };
    this.log.push(w);
    let h = this.historyByKey.get(key);
    if (h === undefined) this.historyByKey.set(key, (h = []));
    h.push(w);
    const ls = this.listeners;
    const nls = this.nodeListeners.size === 0 ? undefined : this.nodeListeners.get(node);
    if (ls.length === 0 && nls === undefined) return;
    const ev: WatchEvent = { type, object, actor };
    for (const l of ls) l(ev);
    if (nls !== undefined) for (const l of nls) l(ev);
  }

  /** Traces a served request. A write (every type but api.get) also carries `stored`: the object as
   *  stored at that resourceVersion (uid, deletionTimestamp, status; null once removed). */
  protected served(type: TraceType, actor: Actor, key: string, pod: Pod, extra?: Record<string, unknown>): void {
    if (emitsNothing(this.tracer)) {
      this.tracer.skip!(type);
      return;
    }
    const m = pod.metadata;
    const stored = type === 'api.get' ? undefined : extra?.removed === true ? null : { uid: m?.uid, deletionTimestamp: m?.deletionTimestamp ?? undefined, status: pod.status ?? {} };
    this.tracer.emit({
      type,
      actor,
      pod: key,
      uid: m?.uid ?? '',
      code: 200,
      resourceVersion: m?.resourceVersion ?? '',
      ...extra,
      stored,
    });
  }

  protected error<T>(verb: ApiVerb, actor: Actor, key: string, code: ApiErrorCode, message: string): ApiResult<T> {
    this.tracer.emit({ type: 'api.error', actor, verb, pod: key, code, message });
    return { ok: false, code, message };
  }

  protected notFound<T>(verb: ApiVerb, actor: Actor, key: string): ApiResult<T> {
    return this.error(verb, actor, key, 404, `pods "${splitKey(key)[1]}" not found`);
  }

  protected unavailable<T>(verb: ApiVerb, actor: Actor, key: string): ApiResult<T> {
    return this.error(verb, actor, key, 503, 'the server is currently unable to handle the request');
  }
}

/** podgc's isPodTerminated: a phase that is neither Pending, Running nor Unknown (an object
 *  created with a status that names no phase counts). */
export function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase ?? '';
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}
