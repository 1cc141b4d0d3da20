// The kubelet's client of the apiserver (its KubeClient): every request is a generator, so the
// status manager writes `const r = yield* client.getPod(ns, name)` and resumes at the virtual
// instant the answer (or the timeout) arrives. See network.ts for how a request travels.
import { Deferred, type Proc } from '../engine/engine.js';
import type { ApiResult, DeleteOptions, KubeClient } from '../model/client.js';
import { podKey, type Pod } from '../model/pod.js';
import type { Verb } from '../scenario/types.js';
import { emitsNothing } from '../model/trace.js';
import type { NodeClient, NodeObject, NodeReadyCondition } from '../model/node.js';
import type { Network, WireVerb } from './network.js';
import { TokenBucket } from './token-bucket.js';
import type { RequestDigest } from '../apiserver/index.js';
import { LoadedCall } from './loaded-call.js';
import { PendingAnswer } from './pending-answer.js';

export interface NetworkClientOptions {
  /** Client-side rate limit (default: the network's, i.e. spec.kubelet.apiQPS / apiBurst). */
  qps?: number;
  burst?: number;
  /** Default: the network's (spec.kubelet.requestTimeout). */
  requestTimeoutMs?: number;
  /** Who the client is, as the apiserver authenticates it (flow control's flow): default
   *  system:node:node-a in group system:nodes. */
  user?: string;
  groups?: readonly string[];
  /** client-go rest client's maxRetries for answers with Retry-After (default 10). */
  maxRetries?: number;
}

/** The resource each wire verb asks about, and its Kubernetes verb (flow control classifies by them). */
const RESOURCE: Record<WireVerb, [string, string]> = {
  get: ['get', 'pods'],
  patch: ['patch', 'pods/status'],
  delete: ['delete', 'pods'],
  create: ['create', 'pods'],
  token: ['create', 'serviceaccounts/token'],
  event: ['create', 'events'],
  lease: ['update', 'leases'],
  'lease-get': ['get', 'leases'],
  'lease-create': ['create', 'leases'],
  'node-get': ['get', 'nodes'],
  'node-status': ['patch', 'nodes/status'],
};

/** client-go checkWait (rest/request.go): a 429 or a 5xx answer with a Retry-After is retried after
 *  that many seconds; anything else is not. */
function retryAfterOf(r: ApiResult<unknown>): number | undefined {
  if (r.ok || r.retryAfterSeconds === undefined) return undefined;
  const c = r.code;
  return c === 429 || (typeof c === 'number' && c >= 500) ? r.retryAfterSeconds : undefined;
}

export class NetworkClient implements KubeClient, NodeClient {
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  private readonly bucket: TokenBucket;
  private readonly user: string;
  private readonly groups: readonly string[];

  /** `group` names the kubelet incarnation (Network.killGroup silences it). The token bucket is
   *  the client's own: a restarted kubelet starts with a full bucket. */
  constructor(readonly network: Network, readonly group = 'kubelet', opts: NetworkClientOptions = {}) {
    this.bucket = new TokenBucket(opts.qps ?? network.qps, opts.burst ?? network.burst, network.engine.nowMs);
    this.requestTimeoutMs = opts.requestTimeoutMs ?? network.requestTimeoutMs;
    this.maxRetries = opts.maxRetries ?? 10;
    this.user = opts.user ?? 'system:node:node-a';
    this.groups = opts.groups ?? ['system:nodes', 'system:authenticated'];
  }

  /** @internal The request as flow control sees it. */
  digest(verb: WireVerb, namespace: string): RequestDigest {
    const [v, resource] = RESOURCE[verb];
    return { user: this.user, groups: this.groups, verb: v, resource, namespace };
  }

  getPod(namespace: string, name: string): Proc<ApiResult<Pod>> {
    return this.request('get', `${namespace}/${name}`, namespace, name, undefined);
  }

  patchPodStatus(namespace: string, name: string, patch: object): Proc<ApiResult<Pod>> {
    return this.request('patch', `${namespace}/${name}`, namespace, name, patch);
  }

  deletePod(namespace: string, name: string, opts: DeleteOptions): Proc<ApiResult<Pod | null>> {
    return this.request('delete', `${namespace}/${name}`, namespace, name, opts);
  }

  createPod(pod: Pod): Proc<ApiResult<Pod>> {
    return this.request('create', podKey(pod), '', '', pod);
  }

  /** POST serviceaccounts/{sa}/token for a pod's projected token volume (the token manager's
   *  CreateToken, pkg/kubelet/token/token_manager.go): through the kubelet's rate-limited client. */
  createToken(namespace: string, serviceAccount: string, podName: string): Proc<ApiResult<string>> {
    return this.request('token', `${namespace}/${podName}`, namespace, serviceAccount, podName);
  }

  /** POST events (the kubelet's event sink, events.ts): rate limited by this client's bucket. */
  createEvent(namespace: string, podName: string, reason: string, container: string): Proc<ApiResult<string>> {
    return this.request('event', `${namespace}/${podName}`, namespace, podName, { reason, container });
  }

  /** PUT the node's Lease with renewTime now (the heartbeat client: no client-side rate limit). */
  renewLease(node: string): Proc<ApiResult<number>> {
    return this.nodeRequest('lease', 'patch', node, undefined);
  }

  /** GET the node's Lease (the heartbeat client). */
  getLease(node: string): Proc<ApiResult<number>> {
    return this.nodeRequest('lease-get', 'get', node, undefined);
  }

  /** POST the node's Lease, renewed now (the heartbeat client). */
  createLease(node: string): Proc<ApiResult<number>> {
    return this.nodeRequest('lease-create', 'create', node, undefined);
  }

  /** GET nodes/{name} (the heartbeat client). */
  getNode(node: string): Proc<ApiResult<NodeObject>> {
    return this.nodeRequest('node-get', 'get', node, undefined);
  }

  /** PATCH nodes/{name}/status: the Ready condition (the heartbeat client). */
  patchNodeReady(node: string, ready: NodeReadyCondition): Proc<ApiResult<NodeObject>> {
    return this.nodeRequest('node-status', 'patch', node, ready);
  }

  /** @internal What the apiserver does with a request of this client's that reaches it. */
  serve(verb: WireVerb, namespace: string, name: string, arg: unknown): ApiResult<unknown> {
    const api = this.network.apiserver;
    switch (verb) {
      case 'lease':
        return api.nodes.renewLease(name, 'kubelet');
      case 'lease-get':
        return api.nodes.getLease(name, 'kubelet');
      case 'lease-create':
        return api.nodes.createLease(name, 'kubelet');
      case 'node-get':
        return api.nodes.getNode(name, 'kubelet');
      case 'node-status':
        return api.nodes.setReady(name, arg as NodeReadyCondition, 'kubelet');
      case 'event': {
        const e = arg as { reason: string; container: string };
        return api.createEvent(namespace, name, e.reason, e.container, 'kubelet');
      }
      case 'token':
        return api.createToken(namespace, name, arg as string, 'kubelet');
      case 'get':
        return api.get(namespace, name, 'kubelet');
      case 'patch':
        return api.patchStatus(namespace, name, arg as object, 'kubelet');
      case 'delete':
        return api.delete(namespace, name, arg as DeleteOptions, 'kubelet');
      default:
        return api.create(arg as Pod, 'kubelet');
    }
  }

  /**
   * One request, as client-go's rest client makes it (rest/request.go request(), with_retry.go):
   * the first try is throttled by the client's token bucket; an answer that asks to be retried
   * (checkWait: 429 or 5xx with Retry-After) is retried after Retry-After seconds, each retry
   * throttled by the bucket again, up to maxRetries (10) retries; then the last answer is the
   * caller's. Retries are traced as api.retry.
   */
  private *request<T>(verb: Verb | 'token' | 'event', key: string, namespace: string, name: string, arg: unknown): Proc<ApiResult<T>> {
    const net = this.network;
    const engine = net.engine;
    if (net.isClosed(this.group)) return yield* new Deferred<ApiResult<T>>().wait(); // a dead kubelet sends nothing
    if (emitsNothing(net.tracer)) net.tracer.skip!('api.request');
    else net.tracer.emit({ type: 'api.request', actor: 'kubelet', verb, pod: key, sent: verb === 'patch' || verb === 'delete' ? arg : undefined });
    for (let attempt = 0; ; attempt++) {
      const wait = this.bucket.reserve(engine.nowMs);
      if (wait > 0) yield wait;
      const r = yield* this.attempt<T>(verb, key, namespace, name, arg);
      const after = retryAfterOf(r);
      if (after === undefined || attempt >= this.maxRetries || r.ok) return r;
      net.tracer.emit({ type: 'api.retry', actor: 'kubelet', verb, pod: key, attempt: attempt + 1, code: r.code, retryAfter: after });
      yield after * 1000;
      if (net.isClosed(this.group)) return yield* new Deferred<ApiResult<T>>().wait();
    }
  }

  /** One try on the wire, sent now. */
  private *attempt<T>(verb: Verb | 'token' | 'event', key: string, namespace: string, name: string, arg: unknown): Proc<ApiResult<T>> {
    const net = this.network;
    const sentAt = net.engine.nowMs;
    const latency = net.drawLatency(verb === 'token' || verb === 'event' ? 'create' : verb);
    const call = net.apiserver.load !== null
      ? new LoadedCall(this, verb, key, namespace, name, arg, { verb, pod: key }, sentAt + (latency >> 1), sentAt + latency, sentAt + this.requestTimeoutMs)
      : new Call(this, verb, key, namespace, name, arg, sentAt + (latency >> 1), sentAt + latency, sentAt + this.requestTimeoutMs);
    const r = (yield call) as ApiResult<T> | null; // the answer, or null: given up
    if (r !== null) return r;
    const message = net.timeoutMessage();
    net.tracer.emit({ type: 'api.error', actor: 'kubelet', verb, pod: key, code: 'timeout', message });
    return { ok: false, code: 'timeout', message };
  }

  /** A node lifecycle request: like a pod request on the wire (latency, partitions, timeouts, a
   *  dead kubelet, Retry-After retries), but not rate limited (the kubelet's heartbeat client has
   *  QPS -1), drawing its latency from the node stream, traced by what the apiserver does
   *  (node.lease, node.status). */
  private *nodeRequest<T>(verb: WireVerb, like: Verb, node: string, arg: unknown): Proc<ApiResult<T>> {
    const net = this.network;
    if (net.isClosed(this.group)) return yield* new Deferred<ApiResult<T>>().wait();
    for (let attempt = 0; ; attempt++) {
      const sentAt = net.engine.nowMs;
      const latency = net.drawNodeLatency(like);
      const call = net.apiserver.load !== null
        ? new LoadedCall(this, verb, `node/${node}`, '', node, arg, { verb: like, node }, sentAt + (latency >> 1), sentAt + latency, sentAt + this.requestTimeoutMs)
        : new Call(this, verb, `node/${node}`, '', node, arg, sentAt + (latency >> 1), sentAt + latency, sentAt + this.requestTimeoutMs);
      const r = (yield call) as ApiResult<T> | null;
      if (r === null) {
        const message = net.timeoutMessage();
        net.tracer.emit({ type: 'api.error', actor: 'kubelet', verb: like, node, code: 'timeout', message });
        return { ok: false, code: 'timeout', message };
      }
      const after = retryAfterOf(r);
      if (after === undefined || attempt >= this.maxRetries || r.ok) return r;
      net.tracer.emit({ type: 'api.retry', actor: 'kubelet', verb: like, node, attempt: attempt + 1, code: r.code, retryAfter: after });
      yield after * 1000;
      if (net.isClosed(this.group)) return yield* new Deferred<ApiResult<T>>().wait();
    }
  }
}

/**
 * One request on the wire, from its sending to its answer (or the client giving up): the waitable
 * the requesting process parks on, and the events that move it along. How it travels:
 *   - sent at ts (now): when the answer would come after the deadline (ts + requestTimeout), the
 *     client gives up at the deadline;
 *   - at serverAt it reaches the apiserver end (Network.arrive), and takes effect even if the
 *     caller has died or stopped waiting. No answer (lost, or an injected timeout): given up at
 *     the deadline;
 *   - at answerAt the answer arrives, unless the client's kubelet is dead; a partition then loses
 *     it (given up at the deadline).
 * (One object per request, and one callback for its server and answer events, rather than a
 * Deferred and a closure per event.)
 */
class Call extends PendingAnswer {
  /** The answer once served (null: no answer); undefined before. */
  private served: ApiResult<unknown> | null | undefined = undefined;
  private readonly inTime: boolean;
  private readonly onEvent: () => void;

  constructor(
    private readonly client: NetworkClient,
    private readonly verb: WireVerb,
    private readonly key: string,
    private readonly namespace: string,
    private readonly name: string,
    private readonly arg: unknown,
    serverAt: number,
    private readonly answerAt: number,
    private readonly deadline: number,
  ) {
    const engine = client.network.engine;
    super(engine);
    this.inTime = answerAt <= deadline;
    this.onEvent = () => this.step();
    if (!this.inTime) this.giveUpAtDeadline();
    engine.at(serverAt, this.onEvent);
  }

  /** The server event (the first call), then the answer event. */
  private step(): void {
    const client = this.client;
    const net = client.network;
    const engine = net.engine;
    if (this.served === undefined) {
      const r = net.arrive(this.verb, this.key, this);
      this.served = r;
      if (!this.inTime) return;
      if (r === null) this.giveUpAtDeadline();
      else engine.at(this.answerAt, this.onEvent);
      return;
    }
    if (net.isClosed(client.group)) return;
    if (net.partitioned) this.giveUpAtDeadline();
    else this.resolve(this.served);
  }

  /** @internal Network.arrive's serve: the apiserver acts on the request. */
  serve(): ApiResult<unknown> {
    return this.client.serve(this.verb, this.namespace, this.name, this.arg);
  }

  private giveUpAtDeadline(): void {
    const net = this.client.network;
    net.engine.at(this.deadline, () => {
      if (!net.isClosed(this.client.group)) this.resolve(null);
    });
  }
}
