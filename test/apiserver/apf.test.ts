import { describe, expect, it } from 'vitest';
import { ApiServerLoad, DEFAULT_APF, type AdmissionHandlers } from '../../src/apiserver/index.js';
import { classify, DEFAULT_FLOW_SCHEMAS, DEFAULT_PRIORITY_LEVELS, nominalConcurrency, type RequestDigest } from '../../src/apiserver/apf/bootstrap.js';
import { DroppedRequestsTracker } from '../../src/apiserver/apf/dropped-requests.js';
import { QueueSet, type QueuedRequest } from '../../src/apiserver/apf/queueset.js';
import { Dealer, hashFlowID } from '../../src/apiserver/apf/shuffle-sharding.js';
import { Engine, Rng } from '../../src/engine/index.js';
import type { ApiResult } from '../../src/model/client.js';
import type { TraceEvent } from '../../src/model/trace.js';
import type { ApfConfig } from '../../src/scenario/types.js';

describe('APF bootstrap configuration', () => {
  it('shares 600 seats as apf_controller.go does (ceil of the proportional share)', () => {
    const n = nominalConcurrency(DEFAULT_PRIORITY_LEVELS, 600);
    expect(Object.fromEntries(n)).toEqual({ system: 74, 'node-high': 98, 'leader-election': 25, 'workload-high': 98, 'workload-low': 245, 'global-default': 49, 'catch-all': 13 });
  });

  it("puts the kubelet's node and lease requests in node-high, the rest of its requests in system", () => {
    const kubelet = (resource: string): RequestDigest => ({ user: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'], verb: 'get', resource, namespace: 'default' });
    expect(classify(DEFAULT_FLOW_SCHEMAS, kubelet('leases')).name).toBe('system-node-high');
    expect(classify(DEFAULT_FLOW_SCHEMAS, kubelet('nodes/status')).priorityLevel).toBe('node-high');
    expect(classify(DEFAULT_FLOW_SCHEMAS, kubelet('pods/status')).name).toBe('system-nodes');
    expect(classify(DEFAULT_FLOW_SCHEMAS, kubelet('serviceaccounts/token')).priorityLevel).toBe('system');
    expect(classify(DEFAULT_FLOW_SCHEMAS, { user: 'alice', groups: ['system:authenticated'], verb: 'get', resource: 'pods', namespace: 'x' }).name).toBe('global-default');
    expect(classify(DEFAULT_FLOW_SCHEMAS, { user: 'anon', groups: [], verb: 'get', resource: 'pods', namespace: 'x' }).name).toBe('catch-all');
  });
});

describe('shuffle sharding', () => {
  it('deals handSize distinct queues, the same hand for the same flow', () => {
    const d = new Dealer(64, 6);
    for (let i = 0; i < 200; i++) {
      const h = hashFlowID('system-nodes', `system:node:n${i}`);
      const hand = d.dealIntoHand(h);
      expect(new Set(hand).size).toBe(6);
      for (const c of hand) expect(c >= 0 && c < 64).toBe(true);
      expect(d.dealIntoHand(h)).toEqual(hand);
    }
    expect(hashFlowID('a', 'b')).not.toBe(hashFlowID('a', 'c'));
  });

  it('deals as upstream: the remainders of successive divisions, bumped past earlier cards', () => {
    // hash 10 on a deck of 4, hand 2: 10 % 4 = 2, then 2 % 3 = 2 → bumped past 2 → 3
    expect(new Dealer(4, 2).dealIntoHand(10n)).toEqual([2, 3]);
    // hash 0: 0, then 0 → bumped past 0 → 1
    expect(new Dealer(4, 2).dealIntoHand(0n)).toEqual([0, 1]);
  });
});

/** A queue set whose requests finish when the test says so. */
function qsFixture(cfg: { queues: number; handSize: number; queueLengthLimit: number; concurrencyLimit: number }) {
  const qs = new QueueSet({ name: 't', ...cfg }, 0);
  const order: string[] = [];
  const executing = new Map<string, QueuedRequest>();
  const start = (name: string, flow: bigint, at = 0) => {
    const r = qs.start(at, flow, (req) => {
      order.push(name);
      executing.set(name, req);
    });
    return r;
  };
  const finish = (name: string, at: number) => {
    qs.finish(at, executing.get(name)!);
    executing.delete(name);
  };
  return { qs, order, executing, start, finish };
}

describe('QueueSet', () => {
  it('executes up to the concurrency limit at once and queues the rest', () => {
    const f = qsFixture({ queues: 8, handSize: 2, queueLengthLimit: 10, concurrencyLimit: 2 });
    for (const n of ['a', 'b', 'c']) f.start(n, 1n);
    expect(f.order).toEqual(['a', 'b']);
    expect(f.qs.totRequestsWaiting).toBe(1);
    f.finish('a', 5);
    expect(f.order).toEqual(['a', 'b', 'c']);
  });

  it('rejects (queue-full) when every seat is taken and the chosen queue is at its limit', () => {
    const f = qsFixture({ queues: 4, handSize: 1, queueLengthLimit: 2, concurrencyLimit: 1 });
    const got = ['a', 'b', 'c', 'd'].map((n) => f.start(n, 7n));
    expect(got.map((r) => (typeof r === 'string' ? r : r.state))).toEqual(['executing', 'waiting', 'waiting', 'queue-full']);
    expect(f.qs.rejected).toBe(1);
  });

  it('with a hand of two, a flow fills both of its queues before it is refused', () => {
    const f = qsFixture({ queues: 8, handSize: 2, queueLengthLimit: 3, concurrencyLimit: 1 });
    const got = Array.from({ length: 9 }, (_, i) => f.start(`r${i}`, 12345n));
    expect(got.filter((r) => r === 'queue-full')).toHaveLength(2); // 1 executing + 2 × 3 waiting
  });

  it('is fair between flows: a light flow is not stuck behind a heavy one', () => {
    const f = qsFixture({ queues: 64, handSize: 1, queueLengthLimit: 100, concurrencyLimit: 1 });
    const heavy = hashFlowID('system-nodes', 'system:node:heavy');
    const light = hashFlowID('system-nodes', 'system:node:light');
    expect(new Dealer(64, 1).dealIntoHand(heavy)).not.toEqual(new Dealer(64, 1).dealIntoHand(light));
    for (let i = 0; i < 20; i++) f.start(`h${i}`, heavy);
    f.start('l0', light, 1);
    f.start('l1', light, 1);
    let t = 2;
    while (f.executing.size > 0) f.finish([...f.executing.keys()][0]!, (t += 3));
    // FIFO would serve l0 21st; fair queuing serves the light flow's requests among the first few
    expect(f.order.indexOf('l0')).toBeLessThan(3);
    expect(f.order.indexOf('l1')).toBeLessThan(5);
    expect(f.order).toHaveLength(22);
  });

  it('without queues (LimitResponse Reject) refuses at the concurrency limit', () => {
    const f = qsFixture({ queues: 0, handSize: 0, queueLengthLimit: 0, concurrencyLimit: 1 });
    expect(typeof f.start('a', 1n)).toBe('object');
    expect(f.start('b', 1n)).toBe('concurrency-limit');
  });

  it('cancel takes a waiting request out of its queue, not an executing one', () => {
    const f = qsFixture({ queues: 4, handSize: 1, queueLengthLimit: 5, concurrencyLimit: 1 });
    const a = f.start('a', 3n) as QueuedRequest;
    const b = f.start('b', 3n) as QueuedRequest;
    expect(f.qs.cancel(1, a, 'cancel')).toBe(false);
    expect(f.qs.cancel(1, b, 'time-out')).toBe(true);
    f.finish('a', 2);
    expect(f.order).toEqual(['a']);
    expect(f.qs.idle).toBe(true);
    expect(f.qs.timedOut).toBe(1);
  });
});

describe('DroppedRequestsTracker (Retry-After)', () => {
  it('starts at 1 s, doubles after a second with 3 × Retry-After drops, comes down by one when drops stop', () => {
    const t = new DroppedRequestsTracker();
    expect(t.getRetryAfter('system')).toBe(1);
    for (let i = 0; i < 5; i++) t.recordDroppedRequest('system', 10_000 + i);
    expect(t.getRetryAfter('system')).toBe(1);
    t.recordDroppedRequest('system', 11_000); // second 10 had 5 ≥ 3 × 1 drops
    expect(t.getRetryAfter('system')).toBe(2);
    for (let i = 0; i < 7; i++) t.recordDroppedRequest('system', 12_000 + i);
    t.recordDroppedRequest('system', 13_000); // 1 + 7 ≥ 6 in [11, 13), and 2 s since the raise
    expect(t.getRetryAfter('system')).toBe(4);
    t.recordDroppedRequest('system', 30_000); // nothing in [26, 30): down by one
    expect(t.getRetryAfter('system')).toBe(3);
    expect(t.getRetryAfter('node-high')).toBe(1);
  });
});

describe('ApiServerLoad', () => {
  const kubelet = (node: string): RequestDigest => ({ user: `system:node:${node}`, groups: ['system:nodes'], verb: 'patch', resource: 'pods/status', namespace: 'default' });

  function fixture(apf: Partial<ApfConfig> | undefined, serviceTime = { baseMs: 10, perInflightMs: 5 }) {
    const engine = new Engine(new Rng('1'));
    const events: TraceEvent[] = [];
    const load = new ApiServerLoad(engine, { emit: (e) => events.push(e), log: () => {} }, { serviceTime, apf: apf && { ...DEFAULT_APF, ...apf } });
    const log: Array<{ name: string; at: number; what: string; result?: ApiResult<never> }> = [];
    const admit = (name: string, digest: RequestDigest) => {
      const h: AdmissionHandlers = {
        execute: (ms, done) => {
          log.push({ name, at: engine.nowMs, what: `execute ${ms}` });
          engine.after(ms, done);
        },
        reject: (result) => log.push({ name, at: engine.nowMs, what: 'reject', result }),
      };
      return load.admit(digest, { actor: 'kubelet', fields: { verb: 'patch', pod: `default/${name}` } }, h);
    };
    return { engine, load, log, admit, events };
  }

  it('service time grows with the requests in flight (no flow control)', () => {
    const f = fixture(undefined);
    f.engine.at(0, () => ['a', 'b', 'c'].forEach((n) => f.admit(n, kubelet('n1'))));
    f.engine.run({ untilMs: 1000 });
    expect(f.log.map((l) => l.what)).toEqual(['execute 10', 'execute 15', 'execute 20']);
    expect(f.load.inflight).toBe(0);
  });

  it('answers 429 with Retry-After when the queues are full, and traces it', () => {
    const f = fixture({ levels: { system: { seats: 1, queues: 1, handSize: 1, queueLengthLimit: 1 } } });
    f.engine.at(0, () => ['a', 'b', 'c'].forEach((n) => f.admit(n, kubelet('n1'))));
    f.engine.run({ untilMs: 1000 });
    expect(f.log.map((l) => `${l.name} ${l.what}@${l.at}`)).toEqual(['a execute 10@0', 'c reject@0', 'b execute 10@10']);
    expect(f.log[1]!.result).toMatchObject({ ok: false, code: 429, retryAfterSeconds: 1 });
    expect(f.events).toMatchObject([{ type: 'api.error', code: 429, retryAfter: 1, flowSchema: 'system-nodes', priorityLevel: 'system', reason: 'queue-full', pod: 'default/c' }]);
  });

  it('refuses a request still queued at the wait limit (time-out), and a fixed retryAfter is kept', () => {
    const f = fixture({ requestWaitLimitMs: 15_000, retryAfter: 3, levels: { system: { seats: 1 } } }, { baseMs: 20_000, perInflightMs: 0 });
    f.engine.at(0, () => ['a', 'b'].forEach((n) => f.admit(n, kubelet('n1'))));
    f.engine.run({ untilMs: 60_000 });
    expect(f.log.map((l) => `${l.name} ${l.what}@${l.at}`)).toEqual(['a execute 20000@0', 'b reject@15000']);
    expect(f.events[0]).toMatchObject({ reason: 'time-out', retryAfter: 3 });
  });

  it('without node-high (v1.20) the Lease waits in the system level with the pod requests', () => {
    const f = fixture({ nodeHigh: false, levels: { system: { seats: 1, queues: 1, handSize: 1, queueLengthLimit: 1 } } });
    f.engine.at(0, () => {
      ['a', 'b'].forEach((n) => f.admit(n, kubelet('n1')));
      f.admit('lease', { ...kubelet('n1'), verb: 'update', resource: 'leases' });
    });
    f.engine.run({ untilMs: 1000 });
    expect(f.log.find((l) => l.name === 'lease')).toMatchObject({ at: 0, what: 'reject' });
    expect(f.events[0]).toMatchObject({ flowSchema: 'system-nodes', priorityLevel: 'system' });
    expect(f.load.queueSet('node-high')).toBeUndefined();
    expect(f.load.queueSet('system')!.cfg.concurrencyLimit).toBe(1);
    const seats = fixture({ nodeHigh: false }).load.queueSet('system')!.cfg.concurrencyLimit;
    expect(seats).toBe(88); // 600 × 30 / 205: the six levels of v1.20 share the seats
  });

  it('keeps node-high apart: leases run while the system level is saturated', () => {
    const f = fixture({ levels: { system: { seats: 1, queues: 1, handSize: 1, queueLengthLimit: 1 } } });
    f.engine.at(0, () => {
      ['a', 'b', 'c'].forEach((n) => f.admit(n, kubelet('n1')));
      f.admit('lease', { ...kubelet('n1'), verb: 'update', resource: 'leases' });
    });
    f.engine.run({ untilMs: 1000 });
    expect(f.log.find((l) => l.name === 'lease')).toMatchObject({ at: 0, what: 'execute 15' });
  });

  it('a cancelled request leaves its queue and is never executed', () => {
    const f = fixture({ levels: { system: { seats: 1 } } });
    let b: { cancel(): void } | undefined;
    f.engine.at(0, () => {
      f.admit('a', kubelet('n1'));
      b = f.admit('b', kubelet('n1'));
    });
    f.engine.at(5, () => b!.cancel());
    f.engine.run({ untilMs: 1000 });
    expect(f.log.map((l) => l.name)).toEqual(['a']);
    expect(f.load.queueSet('system')!.cancelled).toBe(1);
  });
});
