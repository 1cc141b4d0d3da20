// The kubelet's client of the apiserver (its KubeClient): every request is a generator, so the
// status manager writes `const r = yield* client.getPod(ns, name)` and resumes at the virtual
// instant the answer (or the timeout) arrives. See network.ts for how a request travels.
import { Deferred, type Proc } from '../engine/engine.js';
import type { ApiResult, DeleteOptions, KubeClient } from '../model/client.js';
import { podKey, type Pod } from '../model/pod.js';
import type { Verb } from '../scenario/types.js';
import type { Network } from './network.js';
import { TokenBucket } from './token-bucket.js';

export interface NetworkClientOptions {
  /** Client-side rate limit (default: the network's, i.e. spec.kubelet.apiQPS / apiBurst). */
  qps?: number;
  burst?: number;
  /** Default: the network's (spec.kubelet.requestTimeout). */
  requestTimeoutMs?: number;
}

export class NetworkClient implements KubeClient {
  readonly requestTimeoutMs: number;
  private readonly bucket: TokenBucket;

  /** `group` names the kubelet incarnation (Network.killGroup silences it). The token bucket is
   *  the client's own: a restarted kubelet starts with a full bucket. */
  constructor(readonly network: Network, readonly group = 'kubelet', opts: NetworkClientOptions = {}) {
    this.bucket = new TokenBucket(opts.qps ?? network.qps, opts.burst ?? network.burst, network.engine.nowMs);
    this.requestTimeoutMs = opts.requestTimeoutMs ?? network.requestTimeoutMs;
  }

  getPod(namespace: string, name: string): Proc<ApiResult<Pod>> {
    const api = this.network.apiserver;
    return this.request('get', `${namespace}/${name}`, () => api.get(namespace, name, 'kubelet'));
  }

  patchPodStatus(namespace: string, name: string, patch: object): Proc<ApiResult<Pod>> {
    const api = this.network.apiserver;
    return this.request('patch', `${namespace}/${name}`, () => api.patchStatus(namespace, name, patch, 'kubelet'));
  }

  deletePod(namespace: string, name: string, opts: DeleteOptions): Proc<ApiResult<Pod | null>> {
    const api = this.network.apiserver;
    return this.request('delete', `${namespace}/${name}`, () => api.delete(namespace, name, opts, 'kubelet'));
  }

  createPod(pod: Pod): Proc<ApiResult<Pod>> {
    const api = this.network.apiserver;
    return this.request('create', podKey(pod), () => api.create(pod, 'kubelet'));
  }

  private *request<T>(verb: Verb, key: string, serve: () => ApiResult<T>): Proc<ApiResult<T>> {
    const net = this.network;
    const engine = net.engine;
    const group = this.group;
    if (net.isClosed(group)) return yield* new Deferred<ApiResult<T>>().wait(); // a dead kubelet sends nothing
    net.tracer.emit({ type: 'api.request', actor: 'kubelet', verb, pod: key });

    const wait = this.bucket.reserve(engine.nowMs);
    if (wait > 0) yield wait;

    const sentAt = engine.nowMs;
    const latency = net.drawLatency(verb);
    const serverAt = sentAt + (latency >> 1);
    const answerAt = sentAt + latency;
    const deadline = sentAt + this.requestTimeoutMs;
    const inTime = answerAt <= deadline;
    const answer = new Deferred<ApiResult<T> | null>();
    const giveUp = () => {
      if (!net.isClosed(group)) answer.resolve(engine, null);
    };

    // The request's effect is scheduled apart from the caller's process: once sent, it lands
    // even if the caller dies or stops waiting.
    if (!inTime) engine.at(deadline, giveUp);
    engine.at(serverAt, () => {
      const r = net.arrive(verb, key, serve);
      if (!inTime) return;
      if (r === null) {
        engine.at(deadline, giveUp);
        return;
      }
      engine.at(answerAt, () => {
        if (net.isClosed(group)) return;
        if (net.partitioned) engine.at(deadline, giveUp);
        else answer.resolve(engine, r);
      });
    });

    const r = (yield answer) as ApiResult<T> | null; // answer.wait(), without its generator
    if (r !== null) return r;
    const message = net.timeoutMessage();
    net.tracer.emit({ type: 'api.error', actor: 'kubelet', verb, pod: key, code: 'timeout', message });
    return { ok: false, code: 'timeout', message };
  }
}
