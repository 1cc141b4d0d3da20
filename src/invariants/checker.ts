// The checker base and the shared subscriptions every checker of a run draws on.
//
// A checker never scans the world per event. It learns what changed from two feeds, each
// subscribed to once per run, however many checkers listen:
//   - the apiserver's own watch, turned into (previous, next) pairs of the same object (by UID);
//   - the trace, every record by type.
// What a feed reveals is judged at once when it is a pure function of what the feed gave (two
// successive versions of one object); what needs other state (the runtime, the status manager) is
// marked dirty and judged in afterEvent, when the event that changed it has finished.
//
// Violations are queued and written to the trace in afterEvent (or at the end of an instant, or at
// the end of the run), so they follow the records of the event that caused them and carry that
// event's number. Each (invariant, pod) is reported once.
//
// Many nodes (spec.nodes): a checker judges every node. What it keeps of a kubelet's, a runtime's
// or a node's state it keeps per node, and each record or write is routed to its node by one
// lookup (nodeOfRecord, nodeOfObject), never by a scan of the nodes; a violation names the node
// of the pod it is about when the run's trace names nodes.
import type { Pod, UID } from '../model/pod.js';
import type { InvariantName } from '../scenario/types.js';
import type { TraceRecord } from '../model/trace.js';
import type { ApiWatchEvent, InvariantWorld, NodeView, WatchEventType } from '../model/world-view.js';

export interface InvariantChecker {
  readonly name: InvariantName;
  /** After every engine event. */
  afterEvent(): void;
  /** When every event of the instant t has run, before the clock moves on. */
  endOfInstant?(t: number): void;
  /** Once, after the run. */
  end(): void;
}

/** One write as the watch showed it: the object before (undefined for a creation, or for an object
 *  that existed before the checkers started and was never seen) and after. */
export interface ApiChange {
  type: WatchEventType;
  prev: Pod | undefined;
  next: Pod;
  /** Who wrote `next` ('kubelet', or another writer: a user, a controller). */
  actor?: string;
}

type ApiListener = (c: ApiChange) => void;
type TraceListener = (r: TraceRecord) => void;

/** The feeds shared by the checkers of one run. Subscribes lazily: a run whose checkers need no
 *  watch never installs one. */
export class Feeds {
  private apiListeners: ApiListener[] | null = null;
  private readonly traceByType = new Map<string, TraceListener[]>();
  private traceInstalled = false;
  /** The last version seen of every live apiserver object, by UID. */
  private readonly last = new Map<UID, Pod>();

  /** The nodes by name. */
  private readonly byName: ReadonlyMap<string, NodeView>;
  /** The default node (the first). */
  readonly defaultNode: NodeView;
  /** Whether the run has one node (every routing answers it). */
  private readonly one: boolean;

  constructor(readonly w: InvariantWorld) {
    this.byName = new Map(w.nodes.map((n) => [n.name, n]));
    this.defaultNode = w.nodes[0];
    this.one = w.nodes.length === 1;
  }

  /** The node of that name, or undefined when the run has none of that name. */
  nodeNamed(name: string | undefined): NodeView | undefined {
    return name === undefined ? undefined : this.byName.get(name);
  }

  /** The node a trace record belongs to: the node it names (a node's kubelet, runtime and link name
   *  theirs; the apiserver's node records name the node they are about); a record that names none
   *  (the apiserver's own records of a kubelet's request: api.get, api.patch, api.delete, api.error;
   *  a timeline step) belongs to the node of its pod; anything else to the default node. */
  nodeOfRecord(r: TraceRecord): NodeView {
    if (this.one) return this.defaultNode;
    const n = r.node;
    if (typeof n === 'string') {
      const v = this.byName.get(n);
      if (v !== undefined) return v;
    }
    return r.pod !== undefined ? this.w.nodeOfPod(r.pod) : this.defaultNode;
  }

  /** The node an apiserver object is bound to (its spec.nodeName: a pod's node never changes once
   *  bound, and a pod without one is stored with the default node's); the default node when it
   *  names none of the run's (a pod of `only: apiserver` on another node). */
  nodeOfObject(p: Pod): NodeView {
    if (this.one) return this.defaultNode;
    return this.byName.get(p.spec?.nodeName ?? '') ?? this.defaultNode;
  }

  /** Every apiserver write from now on, as a (prev, next) pair of the same object. */
  onApiChange(l: ApiListener): void {
    if (this.apiListeners === null) {
      this.apiListeners = [];
      for (const p of this.w.apiserver.list()) this.last.set(p.metadata?.uid ?? '', p);
      this.w.apiserver.watch((ev) => this.dispatchApi(ev));
    }
    this.apiListeners.push(l);
  }

  private dispatchApi(ev: ApiWatchEvent): void {
    const next = ev.object;
    const uid = next.metadata?.uid ?? '';
    const prev = this.last.get(uid);
    if (ev.type === 'DELETED') this.last.delete(uid);
    else this.last.set(uid, next);
    const change: ApiChange = { type: ev.type, prev, next, actor: ev.actor };
    const ls = this.apiListeners!;
    for (let i = 0; i < ls.length; i++) ls[i](change);
  }

  /** Every trace record of these types ('*': of any type) from now on, never the checkers' own
   *  violations. */
  onTrace(types: readonly string[], l: TraceListener): void {
    for (const t of types) {
      let ls = this.traceByType.get(t);
      if (ls === undefined) this.traceByType.set(t, (ls = []));
      ls.push(l);
    }
    if (!this.traceInstalled) {
      this.traceInstalled = true;
      this.w.tracer.listeners.push((r) => {
        if (r.type === 'invariant.violation') return;
        const ls = this.traceByType.get(r.type);
        if (ls !== undefined) for (let i = 0; i < ls.length; i++) ls[i](r);
        const any = this.traceByType.get('*');
        if (any !== undefined) for (let i = 0; i < any.length; i++) any[i](r);
      });
    }
  }
}

/** Base of every checker: violation bookkeeping (once per pod) and the flush into the trace. */
export abstract class Checker implements InvariantChecker {
  private readonly reported = new Set<string>();
  private pending: Array<{ pod: string; message: string; node: string }> = [];

  constructor(
    readonly name: InvariantName,
    protected readonly w: InvariantWorld,
  ) {}

  /** Whether `pod` was reported already (checkers skip the work of judging it again). */
  protected hasReported(pod: string): boolean {
    return this.reported.has(pod);
  }

  /** Queue a violation for `pod` ("ns/name") on `node` (the node it was judged on); only the first
   *  per pod is kept. */
  protected violation(pod: string, message: string, node: NodeView): void {
    if (this.reported.has(pod)) return;
    this.reported.add(pod);
    this.pending.push({ pod, message, node: node.name });
  }

  /** Judge what the event made dirty. */
  protected check(): void {}

  afterEvent(): void {
    this.check();
    this.flush();
  }

  end(): void {
    this.check();
    this.flush();
  }

  /** Write the queued violations to the trace. */
  protected flush(): void {
    if (this.pending.length === 0) return;
    const out = this.pending;
    this.pending = [];
    const named = this.w.namesNodes;
    for (const v of out) {
      this.w.tracer.emit({ type: 'invariant.violation', actor: 'invariant', pod: v.pod, invariant: this.name, message: v.message, event: this.w.engine.events, seed: this.w.seed, node: named ? v.node : undefined });
    }
  }
}
