// The kubelet's lease controller (kubelet/nodelease/controller.ts: component-helpers' lease
// controller): sync with the latest lease, the fallback to backoffEnsureLease, and its back-off.
import { describe, expect, it } from 'vitest';
import { Engine, Rng, type Proc } from '../../../src/engine/index.js';
import { leaseController, LEASE_MAX_BACKOFF_MS } from '../../../src/kubelet/nodelease/controller.js';
import type { ApiResult } from '../../../src/model/client.js';
import type { NodeClient } from '../../../src/model/node.js';
import type { Tracer } from '../../../src/model/trace.js';

type Call = [atMs: number, verb: 'get' | 'create' | 'update'];

/** A client whose Lease requests take `rttMs` and fail while `down(t)`, with the lease present
 *  from the start when `exists`. */
function fakeClient(engine: Engine, calls: Call[], o: { exists: boolean; down: (t: number) => boolean; rttMs: number }): NodeClient {
  let exists = o.exists;
  const answer = function* (verb: Call[1]): Proc<ApiResult<number>> {
    calls.push([engine.nowMs, verb]);
    yield o.rttMs;
    if (o.down(engine.nowMs)) return { ok: false, code: 503, message: 'the server is currently unable to handle the request' };
    if (verb === 'get' || verb === 'update') {
      if (!exists) return { ok: false, code: 404, message: 'leases.coordination.k8s.io "node-a" not found' };
      return { ok: true, value: engine.nowMs };
    }
    if (exists) return { ok: false, code: 409, message: 'already exists' };
    exists = true;
    return { ok: true, value: engine.nowMs };
  };
  return {
    getLease: () => answer('get'),
    createLease: () => answer('create'),
    renewLease: () => answer('update'),
    getNode: () => { throw new Error('not used'); },
    patchNodeReady: () => { throw new Error('not used'); },
  };
}

function run(o: { exists: boolean; down: (t: number) => boolean; untilMs: number }): { calls: Call[]; logs: string[] } {
  const engine = new Engine(new Rng('lease'));
  const calls: Call[] = [];
  const logs: string[] = [];
  const tracer: Tracer = { emit: () => {}, log: (_level, msg) => void logs.push(msg) };
  const client = fakeClient(engine, calls, { ...o, rttMs: 10 });
  engine.spawn('lease', leaseController({ client, nodeName: 'node-a', renewIntervalMs: 10_000, rng: new Rng('jitter'), tracer }));
  engine.run({ untilMs: o.untilMs });
  return { calls, logs };
}

describe('the lease controller', () => {
  it("a new kubelet's first heartbeat is a GET (404) and a create; then one update per interval", () => {
    const { calls } = run({ exists: false, down: () => false, untilMs: 25_000 });
    expect(calls.map((c) => c[1])).toEqual(['get', 'create', 'update', 'update']);
    expect(calls[0][0]).toBe(0);
    expect(calls[1][0]).toBe(10);
    // sliding: each interval (10 s, jittered by up to 4 %) counted from the end of the sync
    expect(calls[2][0]).toBeGreaterThanOrEqual(10_020);
    expect(calls[2][0]).toBeLessThan(10_420);
  });

  it("a restarted kubelet's is a GET of the lease there, then an update", () => {
    const { calls } = run({ exists: true, down: () => false, untilMs: 5_000 });
    expect(calls).toEqual([[0, 'get'], [10, 'update']]);
  });

  it('five failed updates fall back to ensureLease, retried after 200 ms, 400 ms, ... up to 7 s, until the apiserver answers', () => {
    const backUpAt = 80_000;
    const { calls, logs } = run({ exists: true, down: (t) => t >= 10_000 && t < backUpAt, untilMs: 90_000 });
    const afterFirst = calls.slice(2); // the first sync's GET and update went through
    const updates = afterFirst.slice(0, 5);
    expect(updates.map((c) => c[1])).toEqual(['update', 'update', 'update', 'update', 'update']);
    // the five are back to back (each waits only for its answer)
    for (let i = 1; i < 5; i++) expect(updates[i][0] - updates[i - 1][0]).toBe(10);
    const gets = afterFirst.slice(5).filter((c) => c[1] === 'get');
    const gaps = gets.slice(1).map((c, i) => c[0] - gets[i][0] - 10);
    expect(gaps.slice(0, 7)).toEqual([200, 400, 800, 1600, 3200, 6400, LEASE_MAX_BACKOFF_MS]);
    expect(gaps.every((g) => g <= LEASE_MAX_BACKOFF_MS)).toBe(true);
    // the first GET after the apiserver is back is within one back-off of it, and an update follows at once
    const firstGood = gets.find((c) => c[0] + 10 >= backUpAt)!;
    expect(firstGood[0] + 10 - backUpAt).toBeLessThanOrEqual(LEASE_MAX_BACKOFF_MS + 10);
    const next = calls[calls.indexOf(firstGood) + 1];
    expect(next).toEqual([firstGood[0] + 10, 'update']);
    expect(logs).toContain('failed to update lease using latest lease, fallback to ensure lease, err: failed 5 attempts to update lease');
    expect(logs).toContain('failed to ensure node lease exists, will retry in 200ms, error: the server is currently unable to handle the request');
    expect(logs).toContain('failed to ensure node lease exists, will retry in 7s, error: the server is currently unable to handle the request');
  });
});
