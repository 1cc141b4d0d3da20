import { describe, expect, it } from 'vitest';
import { ApiServer, type WatchEvent } from '../../src/apiserver/index.js';
import { Engine, Rng, TraceBuffer, type Proc } from '../../src/engine/index.js';
import type { ApiResult } from '../../src/model/client.js';
import type { Pod } from '../../src/model/pod.js';
import { VClock } from '../../src/model/time.js';
import type { TraceEvent, Tracer } from '../../src/model/trace.js';
import { Network, NetworkClient, TokenBucket } from '../../src/network/index.js';
import type { Latency } from '../../src/scenario/types.js';

const fixed = (ms: number): Latency => ({ get: { minMs: ms, maxMs: ms }, patch: { minMs: ms, maxMs: ms }, delete: { minMs: ms, maxMs: ms }, create: { minMs: ms, maxMs: ms } });
const range = (minMs: number, maxMs: number): Latency => ({ get: { minMs, maxMs }, patch: { minMs, maxMs }, delete: { minMs, maxMs }, create: { minMs, maxMs } });

function setup(o: { seed?: string; latency?: Latency; qps?: number; burst?: number; requestTimeoutMs?: number } = {}) {
  const engine = new Engine(new Rng(o.seed ?? '1'));
  const clock = new VClock(engine);
  const trace = new TraceBuffer<TraceEvent>(engine);
  const tracer: Tracer = { emit: (e) => trace.emit(e), log: () => {} };
  const api = new ApiServer({ clock, rng: engine.rng.fork('apiserver'), tracer });
  const network = new Network({
    engine,
    apiserver: api,
    rng: engine.rng.fork('network'),
    tracer,
    latency: o.latency ?? fixed(10),
    qps: o.qps ?? 1000,
    burst: o.burst ?? 1000,
    requestTimeoutMs: o.requestTimeoutMs ?? 10_000,
  });
  const client = new NetworkClient(network, 'kubelet-1');
  api.create(pod('a'), 'user');
  /** Run a request as a process; the result and the virtual time it came back are recorded. */
  const results: Array<{ name: string; atMs: number; r: ApiResult<unknown> }> = [];
  const send = (name: string, atMs: number, req: () => Proc<ApiResult<unknown>>) => {
    engine.at(atMs, () =>
      engine.spawn(name, (function* () {
        const r = yield* req();
        results.push({ name, atMs: engine.nowMs, r });
      })(), 'kubelet-1'),
    );
  };
  const of = (type: string) => trace.records.filter((r) => r.type === type);
  return { engine, api, network, client, trace, results, send, of };
}

function pod(name: string): Pod {
  return { metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { nodeName: 'node-a', containers: [{ name: 'main', image: 'busybox' }] } };
}

describe('NetworkClient', () => {
  it('traces api.request, serves at the midpoint of the latency, answers at its end', () => {
    const { engine, client, results, send, trace } = setup({ latency: fixed(10) });
    send('get', 100, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 1000 });
    expect(results).toMatchObject([{ name: 'get', atMs: 110, r: { ok: true } }]);
    expect(trace.records.map((r) => [r.t, r.type, r.actor, r.pod])).toEqual([
      [0, 'api.create', 'user', 'default/a'],
      [100, 'api.request', 'kubelet', 'default/a'],
      [105, 'api.get', 'kubelet', 'default/a'],
    ]);
  });

  it('draws latency uniformly within the verb\'s range, deterministically per seed', () => {
    const run = (seed: string) => {
      const { engine, client, results, send } = setup({ seed, latency: range(3, 40) });
      for (let i = 0; i < 50; i++) send(`g${i}`, i * 100, () => client.getPod('default', 'a'));
      engine.run({ untilMs: 10_000 });
      return results.map((x) => x.atMs - Number(x.name.slice(1)) * 100);
    };
    const a = run('5');
    expect(a).toHaveLength(50);
    for (const l of a) {
      expect(l).toBeGreaterThanOrEqual(3);
      expect(l).toBeLessThanOrEqual(40);
    }
    expect(new Set(a).size).toBeGreaterThan(10);
    expect(run('5')).toEqual(a);
    expect(run('6')).not.toEqual(a);
  });

  it('paces requests with the token bucket: burst 2, qps 1 → the third waits a second', () => {
    const { engine, client, send, of } = setup({ latency: fixed(10), qps: 1, burst: 2 });
    for (let i = 0; i < 4; i++) send(`g${i}`, 0, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 10_000 });
    expect(of('api.request').map((r) => r.t)).toEqual([0, 0, 0, 0]); // every request is traced when made
    expect(of('api.get').map((r) => r.t)).toEqual([5, 5, 1005, 2005]);
  });

  it('token bucket refills continuously up to its burst', () => {
    const b = new TokenBucket(50, 100, 0);
    for (let i = 0; i < 100; i++) expect(b.reserve(0)).toBe(0);
    expect(b.reserve(0)).toBe(20);
    expect(b.reserve(0)).toBe(40);
    expect(b.reserve(1000)).toBe(0); // 50 tokens refilled, 2 owed
    expect(b.available(1000)).toBeCloseTo(47);
    expect(new TokenBucket(0, 1, 0).reserve(0)).toBe(0); // qps 0: unlimited
  });

  it('fails the next `count` requests of the verbs without reaching the store', () => {
    const { engine, api, network, client, results, send, of } = setup({ latency: fixed(10) });
    engine.at(0, () => network.fail(['patch'], 500, { count: 2 }));
    const patch = { metadata: { uid: 'uid-a' }, status: { phase: 'Running' } };
    send('get', 10, () => client.getPod('default', 'a'));
    send('p1', 20, () => client.patchPodStatus('default', 'a', patch));
    send('p2', 30, () => client.patchPodStatus('default', 'a', patch));
    send('p3', 40, () => client.patchPodStatus('default', 'a', patch));
    engine.run({ untilMs: 1000 });
    expect(results.map((x) => [x.name, x.atMs, x.r.ok ? 200 : x.r.code])).toEqual([
      ['get', 20, 200],
      ['p1', 30, 500],
      ['p2', 40, 500],
      ['p3', 50, 200],
    ]);
    expect(api.peek('default', 'a')!.metadata!.resourceVersion).toBe('2'); // only p3 wrote
    expect(of('api.error').map((r) => [r.t, r.actor, r.verb, r.code, r.injected])).toEqual([
      [25, 'kubelet', 'patch', 500, true],
      [35, 'kubelet', 'patch', 500, true],
    ]);
    expect(of('fault.begin').map((r) => [r.t, r.fault])).toEqual([[0, 'fail']]);
    expect(of('fault.end').map((r) => [r.t, r.fault])).toEqual([[35, 'fail']]);
  });

  it('fails every request of the verbs that arrives within the window', () => {
    const { engine, network, client, results, send, of } = setup({ latency: fixed(10) });
    engine.at(100, () => network.fail(['get', 'delete'], 429, { forMs: 1000 }));
    for (const t of [50, 100, 600, 1094, 1095, 1200]) send(`g${t}`, t, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 5000 });
    expect(results.map((x) => [x.name, x.r.ok ? 200 : x.r.code])).toEqual([
      ['g50', 200],
      ['g100', 429],
      ['g600', 429],
      ['g1094', 429],
      ['g1095', 200], // reaches the apiserver at 1100, when the window has closed
      ['g1200', 200],
    ]);
    expect(of('fault.end').map((r) => r.t)).toEqual([1100]);
  });

  it('an injected timeout gives no answer: the request fails after requestTimeout', () => {
    const { engine, network, client, results, send, of } = setup({ latency: fixed(10), requestTimeoutMs: 3000 });
    engine.at(0, () => network.fail(['get'], 'timeout', { count: 1 }));
    send('g', 100, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 10_000 });
    expect(results).toMatchObject([{ atMs: 3100, r: { ok: false, code: 'timeout' } }]);
    expect(of('api.error').map((r) => [r.t, r.code])).toEqual([[3100, 'timeout']]);
    expect(of('api.get')).toHaveLength(0);
  });

  it('a partitioned link loses requests: timeout after requestTimeout from the send', () => {
    const { engine, api, network, client, results, send, of } = setup({ latency: fixed(10), requestTimeoutMs: 2000 });
    engine.at(0, () => network.partition());
    send('p', 100, () => client.patchPodStatus('default', 'a', { status: { phase: 'Running' } }));
    engine.at(500, () => network.repair());
    send('g', 600, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 10_000 });
    expect(results.map((x) => [x.name, x.atMs, x.r.ok ? 200 : x.r.code])).toEqual([
      ['g', 610, 200],
      ['p', 2100, 'timeout'],
    ]);
    expect(api.peek('default', 'a')!.status!.phase).toBe('Pending'); // never reached the store
    expect(of('fault.begin').map((r) => [r.t, r.fault])).toEqual([[0, 'partition']]);
    expect(of('fault.end').map((r) => [r.t, r.fault])).toEqual([[500, 'partition']]);
  });

  it('a partition after the apiserver acted loses only the answer: the write lands, the caller times out', () => {
    const { engine, api, network, client, results, send } = setup({ latency: fixed(100), requestTimeoutMs: 1000 });
    send('p', 0, () => client.patchPodStatus('default', 'a', { status: { phase: 'Running' } }));
    engine.at(70, () => network.partition());
    engine.run({ untilMs: 10_000 });
    expect(api.peek('default', 'a')!.status!.phase).toBe('Running');
    expect(results).toMatchObject([{ atMs: 1000, r: { ok: false, code: 'timeout' } }]);
  });

  it('a request slower than requestTimeout still lands, but the caller has given up', () => {
    const { engine, api, client, results, send } = setup({ latency: fixed(400), requestTimeoutMs: 300 });
    send('p', 0, () => client.patchPodStatus('default', 'a', { status: { phase: 'Running' } }));
    engine.run({ untilMs: 10_000 });
    expect(results).toMatchObject([{ atMs: 300, r: { ok: false, code: 'timeout' } }]);
    expect(api.peek('default', 'a')!.status!.phase).toBe('Running'); // served at 200
  });

  it('answers 503 while the apiserver restarts, after the latency', () => {
    const { engine, network, client, results, send, of } = setup({ latency: fixed(10) });
    engine.at(0, () => network.restartApiserver(1000));
    send('g1', 100, () => client.getPod('default', 'a'));
    send('g2', 1000, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 5000 });
    expect(results.map((x) => [x.name, x.atMs, x.r.ok ? 200 : x.r.code])).toEqual([
      ['g1', 110, 503],
      ['g2', 1010, 200],
    ]);
    expect(of('fault.begin').map((r) => [r.t, r.fault, r.downForMs])).toEqual([[0, 'apiserverDown', 1000]]);
    expect(of('fault.end').map((r) => [r.t, r.fault])).toEqual([[1000, 'apiserverDown']]);
  });

  it('killGroup: a dead kubelet\'s in-flight write still lands, but nothing more is sent or answered', () => {
    const { engine, api, network, client, results, send, of } = setup({ latency: fixed(100) });
    send('p', 0, () => client.patchPodStatus('default', 'a', { status: { phase: 'Running' } }));
    engine.at(10, () => network.killGroup('kubelet-1'));
    send('g', 20, () => client.getPod('default', 'a'));
    engine.run({ untilMs: 100_000 });
    expect(api.peek('default', 'a')!.status!.phase).toBe('Running');
    expect(results).toEqual([]);
    expect(of('api.request')).toHaveLength(1);
  });
});

describe('WatchFeed', () => {
  function watchSetup(latency: Latency, seed = '3') {
    const s = setup({ seed, latency });
    const got: Array<{ t: number; type: string; rv: string }> = [];
    const feed = s.network.watch((e: WatchEvent) => got.push({ t: s.engine.nowMs, type: e.type, rv: e.object.metadata!.resourceVersion! }));
    return { ...s, got, feed };
  }

  it('delivers every event after a get-range delay, never out of order', () => {
    const { engine, api, got, of } = watchSetup(range(1, 50));
    for (let i = 0; i < 40; i++) engine.at(i * 3, () => api.externalPatch('default', 'a', { message: `m${i}` }, 'user'));
    engine.run({ untilMs: 10_000 });
    expect(got.map((g) => Number(g.rv))).toEqual(Array.from({ length: 40 }, (_, i) => i + 2));
    for (let i = 1; i < got.length; i++) expect(got[i].t).toBeGreaterThanOrEqual(got[i - 1].t);
    // Each delivery is at least the minimum delay after the write.
    const writes = api.history.slice(1);
    got.forEach((g, i) => expect(g.t - writes[i].atMs).toBeGreaterThanOrEqual(1));
    expect(of('api.watch')).toHaveLength(40);
    expect(of('api.watch')[0]).toMatchObject({ actor: 'apiserver', pod: 'default/a', uid: 'uid-a', event: 'MODIFIED', resourceVersion: '2' });
  });

  it('holds events back during a partition and delivers them in order after repair', () => {
    const { engine, api, network, got } = watchSetup(fixed(10));
    engine.at(100, () => network.partition());
    engine.at(95, () => api.externalPatch('default', 'a', { message: 'in flight' }, 'user'));
    engine.at(200, () => api.externalPatch('default', 'a', { message: 'held 1' }, 'user'));
    engine.at(300, () => api.delete('default', 'a', { gracePeriodSeconds: 0 }, 'user'));
    engine.at(1000, () => network.repair());
    engine.at(2000, () => api.create(pod('b'), 'user'));
    engine.run({ untilMs: 10_000 });
    expect(got.map((g) => [g.t, g.type, g.rv])).toEqual([
      [1010, 'MODIFIED', '2'],
      [1010, 'MODIFIED', '3'],
      [1010, 'MODIFIED', '4'],
      [1010, 'DELETED', '5'],
      [2010, 'ADDED', '6'],
    ]);
  });

  it('filters and replays, and stops', () => {
    const s = setup({ latency: fixed(5) });
    s.api.create({ ...pod('other'), spec: { nodeName: 'node-b', containers: [] } }, 'user');
    const got: string[] = [];
    const feed = s.network.watch((e) => got.push(`${e.type} ${e.object.metadata!.name}`), { replay: true, filter: (p) => p.spec?.nodeName === 'node-a' });
    s.engine.at(10, () => s.api.create(pod('c'), 'user'));
    s.engine.at(20, () => feed.stop());
    s.engine.at(30, () => s.api.create(pod('d'), 'user'));
    s.engine.run({ untilMs: 1000 });
    expect(got).toEqual(['ADDED a', 'ADDED c']);
  });
});
