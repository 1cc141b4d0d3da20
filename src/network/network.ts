// The link between the kubelet and the apiserver: latency, injected errors, partitions, apiserver
// restarts. One Network per run; each kubelet incarnation talks over it through its own
// NetworkClient (requests) and the run's WatchFeed (the pod informer's watch).
//
// How a request travels (NetworkClient.request):
//   t0        api.request is traced, then the client-side token bucket may hold it back;
//   ts        it is sent; a latency L is drawn uniformly from the verb's [minMs, maxMs]
//             (stream 'network/latency'); the client gives up at ts + requestTimeout;
//   ts + ⌊L/2⌋ it reaches the apiserver, which acts on it then (unless the link is partitioned:
//             lost; or an injected fault answers instead of the store);
//   ts + L    the answer arrives (unless the link is partitioned by then: lost).
// A lost request or answer, or an injected 'timeout', fails with 'timeout' at ts + requestTimeout.
// A request that reached the apiserver has its effect even when its answer is lost or its
// kubelet has died meanwhile.
//
// Under load (spec.apiserver.serviceTime or apf: ApiServer.load), the request that reaches the
// apiserver at ts + ⌊L/2⌋ is first admitted by flow control (it may wait in a priority level's
// queue, or be answered 429 with a Retry-After), then executes for its service time and takes
// effect at the end of it; the answer arrives L - ⌊L/2⌋ later. A client that gives up while its
// request still waits in a queue takes it out (the request's context is cancelled).
import type { Engine } from '../engine/engine.js';
import type { Rng } from '../engine/rng.js';
import type { ApiServer, WatchListener } from '../apiserver/index.js';
import type { ApiErrorCode, ApiResult } from '../model/client.js';
import type { Tracer } from '../model/trace.js';
import type { Latency, LatencyRange, Verb } from '../scenario/types.js';
import { WatchFeed, type WatchFeedOptions } from './watch-feed.js';

/** What travels the link: the pod requests of the contract's verbs, and the node lifecycle's lease
 *  and node status requests (which `fail` and the verb latencies of a scenario do not name). */
export type WireVerb = Verb | 'token' | 'event' | 'lease' | 'lease-get' | 'lease-create' | 'node-get' | 'node-status';

export function isPodVerb(v: WireVerb): v is Verb {
  return v === 'get' || v === 'patch' || v === 'delete' || v === 'create';
}

/** What `fail` may inject. 'timeout': no answer at all (the client gives up after requestTimeout). */
export type FailCode = Exclude<ApiErrorCode, 422> | 'timeout';

export interface FailOptions {
  /** Fail the next `count` requests of those verbs that reach the apiserver. */
  count?: number;
  /** Fail every such request that reaches the apiserver within the next `forMs`. */
  forMs?: number;
  /** The answer carries Retry-After: this many seconds (the client then retries it). */
  retryAfter?: number;
}

export interface NetworkOptions {
  engine: Engine;
  apiserver: ApiServer;
  /** The network's stream (pass `root.fork('network')`); latency draws come from its fork
   *  'latency', watch delays from its fork 'watch'. */
  rng: Rng;
  tracer: Tracer;
  latency: Latency;
  /** Defaults for the clients made on this network (spec.kubelet.apiQPS / apiBurst / requestTimeout). */
  qps?: number;
  burst?: number;
  requestTimeoutMs?: number;
}

interface FailRule {
  readonly id: number;
  readonly verbs: ReadonlySet<Verb>;
  readonly code: FailCode;
  readonly retryAfter: number | undefined;
  remaining: number | undefined;
  readonly untilMs: number | undefined;
  timer: { cancel(): void } | null;
}

const TIMEOUT_MESSAGE = 'net/http: request canceled (Client.Timeout exceeded while awaiting headers)';

function injectedMessage(code: FailCode, key: string): string {
  const name = key.slice(key.indexOf('/') + 1);
  switch (code) {
    case 404: return `pods "${name}" not found`;
    case 409: return `Operation cannot be fulfilled on pods "${name}": the object has been modified; please apply your changes to the latest version and try again`;
    case 429: return 'the server has received too many requests and has asked us to try again later';
    case 500: return 'an error on the server ("injected") has prevented the request from succeeding';
    case 503: return 'the server is currently unable to handle the request';
    default: return TIMEOUT_MESSAGE;
  }
}

export class Network {
  readonly engine: Engine;
  readonly apiserver: ApiServer;
  readonly tracer: Tracer;
  readonly qps: number;
  readonly burst: number;
  readonly requestTimeoutMs: number;
  private latencyNow: Latency;
  private nodeLatencyRng: Rng | undefined;
  private partitionedNow = false;
  private rules: FailRule[] = [];
  private ruleIds = 0;
  private readonly latencyRng: Rng;
  private readonly watchRng: Rng;
  private readonly feeds = new Set<WatchFeed>();
  private readonly closedGroups = new Set<string>();
  private downGeneration = 0;

  constructor(opts: NetworkOptions) {
    this.engine = opts.engine;
    this.apiserver = opts.apiserver;
    this.tracer = opts.tracer;
    this.latencyNow = opts.latency;
    this.qps = opts.qps ?? 50;
    this.burst = opts.burst ?? 100;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
    this.latencyRng = opts.rng.fork('latency');
    this.watchRng = opts.rng.fork('watch');
  }

  // ---- faults (timeline actions) ------------------------------------------------------------

  get latency(): Latency {
    return this.latencyNow;
  }

  /** The timeline's `latency`: applies to requests sent and watch events raised from now on. */
  setLatency(latency: Latency): void {
    this.latencyNow = latency;
  }

  get partitioned(): boolean {
    return this.partitionedNow;
  }

  /** Requests and watch events stop flowing (requests time out; watch events are held). */
  partition(): void {
    if (this.partitionedNow) return;
    this.partitionedNow = true;
    this.tracer.emit({ type: 'fault.begin', actor: 'network', fault: 'partition' });
  }

  /** Traffic flows again; held watch events are delivered, in order, after a fresh latency. */
  repair(): void {
    if (!this.partitionedNow) return;
    this.partitionedNow = false;
    this.tracer.emit({ type: 'fault.end', actor: 'network', fault: 'partition' });
    for (const f of this.feeds) f.onRepair();
  }

  /**
   * The timeline's `fail`: the kubelet's requests of those verbs that reach the apiserver get
   * `code` instead of being served (the store is not touched): the next `count` of them, or all
   * within `forMs`, whichever ends first; with neither, until clearFailures().
   */
  fail(verbs: readonly Verb[], code: FailCode, opts: FailOptions = {}): void {
    const rule: FailRule = {
      id: ++this.ruleIds,
      verbs: new Set(verbs),
      code,
      retryAfter: opts.retryAfter,
      remaining: opts.count,
      untilMs: opts.forMs !== undefined ? this.engine.nowMs + opts.forMs : undefined,
      timer: null,
    };
    if (rule.remaining !== undefined && rule.remaining <= 0) return;
    this.rules.push(rule);
    this.tracer.emit({ type: 'fault.begin', actor: 'network', fault: 'fail', id: rule.id, verbs: [...verbs], code, count: opts.count, forMs: opts.forMs, retryAfter: opts.retryAfter });
    if (rule.untilMs !== undefined) rule.timer = this.engine.at(rule.untilMs, () => this.endRule(rule));
  }

  /** Drop every injected failure. */
  clearFailures(): void {
    for (const r of [...this.rules]) this.endRule(r);
  }

  /**
   * The timeline's `restartApiserver`: every request (the kubelet's and everyone else's) is
   * answered 503 for `downForMs`; stored objects survive. A restart while down extends the outage.
   */
  restartApiserver(downForMs: number): void {
    const gen = ++this.downGeneration;
    if (!this.apiserver.down) this.tracer.emit({ type: 'fault.begin', actor: 'network', fault: 'apiserverDown', downForMs });
    this.apiserver.setDown(true);
    this.engine.after(downForMs, () => {
      if (gen !== this.downGeneration) return;
      this.apiserver.setDown(false);
      this.tracer.emit({ type: 'fault.end', actor: 'network', fault: 'apiserverDown' });
    });
  }

  // ---- the watch and kubelet incarnations ----------------------------------------------------

  /** A feed of the apiserver's watch events to a kubelet-side listener (see WatchFeed). */
  watch(listener: WatchListener, opts?: WatchFeedOptions): WatchFeed {
    const f = new WatchFeed(this, listener, opts);
    this.feeds.add(f);
    return f;
  }

  /** A kubelet incarnation died: its in-flight answers are dropped and its clients send nothing
   *  more. Requests it already sent still reach the apiserver. */
  killGroup(group: string): void {
    this.closedGroups.add(group);
  }

  isClosed(group: string): boolean {
    return this.closedGroups.has(group);
  }

  // ---- internals used by NetworkClient and WatchFeed -------------------------------------------

  /** @internal One latency draw for a request of `verb`, in whole ms. */
  drawLatency(verb: Verb): number {
    return drawIn(this.latencyRng, this.latencyNow[verb]);
  }

  /** @internal One latency draw for a node request (lease, node status): the range of the pod verb
   *  it resembles, from its own stream 'network/latency/node', so that turning the node lifecycle on
   *  shifts no pod request's draw. */
  drawNodeLatency(like: Verb): number {
    this.nodeLatencyRng ??= this.latencyRng.fork('node');
    return drawIn(this.nodeLatencyRng, this.latencyNow[like]);
  }

  /** @internal One delay draw for a watch event (the `get` range). */
  drawWatchLatency(): number {
    return drawIn(this.watchRng, this.latencyNow.get);
  }

  /** @internal */
  detach(feed: WatchFeed): void {
    this.feeds.delete(feed);
  }

  /** @internal A kubelet request reaches the apiserver end of the link now: served by
   *  `request.serve()` unless lost or failed. null: no answer. */
  arrive<T>(verb: WireVerb, key: string, request: { serve(): ApiResult<T> }): ApiResult<T> | null {
    const r = this.reach(verb, key);
    return r === 'through' ? request.serve() : r;
  }

  /** @internal What becomes of a kubelet request at the apiserver end of the link now: lost (null),
   *  answered by an injected fault, or 'through' to the apiserver. */
  reach(verb: WireVerb, key: string): ApiResult<never> | null | 'through' {
    if (this.partitionedNow) return null;
    const rule = this.takeFailure(verb);
    if (rule === undefined) return 'through';
    const code = rule.code;
    if (code === 'timeout') return null;
    const message = injectedMessage(code, key);
    const retryAfter = rule.retryAfter;
    if (retryAfter === undefined) {
      this.tracer.emit({ type: 'api.error', actor: 'kubelet', verb, pod: key, code, message, injected: true });
      return { ok: false, code, message };
    }
    this.tracer.emit({ type: 'api.error', actor: 'kubelet', verb, pod: key, code, message, injected: true, retryAfter });
    return { ok: false, code, message, retryAfterSeconds: retryAfter };
  }

  /** @internal */
  timeoutMessage(): string {
    return TIMEOUT_MESSAGE;
  }

  private takeFailure(verb: WireVerb): { code: FailCode; retryAfter: number | undefined } | undefined {
    const rules = this.rules;
    if (rules.length === 0 || !isPodVerb(verb)) return undefined;
    const now = this.engine.nowMs;
    for (const r of rules) {
      if (!r.verbs.has(verb)) continue;
      if (r.untilMs !== undefined && now >= r.untilMs) continue;
      if (r.remaining !== undefined) {
        r.remaining--;
        if (r.remaining <= 0) this.endRule(r);
      }
      return r;
    }
    return undefined;
  }

  private endRule(rule: FailRule): void {
    const i = this.rules.indexOf(rule);
    if (i < 0) return;
    this.rules.splice(i, 1);
    rule.timer?.cancel();
    this.tracer.emit({ type: 'fault.end', actor: 'network', fault: 'fail', id: rule.id, verbs: [...rule.verbs], code: rule.code });
  }
}

function drawIn(rng: Rng, r: LatencyRange): number {
  const lo = Math.max(0, Math.floor(r.minMs));
  const hi = Math.max(lo, Math.floor(r.maxMs));
  return rng.int(lo, hi);
}
