import { describe, expect, it } from 'vitest';
import { ApiServer, type WatchEvent } from '../../src/apiserver/index.js';
import { Engine, Rng, TraceBuffer } from '../../src/engine/index.js';
import type { Pod, PodStatus } from '../../src/model/pod.js';
import { VClock } from '../../src/model/time.js';
import type { TraceEvent, Tracer } from '../../src/model/trace.js';
import { createTwoWayMergePatch } from '../../src/model/strategic-merge.js';

function setup(seed = '1') {
  const engine = new Engine(new Rng(seed));
  const clock = new VClock(engine);
  const trace = new TraceBuffer<TraceEvent>(engine);
  const tracer: Tracer = { emit: (e) => trace.emit(e), log: () => {} };
  const api = new ApiServer({ clock, rng: engine.rng.fork('apiserver'), tracer });
  const events: WatchEvent[] = [];
  api.watch((e) => events.push(e));
  /** Run a callback at virtual time t. */
  const at = (t: number, fn: () => void) => {
    engine.at(t, fn);
    engine.run({ untilMs: t });
  };
  return { engine, clock, trace, api, events, at };
}

function pod(name: string, extra: { uid?: string; status?: PodStatus; nodeName?: string; grace?: number; finalizers?: string[] } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', ...(extra.uid ? { uid: extra.uid } : {}), ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
    spec: {
      nodeName: extra.nodeName ?? 'node-a',
      terminationGracePeriodSeconds: extra.grace,
      containers: [{ name: 'main', image: 'busybox' }],
    },
    ...(extra.status ? { status: extra.status } : {}),
  };
}

const ok = <T>(r: { ok: true; value: T } | { ok: false; code: unknown; message: string }): T => {
  if (!r.ok) throw new Error(`expected ok, got ${String(r.code)}: ${r.message}`);
  return r.value;
};

describe('ApiServer create/get', () => {
  it('creates with defaults, frozen, and a resourceVersion per write', () => {
    const { api, trace } = setup();
    const p = ok(api.create(pod('a'), 'user'));
    expect(p.metadata!.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(p.metadata!.resourceVersion).toBe('1');
    expect(p.metadata!.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.spec!.containers[0])).toBe(true);
    const q = ok(api.create(pod('b', { uid: 'given', status: { phase: 'Running' } }), 'user'));
    expect(q.metadata!.uid).toBe('given');
    expect(q.metadata!.resourceVersion).toBe('2');
    expect(q.status).toEqual({ phase: 'Running' }); // a given status is kept as written
    expect(trace.records.map((r) => [r.type, r.actor, r.pod, r.code, r.resourceVersion])).toEqual([
      ['api.create', 'user', 'default/a', 200, '1'],
      ['api.create', 'user', 'default/b', 200, '2'],
    ]);
  });

  it('answers 409 for a taken name and 404 for a missing pod, with api.error', () => {
    const { api, trace } = setup();
    ok(api.create(pod('a'), 'user'));
    const r = api.create(pod('a'), 'kubelet');
    expect(r).toMatchObject({ ok: false, code: 409 });
    const g = api.get('default', 'nope', 'kubelet');
    expect(g).toMatchObject({ ok: false, code: 404, message: 'pods "nope" not found' });
    expect(trace.records.slice(1).map((e) => [e.type, e.actor, e.verb, e.code])).toEqual([
      ['api.error', 'kubelet', 'create', 409],
      ['api.error', 'kubelet', 'get', 404],
    ]);
  });

  it('hands out the stored object itself on get', () => {
    const { api } = setup();
    const p = ok(api.create(pod('a'), 'user'));
    expect(ok(api.get('default', 'a', 'kubelet'))).toBe(p);
  });

  it('draws UIDs deterministically from the seed', () => {
    const uids = (seed: string) => {
      const { api } = setup(seed);
      return [ok(api.create(pod('a'), 'user')).metadata!.uid, ok(api.create(pod('b'), 'user')).metadata!.uid];
    };
    expect(uids('7')).toEqual(uids('7'));
    expect(uids('7')).not.toEqual(uids('8'));
  });
});

describe('ApiServer patchStatus', () => {
  it('applies a status patch, bumps resourceVersion, and notifies watchers', () => {
    const { api, events } = setup();
    const p = ok(api.create(pod('a'), 'user'));
    const next: PodStatus = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    const patch = createTwoWayMergePatch({ status: p.status }, { metadata: { uid: p.metadata!.uid }, status: next });
    const q = ok(api.patchStatus('default', 'a', patch, 'kubelet'));
    expect(q.status).toEqual(next); // qosClass was dropped by the new status, so the patch removed it
    expect(q.metadata!.resourceVersion).toBe('2');
    expect(q.spec).toBe(p.spec); // structural sharing
    expect(events.map((e) => [e.type, e.object.metadata!.resourceVersion])).toEqual([['ADDED', '1'], ['MODIFIED', '2']]);
  });

  it('turns metadata.uid into a precondition: mismatch 409, missing object 404', () => {
    const { api, trace } = setup();
    ok(api.create(pod('a', { uid: 'uid-1' }), 'user'));
    const r = api.patchStatus('default', 'a', { metadata: { uid: 'uid-0' }, status: { phase: 'Failed' } }, 'kubelet');
    expect(r).toMatchObject({ ok: false, code: 409 });
    expect(r.ok ? '' : r.message).toContain('Precondition failed: UID in precondition: uid-0, UID in object meta: uid-1');
    expect(api.peek('default', 'a')!.status!.phase).toBe('Pending');
    expect(api.peek('default', 'a')!.metadata!.resourceVersion).toBe('1');
    expect(api.patchStatus('default', 'b', { metadata: { uid: 'uid-1' }, status: {} }, 'kubelet')).toMatchObject({ ok: false, code: 404 });
    expect(trace.records.filter((e) => e.type === 'api.error').map((e) => e.code)).toEqual([409, 404]);
  });

  it('ignores metadata other than the uid, and writes nothing for a no-op patch', () => {
    const { api, events, trace } = setup();
    ok(api.create(pod('a', { uid: 'u' }), 'user'));
    const q = ok(api.patchStatus('default', 'a', { metadata: { uid: 'u', labels: { x: 'y' }, deletionTimestamp: 'now' }, status: { phase: 'Pending' } }, 'kubelet'));
    expect(q.metadata!.labels).toBeUndefined();
    expect(q.metadata!.deletionTimestamp).toBeUndefined();
    expect(q.metadata!.resourceVersion).toBe('1');
    expect(events).toHaveLength(1);
    expect(trace.records.at(-1)).toMatchObject({ type: 'api.patch', code: 200, resourceVersion: '1', noop: true });
  });

  it('merges external patches by key, with no precondition', () => {
    const { api } = setup();
    ok(api.create(pod('a', { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }), 'user'));
    const q = ok(api.externalPatch('default', 'a', { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' }] }, 'controller'));
    expect(q.status!.conditions!.map((c) => c.type).sort()).toEqual(['DisruptionTarget', 'Ready']);
    expect(q.status!.phase).toBe('Running');
  });

  it('answers 422 to a malformed patch', () => {
    const { api } = setup();
    ok(api.create(pod('a', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }), 'user'));
    expect(api.externalPatch('default', 'a', { conditions: [{ status: 'False' }] }, 'user')).toMatchObject({ ok: false, code: 422 });
  });

  it('updateStatus checks resourceVersion', () => {
    const { api } = setup();
    ok(api.create(pod('a'), 'user'));
    expect(api.updateStatus('default', 'a', { phase: 'Running' }, 'controller', { resourceVersion: '0' })).toMatchObject({ ok: false, code: 409 });
    expect(ok(api.updateStatus('default', 'a', { phase: 'Running' }, 'controller', { resourceVersion: '1' })).status).toEqual({ phase: 'Running' });
  });
});

describe('ApiServer delete', () => {
  it('graceful delete sets deletionTimestamp = now + grace; a later delete may only shorten it', () => {
    const { api, at } = setup();
    ok(api.create(pod('a', { grace: 30 }), 'user'));
    at(2000, () => {
      const d = ok(api.delete('default', 'a', {}, 'user'))!;
      expect(d.metadata!.deletionTimestamp).toBe('2026-01-01T00:00:32Z');
      expect(d.metadata!.deletionGracePeriodSeconds).toBe(30);
    });
    at(5000, () => {
      // Longer, equal, or unspecified: nothing changes.
      const rv = api.peek('default', 'a')!.metadata!.resourceVersion;
      expect(ok(api.delete('default', 'a', { gracePeriodSeconds: 60 }, 'user'))!.metadata!.deletionGracePeriodSeconds).toBe(30);
      ok(api.delete('default', 'a', {}, 'user'));
      expect(api.peek('default', 'a')!.metadata!.resourceVersion).toBe(rv);
      // Shorter: the timestamp moves to the first request's time + the new grace.
      const d = ok(api.delete('default', 'a', { gracePeriodSeconds: 10 }, 'user'))!;
      expect(d.metadata!.deletionTimestamp).toBe('2026-01-01T00:00:12Z');
      expect(d.metadata!.deletionGracePeriodSeconds).toBe(10);
    });
  });

  it('uses spec.terminationGracePeriodSeconds, default 30', () => {
    const { api } = setup();
    ok(api.create(pod('a', { grace: 5 }), 'user'));
    ok(api.create(pod('b'), 'user'));
    expect(ok(api.delete('default', 'a', {}, 'user'))!.metadata!.deletionGracePeriodSeconds).toBe(5);
    expect(ok(api.delete('default', 'b', {}, 'user'))!.metadata!.deletionGracePeriodSeconds).toBe(30);
  });

  it('grace 0 removes at once: watchers see MODIFIED with the timestamp, then DELETED', () => {
    const { api, events, at } = setup();
    ok(api.create(pod('a'), 'user'));
    at(1000, () => {
      expect(ok(api.delete('default', 'a', { gracePeriodSeconds: 0 }, 'user'))).toBeNull();
    });
    expect(api.peek('default', 'a')).toBeUndefined();
    expect(events.map((e) => [e.type, e.object.metadata!.resourceVersion, e.object.metadata!.deletionTimestamp])).toEqual([
      ['ADDED', '1', undefined],
      ['MODIFIED', '2', '2026-01-01T00:00:01Z'],
      ['DELETED', '3', '2026-01-01T00:00:01Z'],
    ]);
  });

  it('the kubelet\'s final delete (grace 0 + uid) removes a gracefully deleted pod', () => {
    const { api } = setup();
    const p = ok(api.create(pod('a'), 'user'));
    ok(api.delete('default', 'a', {}, 'user'));
    expect(api.delete('default', 'a', { gracePeriodSeconds: 0, uid: 'other' }, 'kubelet')).toMatchObject({ ok: false, code: 409 });
    expect(ok(api.delete('default', 'a', { gracePeriodSeconds: 0, uid: p.metadata!.uid }, 'kubelet'))).toBeNull();
    expect(api.delete('default', 'a', { gracePeriodSeconds: 0 }, 'kubelet')).toMatchObject({ ok: false, code: 404 });
  });

  it('forces grace 0 for a terminal phase or an unscheduled pod, and turns a negative grace into 1', () => {
    const { api } = setup();
    ok(api.create(pod('done', { status: { phase: 'Succeeded' } }), 'user'));
    ok(api.create(pod('failed', { status: { phase: 'Failed' } }), 'user'));
    ok(api.create(pod('unscheduled', { nodeName: '' }), 'user'));
    ok(api.create(pod('neg'), 'user'));
    expect(ok(api.delete('default', 'done', {}, 'user'))).toBeNull();
    expect(ok(api.delete('default', 'failed', { gracePeriodSeconds: 30 }, 'user'))).toBeNull();
    expect(ok(api.delete('default', 'unscheduled', {}, 'user'))).toBeNull();
    expect(ok(api.delete('default', 'neg', { gracePeriodSeconds: -5 }, 'user'))!.metadata!.deletionGracePeriodSeconds).toBe(1);
  });

  it('finalizers keep the object: only the deletion fields are set', () => {
    const { api, at } = setup();
    ok(api.create(pod('a', { finalizers: ['example.com/keep'] }), 'user'));
    at(3000, () => {
      const d = ok(api.delete('default', 'a', { gracePeriodSeconds: 0 }, 'user'))!;
      expect(d.metadata!.deletionTimestamp).toBe('2026-01-01T00:00:03Z');
      expect(d.metadata!.deletionGracePeriodSeconds).toBe(0);
    });
    expect(api.peek('default', 'a')).toBeDefined();
  });

  it('answers 503 to everything while down; objects survive', () => {
    const { api, trace } = setup();
    ok(api.create(pod('a'), 'user'));
    api.down = true;
    expect(api.get('default', 'a', 'kubelet')).toMatchObject({ ok: false, code: 503 });
    expect(api.delete('default', 'a', {}, 'user')).toMatchObject({ ok: false, code: 503 });
    expect(api.create(pod('b'), 'user')).toMatchObject({ ok: false, code: 503 });
    api.down = false;
    expect(ok(api.get('default', 'a', 'kubelet')).metadata!.name).toBe('a');
    expect(trace.records.filter((e) => e.type === 'api.error').map((e) => [e.verb, e.code])).toEqual([['get', 503], ['delete', 503], ['create', 503]]);
  });
});

describe('ApiServer history', () => {
  it('answers what it held at a virtual instant', () => {
    const { api, at } = setup();
    at(1000, () => ok(api.create(pod('a'), 'user')));
    at(2000, () => ok(api.externalPatch('default', 'a', { phase: 'Running' }, 'user')));
    at(2000, () => ok(api.externalPatch('default', 'a', { message: 'same instant' }, 'user')));
    at(3000, () => ok(api.delete('default', 'a', { gracePeriodSeconds: 0 }, 'user')));
    expect(api.at('default/a', 999)).toBeUndefined();
    expect(api.at('default/a', 1500)!.status!.phase).toBe('Pending');
    expect(api.at('default/a', 2000)!.status).toMatchObject({ phase: 'Running', message: 'same instant' });
    expect(api.at('default/a', 2999)!.metadata!.resourceVersion).toBe('3');
    expect(api.at('default/a', 3000)).toBeUndefined();
    expect(api.history.map((w) => [w.atMs, w.type, w.resourceVersion])).toEqual([
      [1000, 'ADDED', 1],
      [2000, 'MODIFIED', 2],
      [2000, 'MODIFIED', 3],
      [3000, 'MODIFIED', 4],
      [3000, 'DELETED', 5],
    ]);
  });

  it('recreate replaces the object under the same name with a new uid', () => {
    const { api } = setup();
    const p = ok(api.create(pod('a', { uid: 'old', finalizers: ['x'] }), 'user'));
    const q = ok(api.recreate(p, 'controller'));
    expect(q.metadata!.uid).not.toBe('old');
    expect(api.peek('default', 'a')).toBe(q);
  });

  it('markDeleted sets deletionTimestamp without deleting', () => {
    const { api, at } = setup();
    ok(api.create(pod('a'), 'user'));
    at(4000, () => {
      expect(api.markDeleted('default', 'a')!.metadata!.deletionTimestamp).toBe('2026-01-01T00:00:04Z');
    });
    expect(api.peek('default', 'a')!.metadata!.deletionTimestamp).toBe('2026-01-01T00:00:04Z');
  });
});
