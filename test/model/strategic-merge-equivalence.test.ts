// The optimized strategic merge patch (src/model/strategic-merge.ts) against the plain port it
// replaced (test/model/reference/strategic-merge.ts): on generated pod statuses and patches,
// realistic ones (diffs of two statuses) and malformed ones (directives in odd places, missing
// merge keys, type changes, out-of-step $setElementOrder lists), both must give the same answer:
// the same values with the same key order, or the same error with the same message.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freeze } from 'immer';
import * as fast from '../../src/model/strategic-merge.js';
import * as ref from './reference/strategic-merge.js';

/** A canonical rendering that keeps key order and tells undefined apart from a missing key. */
function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(show).join(',')}]`;
  return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${show((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

function outcome(f: () => unknown): string {
  try {
    return `ok ${show(f())}`;
  } catch (e) {
    if (e instanceof fast.StrategicMergeError || e instanceof ref.StrategicMergeError) return `error ${e.message}`;
    throw e;
  }
}

type Obj = Record<string, unknown>;

const GENERIC_META: fast.PatchMeta = {
  fields: {
    status: {
      meta: {
        fields: {
          conditions: { mergeKey: 'type' },
          mergingList: { mergeKey: 'name', meta: { fields: { inner: { mergeKey: 'name' } } } },
          retained: { mergeKey: 'name', retainKeys: true },
        },
      },
    },
  },
};
const metas = fc.constantFrom<fast.PatchMeta | undefined>(undefined, fast.POD_PATCH_META, fast.POD_PATCH_META_MERGE_CONTAINER_STATUSES, GENERIC_META);

const time = fc.integer({ min: 0, max: 3 }).map((s) => `2026-01-01T00:00:0${s}Z`);
const absent = fc.constantFrom(undefined, null);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: a }, { weight: 1, arbitrary: absent });
const scalar = fc.oneof(fc.constantFrom('', 'x', 'y', 0, 1, true, false), absent);
const conditionType = fc.constantFrom('Ready', 'Initialized', 'ContainersReady', 'PodScheduled', 'Custom');
const condition = fc.record(
  {
    type: conditionType,
    status: maybe(fc.constantFrom('True', 'False')),
    reason: maybe(fc.constantFrom('PodCompleted', 'ContainersNotReady')),
    message: maybe(fc.constantFrom('', 'm')),
    lastTransitionTime: maybe(time),
  },
  { requiredKeys: ['type'] },
);
/** A list element as a writer may send it: mostly well-formed, sometimes not. */
const oddElement = fc.oneof(
  fc.record({ status: fc.constantFrom('True', 'False') }), // no merge key
  fc.constantFrom('scalar', 3, null),
  fc.record({ type: conditionType, $patch: fc.constantFrom('delete', 'replace', 'merge', 'bogus') }),
  fc.record({ name: fc.constantFrom('a', 'b'), $patch: fc.constantFrom('delete', 'replace') }),
  fc.record({ type: conditionType, nested: fc.record({ a: scalar, $patch: fc.constantFrom('replace', 'delete') }) }),
  fc.record({ type: fc.constantFrom<unknown>(['Ready'], { t: 'Ready' }, 1), name: fc.constantFrom<unknown>(['a'], { n: 'a' }, 0), status: scalar }), // keys that are not strings
);
/** A list of `a`: unique by merge key unless `odd` (which also mixes in odd elements). */
const list = <T>(a: fc.Arbitrary<T>, odd: boolean) =>
  odd
    ? fc.array(fc.oneof({ weight: 6, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: oddElement }), { maxLength: 5 })
    : fc.uniqueArray(a, { maxLength: 5, selector: (e) => JSON.stringify((e as Obj)?.type ?? (e as Obj)?.name ?? (e as Obj)?.ip ?? e) });
const state = fc.oneof(
  fc.record({ running: fc.record({ startedAt: maybe(time) }) }),
  fc.record({ waiting: fc.record({ reason: maybe(fc.constantFrom('CrashLoopBackOff', 'ContainerCreating')) }) }),
  fc.record({ terminated: fc.record({ exitCode: fc.integer({ min: 0, max: 2 }), reason: maybe(fc.constantFrom('Completed', 'Error')) }) }),
);
const named = fc.record(
  {
    name: fc.constantFrom('a', 'b', 'c'),
    ready: maybe(fc.boolean()),
    restartCount: maybe(fc.integer({ min: 0, max: 2 })),
    state: maybe(state),
    inner: maybe(fc.array(fc.record({ name: fc.constantFrom('p', 'q'), v: scalar }), { maxLength: 3 })),
    other: scalar,
  },
  { requiredKeys: ['name'] },
);

/** A status document (the server's or the kubelet's), malformed now and then when `odd`. */
const statusDoc = (odd: boolean) =>
  fc.record(
    {
      phase: maybe(fc.constantFrom('Pending', 'Running', 'Failed')),
      message: scalar,
      startTime: maybe(time),
      conditions: odd ? fc.oneof({ weight: 5, arbitrary: list(condition, true) }, { weight: 1, arbitrary: fc.oneof(absent, fc.constant('x'), fc.record({ type: conditionType })) }) : list(condition, false),
      containerStatuses: list(named, odd),
      mergingList: list(named, odd),
      retained: list(named, odd),
      podIPs: list(fc.record({ ip: fc.constantFrom('10.0.0.1', '10.0.0.2') }), false),
      nested: maybe(fc.record({ a: scalar, b: maybe(fc.record({ c: scalar })), d: list(scalar, false) }, { requiredKeys: [] })),
      tags: list(fc.constantFrom('t1', 't2', 't3'), false),
    },
    { requiredKeys: [] },
  );

const orderList = fc.oneof(
  { weight: 5, arbitrary: fc.array(fc.oneof(fc.record({ type: conditionType }), fc.record({ name: fc.constantFrom('a', 'b', 'c') })), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.oneof(fc.constant('not a list'), fc.array(fc.constantFrom('a', 'Ready'), { maxLength: 3 })) },
);

/** Directives added to a patch: none, one or two of them. */
const directives = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constant('$setElementOrder/conditions'), orderList),
      fc.tuple(fc.constant('$setElementOrder/mergingList'), orderList),
      fc.tuple(fc.constant('$setElementOrder/containerStatuses'), orderList),
      fc.tuple(fc.constant('$setElementOrder/tags'), fc.array(fc.constantFrom('t1', 't2', 't3'), { maxLength: 3 })),
      fc.tuple(fc.constant('$retainKeys'), fc.oneof(fc.array(fc.constantFrom('phase', 'message', 'conditions', 'containerStatuses', 'startTime', 'nested'), { maxLength: 6 }), fc.constant('x'))),
      fc.tuple(fc.constant('$deleteFromPrimitiveList/tags'), fc.array(fc.constantFrom('t1', 't2'), { maxLength: 2 })),
      fc.tuple(fc.constant('$patch'), fc.constantFrom('replace', 'delete', 'merge')),
      fc.tuple(fc.constant('$unknown'), scalar),
    ),
    { maxLength: 2 },
  )
  .map((kvs) => Object.fromEntries(kvs) as Record<string, unknown>);

/** `a` one time in `n`, else undefined. */
const sometimes = <T>(a: fc.Arbitrary<T>, n: number) => fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });

/** A patch for {status} and the patch metadata it was made with: a real diff of two documents
 *  (occasionally made with other metadata), with directives and raw fields mixed in now and then. */
const statusPatch = fc
  .tuple(statusDoc(false), statusDoc(false), metas, sometimes(metas, 8), sometimes(directives, 2), sometimes(statusDoc(true), 4))
  .map(([a, b, meta, diffMeta, extra, raw]) => {
    let p: Obj;
    try {
      p = (fast.createTwoWayMergePatch({ status: a }, { status: b }, diffMeta ?? meta).status ?? {}) as Obj;
    } catch {
      p = {};
    }
    return { patch: { ...p, ...raw, ...extra } as Obj, meta };
  });

describe('the optimized strategic merge patch equals the plain port', () => {
  it('createTwoWayMergePatch: same patch (key order included) or same error', () => {
    fc.assert(
      fc.property(statusDoc(true), statusDoc(true), metas, fc.boolean(), (a, b, meta, withUID) => {
        const original = { status: a };
        const modified = withUID ? { metadata: { uid: 'u' }, status: b } : { status: b };
        expect(outcome(() => fast.createTwoWayMergePatch(original, modified, meta))).toBe(outcome(() => ref.createTwoWayMergePatch(original, modified, meta)));
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('createTwoWayMergePatch on frozen, partly shared documents', () => {
    fc.assert(
      fc.property(statusDoc(false), statusDoc(false), metas, (a, b, meta) => {
        // b shares some of a's values, as a kubelet's new status shares parts of the old one.
        const shared = freeze({ ...b, conditions: a.conditions, nested: a.nested }, true);
        const original = freeze({ status: a }, true);
        const modified = { metadata: { uid: 'u' }, status: shared };
        expect(outcome(() => fast.createTwoWayMergePatch(original, modified, meta))).toBe(outcome(() => ref.createTwoWayMergePatch(original, modified, meta)));
      }),
      { numRuns: 1500, seed: 12 },
    );
  });

  it('applyStrategicMergePatch: same result (key order included) or same error', () => {
    fc.assert(
      fc.property(statusDoc(true), statusPatch, fc.boolean(), (doc, { patch: p, meta }, frozen) => {
        const original = frozen ? freeze({ status: doc }, true) : { status: doc };
        const patch = frozen ? freeze({ status: p }, true) : { status: p };
        expect(outcome(() => fast.applyStrategicMergePatch(original, patch, meta))).toBe(outcome(() => ref.applyStrategicMergePatch(original, patch, meta)));
      }),
      { numRuns: 4000, seed: 13 },
    );
  });

  it('applyStrategicMergePatch of the diff the kubelet sends (round trip)', () => {
    fc.assert(
      fc.property(statusDoc(false), statusDoc(false), statusDoc(false), metas, (server, a, b, meta) => {
        // The kubelet diffs its old view `a` against `b`; the server holds `server` (or `a`).
        let patch: Obj;
        try {
          patch = fast.createTwoWayMergePatch({ status: a }, { metadata: { uid: 'u' }, status: b }, meta);
        } catch {
          return;
        }
        for (const cur of [a, server]) {
          expect(outcome(() => fast.applyStrategicMergePatch({ status: cur }, patch, meta))).toBe(outcome(() => ref.applyStrategicMergePatch({ status: cur }, patch, meta)));
        }
      }),
      { numRuns: 2000, seed: 14 },
    );
  });

  it('applyStrategicMergePatch onto server lists in another order (the merge lists kept in order, or reordered)', () => {
    // The kubelet's diff of `a` against `b`, applied to a server document holding some of `a`'s
    // list elements in some order: the fast path that keeps a list already in the patch's order
    // (keepsOrder) must agree with the plain port's partition and merge, in order or not.
    const doc = statusDoc(false).chain((a) =>
      fc.record({
        a: fc.constant(a),
        conditions: fc.shuffledSubarray((a.conditions ?? []) as unknown[]),
        mergingList: fc.shuffledSubarray((a.mergingList ?? []) as unknown[]),
      }),
    );
    fc.assert(
      fc.property(doc, statusDoc(false), metas, fc.boolean(), ({ a, conditions, mergingList }, b, meta, frozen) => {
        let patch: Obj;
        try {
          patch = fast.createTwoWayMergePatch({ status: a }, { metadata: { uid: 'u' }, status: b }, meta);
        } catch {
          return;
        }
        const server = { status: { ...a, conditions, mergingList } };
        const original = frozen ? freeze(server, true) : server;
        expect(outcome(() => fast.applyStrategicMergePatch(original, patch, meta))).toBe(outcome(() => ref.applyStrategicMergePatch(original, patch, meta)));
      }),
      { numRuns: 3000, seed: 16 },
    );
  });

  it('jsonEqual agrees', () => {
    fc.assert(
      fc.property(statusDoc(true), statusDoc(true), (a, b) => {
        expect(fast.jsonEqual(a, b)).toBe(ref.jsonEqual(a, b));
        expect(fast.jsonEqual(a, a)).toBe(true);
      }),
      { numRuns: 1000, seed: 15 },
    );
  });
});
