import { describe, expect, it } from 'vitest';
import { ApiServer, ApiServerLoad, DEFAULT_APF } from '../../src/apiserver/index.js';
import { Engine, Rng, TraceBuffer, type Proc } from '../../src/engine/index.js';
import type { ApiResult } from '../../src/model/client.js';
import type { Pod } from '../../src/model/pod.js';
import { VClock } from '../../src/model/time.js';
import type { TraceEvent, Tracer } from '../../src/model/trace.js';
import { Network, NetworkClient } from '../../src/network/index.js';
import type { ApfConfig, Latency } from '../../src/scenario/types.js';
import { loadScenarioFile } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';

const fixed = (ms: number): Latency => ({ get: { minMs: ms, maxMs: ms }, patch: { minMs: ms, maxMs: ms }, delete: { minMs: ms, maxMs: ms }, create: { minMs: ms, maxMs: ms } });

function pod(name: string): Pod {
  return { metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { nodeName: 'node-a', containers: [{ name: 'main', image: 'busybox' }] } };
}

/** A network to an apiserver whose flow control is `apf` (undefined: none), 10 ms latency. */
function setup(o: { apf?: Partial<ApfConfig>; serviceMs?: number; qps?: number; burst?: number; maxRetries?: number }) {
  const engine = new Engine(new Rng('1'));
  const clock = new VClock(engine);
  const trace = new TraceBuffer<TraceEvent>(engine);
  const tracer: Tracer = { emit: (e) => trace.emit(e), log: () => {} };
  const api = new ApiServer({ clock, rng: engine.rng.fork('apiserver'), tracer });
  if (o.apf) api.load = new ApiServerLoad(engine, tracer, { apf: { ...DEFAULT_APF, ...o.apf }, serviceTime: o.serviceMs ? { baseMs: o.serviceMs, perInflightMs: 0 } : undefined });
  const network = new Network({ engine, apiserver: api, rng: engine.rng.fork('network'), tracer, latency: fixed(10), qps: o.qps ?? 1000, burst: o.burst ?? 1000, requestTimeoutMs: 10_000 });
  const client = new NetworkClient(network, 'kubelet-1', { user: 'system:node:node-a', maxRetries: o.maxRetries });
  api.create(pod('a'), 'user');
  const results: Array<{ atMs: number; r: ApiResult<unknown> }> = [];
  const send = (atMs: number, req: () => Proc<ApiResult<unknown>>) => {
    engine.at(atMs, () => engine.spawn('req', (function* () {
      const r = yield* req();
      results.push({ atMs: engine.nowMs, r });
    })(), 'kubelet-1'));
  };
  const of = (type: string) => trace.records.filter((r) => r.type === type);
  return { engine, api, network, client, results, send, of };
}

/** Every system-level request refused at once: no seats, no queues. */
const REFUSE_ALL = (retryAfter: number): Partial<ApfConfig> => ({ retryAfter, levels: { system: { seats: 0, queues: 0 } } });

describe("the client's answer to 429 (client-go rest client)", () => {
  it('retries after Retry-After, up to maxRetries (10), then hands the 429 to the caller', () => {
    const s = setup({ apf: REFUSE_ALL(2) });
    s.send(0, () => s.client.getPod('default', 'a'));
    s.engine.run({ untilMs: 120_000 });
    const refused = s.of('api.error');
    const retries = s.of('api.retry');
    expect(refused).toHaveLength(11);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(retries.every((r) => r.retryAfter === 2 && r.code === 429)).toBe(true);
    // each try: 5 ms to the server, refused there, 5 ms back, then 2 s of sleep
    expect(refused.map((r) => r.t)).toEqual(Array.from({ length: 11 }, (_, i) => 5 + i * 2010));
    expect(s.results).toEqual([{ atMs: 10 * 2010 + 10, r: expect.objectContaining({ ok: false, code: 429, retryAfterSeconds: 2 }) }]);
    expect(s.of('api.request')).toHaveLength(1); // one request, eleven tries
  });

  it('a smaller maxRetries stops sooner', () => {
    const s = setup({ apf: REFUSE_ALL(1), maxRetries: 2 });
    s.send(0, () => s.client.getPod('default', 'a'));
    s.engine.run({ untilMs: 60_000 });
    expect(s.of('api.error')).toHaveLength(3);
    expect(s.of('api.retry')).toHaveLength(2);
  });

  it('each retry goes through the rate limiter again', () => {
    // 0.5 QPS, burst 1: the first try takes the burst; after each 1 s Retry-After the bucket has
    // refilled only half a token, so every retry waits another second for it
    const s = setup({ apf: REFUSE_ALL(1), qps: 0.5, burst: 1, maxRetries: 3 });
    s.send(0, () => s.client.getPod('default', 'a'));
    s.engine.run({ untilMs: 60_000 });
    expect(s.of('api.error').map((r) => r.t)).toEqual([5, 2005, 4005, 6005]); // without the bucket: 5, 1015, 2025, 3035
  });

  it('a retried request that gets through is served, and the caller sees only the success', () => {
    const s = setup({ serviceMs: 100, apf: { retryAfter: 1, levels: { system: { seats: 1, queues: 1, handSize: 1, queueLengthLimit: 1 } } } });
    // three at once against one seat and a queue of one: the third is refused, then served on retry
    for (let i = 0; i < 3; i++) s.send(0, () => s.client.getPod('default', 'a'));
    s.engine.run({ untilMs: 60_000 });
    expect(s.of('api.error')).toHaveLength(1);
    expect(s.of('api.retry')).toHaveLength(1);
    expect(s.of('api.get')).toHaveLength(3);
    expect(s.results.map((x) => x.r.ok)).toEqual([true, true, true]);
    // served at 5–105 and 105–205 (answered at 110, 210); the refused one comes back at 10, sleeps 1 s, is served 1015–1115
    expect(s.results.map((x) => x.atMs)).toEqual([110, 210, 1120]);
  });

  it('does not retry an answer without Retry-After (an injected 429, a 503 while down)', () => {
    const s = setup({});
    s.network.fail(['get'], 429, { count: 1 });
    s.send(0, () => s.client.getPod('default', 'a'));
    s.engine.at(100, () => s.network.restartApiserver(1000));
    s.send(200, () => s.client.getPod('default', 'a'));
    s.engine.run({ untilMs: 10_000 });
    expect(s.results.map((x) => [x.atMs, !x.r.ok && x.r.code])).toEqual([[10, 429], [210, 503]]);
    expect(s.of('api.retry')).toHaveLength(0);
  });

  it("a fail step's answers with retryAfter are retried (429 and 500), without flow control", () => {
    const s = setup({});
    s.network.fail(['patch'], 500, { count: 2, retryAfter: 3 });
    s.send(0, () => s.client.patchPodStatus('default', 'a', { status: { phase: 'Running' } }));
    s.engine.run({ untilMs: 60_000 });
    expect(s.of('api.retry').map((r) => [r.t, r.code, r.retryAfter])).toEqual([[10, 500, 3], [3020, 500, 3]]);
    expect(s.results).toEqual([{ atMs: 6030, r: expect.objectContaining({ ok: true }) }]);
    expect(s.of('api.patch')).toHaveLength(1);
  });

  it('node requests (the Lease) are retried too, in node-high', () => {
    const s = setup({ apf: { retryAfter: 1, levels: { 'node-high': { seats: 0, queues: 0 } } } });
    s.send(0, () => s.client.renewLease('node-a'));
    s.engine.run({ untilMs: 60_000 });
    expect(s.of('api.retry')).toHaveLength(10);
    expect(s.of('api.error')[0]).toMatchObject({ code: 429, priorityLevel: 'node-high', flowSchema: 'system-node-high', node: 'node-a' });
  });
});

describe('determinism under flow control', () => {
  it('the same scenario and seed give the same trace, 429s and retries included', () => {
    const loaded = loadScenarioFile('scenarios/cluster/mass-restart-apf-current.yaml');
    if (!loaded.ok) throw new Error('load failed');
    const a = runScenario(loaded.scenario, { load: true });
    const b = runScenario(loaded.scenario, { load: true });
    expect(JSON.stringify(a.trace)).toBe(JSON.stringify(b.trace));
    expect(a.load).toEqual(b.load);
    expect(a.load!.tooManyRequests).toBeGreaterThan(0);
    expect(a.load!.retries).toBe(a.load!.tooManyRequests);
  });
});
