import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freeze } from 'immer';
import {
  applyStrategicMergePatch,
  createTwoWayMergePatch,
  jsonEqual,
  POD_PATCH_META_MERGE_CONTAINER_STATUSES,
  StrategicMergeError,
  type PatchMeta,
} from '../../src/model/strategic-merge.js';
import type { PodStatus } from '../../src/model/pod.js';

const UID = '11111111-2222-3333-4444-555555555555';

/** What the status manager does: diff {status: old} against {metadata: {uid}, status: new}. */
function statusPatch(oldStatus: PodStatus | undefined, newStatus: PodStatus) {
  return createTwoWayMergePatch({ status: oldStatus }, { metadata: { uid: UID }, status: newStatus });
}

/** What the apiserver does with it: apply to {status}. */
function roundTrip(oldStatus: PodStatus, newStatus: PodStatus): unknown {
  const patch = createTwoWayMergePatch({ status: oldStatus }, { status: newStatus });
  return applyStrategicMergePatch({ status: oldStatus }, patch).status;
}

const running: PodStatus = {
  phase: 'Running',
  conditions: [
    { type: 'Initialized', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z' },
    { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:02Z' },
    { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
  ],
  containerStatuses: [
    { name: 'a', ready: true, restartCount: 0, image: 'busybox', imageID: '', state: { running: { startedAt: '2026-01-01T00:00:01Z' } } },
    { name: 'b', ready: true, restartCount: 2, image: 'busybox', imageID: '', state: { running: { startedAt: '2026-01-01T00:00:01Z' } } },
  ],
  podIPs: [{ ip: '10.0.0.1' }],
  startTime: '2026-01-01T00:00:00Z',
};

describe('createTwoWayMergePatch', () => {
  it('equal statuses give exactly {metadata: {uid}}', () => {
    expect(statusPatch(running, running)).toStrictEqual({ metadata: { uid: UID } });
    // A structurally equal copy, not the same object.
    expect(statusPatch(running, JSON.parse(JSON.stringify(running)) as PodStatus)).toStrictEqual({ metadata: { uid: UID } });
  });

  it('treats undefined and null as absent, but false, 0 and "" as values', () => {
    const a = { phase: 'Running', message: undefined, reason: null } as unknown as PodStatus;
    expect(statusPatch(a, { phase: 'Running' })).toStrictEqual({ metadata: { uid: UID } });
    expect(statusPatch({ phase: 'Running' }, a)).toStrictEqual({ metadata: { uid: UID } });
    const cs = (ready: boolean, restartCount: number) => ({ containerStatuses: [{ name: 'a', ready, restartCount, image: '', imageID: '' }] });
    expect(statusPatch(cs(true, 0), cs(false, 0))).toStrictEqual({ metadata: { uid: UID }, status: cs(false, 0) });
    expect(statusPatch(cs(false, 1), cs(false, 0))).toStrictEqual({ metadata: { uid: UID }, status: cs(false, 0) });
    expect(statusPatch({ message: 'x' }, { message: '' })).toStrictEqual({ metadata: { uid: UID }, status: { message: '' } });
  });

  it('sets removed fields to null and changed scalars to their new value', () => {
    const p = statusPatch({ phase: 'Running', message: 'm', reason: 'r' }, { phase: 'Failed', reason: 'r' });
    expect(p).toStrictEqual({ metadata: { uid: UID }, status: { message: null, phase: 'Failed' } });
  });

  it('diffs conditions by type, with $setElementOrder like upstream', () => {
    const next: PodStatus = {
      ...running,
      conditions: [
        running.conditions![0],
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: '2026-01-01T00:00:09Z' },
        running.conditions![2],
      ],
    };
    const p = statusPatch(running, next);
    expect(p).toStrictEqual({
      metadata: { uid: UID },
      status: {
        '$setElementOrder/conditions': [{ type: 'Initialized' }, { type: 'Ready' }, { type: 'PodScheduled' }],
        conditions: [{ lastTransitionTime: '2026-01-01T00:00:09Z', reason: 'ContainersNotReady', status: 'False', type: 'Ready' }],
      },
    });
    // Keys come out in Go's encoding/json order.
    expect(JSON.stringify(p)).toBe(
      `{"metadata":{"uid":"${UID}"},"status":{"$setElementOrder/conditions":[{"type":"Initialized"},{"type":"Ready"},{"type":"PodScheduled"}],` +
        `"conditions":[{"lastTransitionTime":"2026-01-01T00:00:09Z","reason":"ContainersNotReady","status":"False","type":"Ready"}]}}`,
    );
  });

  it('adds new conditions whole and deletes removed ones with $patch: delete', () => {
    const next: PodStatus = {
      ...running,
      conditions: [
        { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' },
        running.conditions![0],
        running.conditions![2],
      ],
    };
    const p = statusPatch(running, next);
    expect(p.status).toStrictEqual({
      '$setElementOrder/conditions': [{ type: 'DisruptionTarget' }, { type: 'Initialized' }, { type: 'PodScheduled' }],
      conditions: [
        { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' },
        { $patch: 'delete', type: 'Ready' },
      ],
    });
    expect(roundTrip(running, next)).toStrictEqual(next);
  });

  it('emits only $setElementOrder when just the order changed', () => {
    const c = running.conditions!;
    const next = { ...running, conditions: [c[2], c[0], c[1]] };
    const p = statusPatch(running, next);
    expect(p.status).toStrictEqual({ '$setElementOrder/conditions': [{ type: 'PodScheduled' }, { type: 'Initialized' }, { type: 'Ready' }] });
    expect(roundTrip(running, next)).toStrictEqual(next);
  });

  it('sends a merge list whole when the old one was absent or empty, and deletes all when the new one is empty', () => {
    expect(statusPatch({}, { conditions: running.conditions }).status).toStrictEqual({ conditions: running.conditions });
    expect(statusPatch({ conditions: [] }, { conditions: running.conditions }).status).toStrictEqual({ conditions: running.conditions });
    expect(statusPatch({ conditions: running.conditions }, { conditions: [] }).status).toStrictEqual({
      conditions: [
        { $patch: 'delete', type: 'Initialized' },
        { $patch: 'delete', type: 'PodScheduled' },
        { $patch: 'delete', type: 'Ready' },
      ],
    });
    expect(statusPatch({ conditions: running.conditions }, {}).status).toStrictEqual({ conditions: null });
  });

  it('replaces container status lists whole (upstream: atomic lists)', () => {
    const cs = running.containerStatuses!;
    const next = { ...running, containerStatuses: [cs[0], { ...cs[1], ready: false }] };
    expect(statusPatch(running, next).status).toStrictEqual({ containerStatuses: next.containerStatuses });
    expect(roundTrip(running, next)).toStrictEqual(next);
  });

  it('can merge container statuses by name instead (spec §6 wording)', () => {
    const cs = running.containerStatuses!;
    const next = { ...running, containerStatuses: [cs[0], { ...cs[1], ready: false }] };
    const p = createTwoWayMergePatch({ status: running }, { status: next }, POD_PATCH_META_MERGE_CONTAINER_STATUSES);
    expect(p).toStrictEqual({
      status: {
        '$setElementOrder/containerStatuses': [{ name: 'a' }, { name: 'b' }],
        containerStatuses: [{ name: 'b', ready: false }],
      },
    });
    expect(applyStrategicMergePatch({ status: running }, p, POD_PATCH_META_MERGE_CONTAINER_STATUSES)).toStrictEqual({ status: next });
  });

  it('diffs nested maps field by field', () => {
    const cs = running.containerStatuses!;
    const terminated = {
      ...running,
      containerStatuses: [{ ...cs[0], state: { terminated: { exitCode: 0, reason: 'Completed' } } }, cs[1]],
    };
    const p = createTwoWayMergePatch({ status: running }, { status: terminated }, POD_PATCH_META_MERGE_CONTAINER_STATUSES);
    expect(p).toStrictEqual({
      status: {
        '$setElementOrder/containerStatuses': [{ name: 'a' }, { name: 'b' }],
        containerStatuses: [{ name: 'a', state: { running: null, terminated: { exitCode: 0, reason: 'Completed' } } }],
      },
    });
  });

  it('emits $retainKeys for resourceClaimStatuses (merge,retainKeys)', () => {
    const a: PodStatus = { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'claim-1' }] };
    const b: PodStatus = { resourceClaimStatuses: [{ name: 'gpu' }] };
    const p = createTwoWayMergePatch({ status: a }, { status: b });
    expect(p).toStrictEqual({
      status: {
        '$setElementOrder/resourceClaimStatuses': [{ name: 'gpu' }],
        resourceClaimStatuses: [{ $retainKeys: ['name'], name: 'gpu', resourceClaimName: null }],
      },
    });
    expect(applyStrategicMergePatch({ status: a }, p)).toStrictEqual({ status: b });
  });

  it('throws on a merge-keyed element without its key', () => {
    expect(() => statusPatch({ conditions: [{ type: 'Ready', status: 'True' }] }, { conditions: [{ status: 'False' } as never] })).toThrow(StrategicMergeError);
  });
});

describe('applyStrategicMergePatch', () => {
  it('does not mutate its inputs and shares what did not change', () => {
    const orig = freeze({ status: running }, true);
    const patch = freeze(statusPatch(running, { ...running, message: 'hi' }), true);
    const out = applyStrategicMergePatch(orig, patch) as { status: PodStatus; metadata: unknown };
    expect(out.status.message).toBe('hi');
    expect(out.status.conditions).toBe(running.conditions);
    expect(out.status.containerStatuses).toBe(running.containerStatuses);
    expect(orig.status.message).toBeUndefined();
  });

  it('merges patch items into the server list and keeps server-only items in place', () => {
    // The server holds a condition the kubelet never saw (written by another writer).
    const server: PodStatus = {
      conditions: [running.conditions![0], { type: 'DisruptionTarget', status: 'True' }, running.conditions![1], running.conditions![2]],
    };
    const next = { conditions: [running.conditions![0], { ...running.conditions![1], status: 'False' }, running.conditions![2]] };
    const patch = createTwoWayMergePatch({ status: { conditions: running.conditions } }, { status: next });
    const out = applyStrategicMergePatch({ status: server }, patch) as { status: PodStatus };
    expect(out.status.conditions!.map((c) => `${c.type}=${c.status}`)).toEqual(['Initialized=True', 'DisruptionTarget=True', 'Ready=False', 'PodScheduled=True']);
  });

  it('honours $patch: replace and delete, and strips nulls and directives from inserted values', () => {
    expect(applyStrategicMergePatch({ status: running }, { status: { conditions: [{ $patch: 'replace' }, { type: 'X', status: 'True' }] } })).toStrictEqual({
      status: { ...running, conditions: [{ type: 'X', status: 'True' }] },
    });
    expect(applyStrategicMergePatch({ status: running }, { status: { $patch: 'delete' } })).toStrictEqual({ status: {} });
    expect(
      applyStrategicMergePatch({}, { status: { phase: 'Running', message: null, conditions: [{ type: 'A', status: 'True', lastProbeTime: null }, { $patch: 'delete', type: 'B' }] } }),
    ).toStrictEqual({ status: { phase: 'Running', conditions: [{ type: 'A', status: 'True' }] } });
  });

  it('rejects a patch list out of step with its $setElementOrder', () => {
    const meta: PatchMeta = { fields: { mergingList: { mergeKey: 'name' } } };
    expect(() =>
      applyStrategicMergePatch(
        { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
        { '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }], mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
        meta,
      ),
    ).toThrow(/doesn't match/);
  });

  // Cases from upstream's patch_test.go (two-way patch and its application).
  describe('upstream cases', () => {
    const meta: PatchMeta = { fields: { mergingList: { mergeKey: 'name' } } };
    const cases: Array<{ description: string; original: object; modified: object; twoWay: object; current?: object; result?: object }> = [
      {
        description: 'merge lists of maps',
        original: { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
        modified: { mergingList: [{ name: 4, value: 4 }, { name: 1 }, { name: 2, value: 2 }, { name: 3, value: 3 }] },
        twoWay: {
          '$setElementOrder/mergingList': [{ name: 4 }, { name: 1 }, { name: 2 }, { name: 3 }],
          mergingList: [{ name: 4, value: 4 }, { name: 3, value: 3 }],
        },
        current: { mergingList: [{ name: 1, other: 'a' }, { name: 2, value: 2, other: 'b' }] },
        result: { mergingList: [{ name: 4, value: 4 }, { name: 1, other: 'a' }, { name: 2, value: 2, other: 'b' }, { name: 3, value: 3 }] },
      },
      {
        description: 'delete all maps from merging list',
        original: { mergingList: [{ name: 1 }, { name: 2 }] },
        modified: { mergingList: [] },
        twoWay: { mergingList: [{ name: 1, $patch: 'delete' }, { name: 2, $patch: 'delete' }] },
        current: { mergingList: [{ name: 1, other: 'a' }, { name: 2, other: 'b' }] },
        result: { mergingList: [] },
      },
      {
        description: 'add field and delete field from map',
        original: { name: 1 },
        modified: { value: 1 },
        twoWay: { name: null, value: 1 },
        current: { name: 1, other: 'a' },
        result: { value: 1, other: 'a' },
      },
      {
        description: 'merge empty merging lists',
        original: { mergingList: [] },
        modified: { mergingList: [] },
        twoWay: {},
      },
    ];
    for (const c of cases) {
      it(c.description, () => {
        expect(createTwoWayMergePatch(c.original, c.modified, meta)).toEqual(c.twoWay);
        expect(applyStrategicMergePatch(c.original, c.twoWay, meta)).toEqual(c.modified);
        if (c.current) expect(applyStrategicMergePatch(c.current, c.twoWay, meta)).toEqual(c.result);
      });
    }

    it('preserve the order from the patch in a merging list 2', () => {
      expect(
        applyStrategicMergePatch({ mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] }, { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }] }, meta),
      ).toEqual({ mergingList: [{ name: 2, value: 'b' }, { name: 3, value: 'c' }, { name: 1, value: 'a' }] });
    });

    it('$setElementOrder contains item that is not present in the list to be merged', () => {
      expect(
        applyStrategicMergePatch(
          { mergingList: [{ name: 1 }, { name: 3 }] },
          { '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }], mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
          meta,
        ),
      ).toEqual({ mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] });
    });
  });
});

// ------------------------------------------------------------------------------------------------
// Round trips: apply(orig, diff(orig, mod)) equals mod, for random statuses.

const time = fc.integer({ min: 0, max: 5 }).map((s) => `2026-01-01T00:00:0${s}Z`);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const condition = fc.record({
  type: fc.constantFrom('Ready', 'Initialized', 'ContainersReady', 'PodScheduled', 'DisruptionTarget', 'Custom'),
  status: fc.constantFrom('True', 'False', 'Unknown'),
  reason: maybe(fc.constantFrom('PodCompleted', 'ContainersNotReady')),
  message: maybe(fc.constantFrom('', 'm')),
  lastTransitionTime: maybe(time),
  lastProbeTime: fc.constantFrom(undefined, null),
});
const state = fc.oneof(
  fc.record({ running: fc.record({ startedAt: maybe(time) }) }),
  fc.record({ waiting: fc.record({ reason: maybe(fc.constantFrom('CrashLoopBackOff', 'ContainerCreating')) }) }),
  fc.record({ terminated: fc.record({ exitCode: fc.integer({ min: 0, max: 137 }), reason: maybe(fc.constantFrom('Completed', 'Error')), signal: maybe(fc.constantFrom(0, 9)) }) }),
);
const containerStatus = fc.record({
  name: fc.constantFrom('a', 'b', 'c'),
  ready: fc.boolean(),
  restartCount: fc.integer({ min: 0, max: 3 }),
  image: fc.constant('busybox'),
  imageID: fc.constantFrom('', 'sha256:1'),
  started: maybe(fc.boolean()),
  state: maybe(state),
  lastState: maybe(state),
});
const uniqueBy = <T>(a: fc.Arbitrary<T>, key: (t: T) => string) => fc.uniqueArray(a, { selector: key, maxLength: 4 });
const status = fc.record({
  phase: maybe(fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed')),
  message: maybe(fc.constantFrom('', 'x', 'y')),
  reason: fc.constantFrom(undefined, null, 'Evicted'),
  startTime: maybe(time),
  conditions: maybe(uniqueBy(condition, (c) => c.type)),
  containerStatuses: maybe(uniqueBy(containerStatus, (c) => c.name)),
  initContainerStatuses: maybe(uniqueBy(containerStatus, (c) => c.name)),
  podIPs: maybe(uniqueBy(fc.record({ ip: fc.constantFrom('10.0.0.1', '10.0.0.2', 'fd00::1') }), (p) => p.ip)),
}) as fc.Arbitrary<PodStatus>;

describe('round trips', () => {
  for (const [name, meta] of [['upstream metadata', undefined], ['container statuses merged by name', POD_PATCH_META_MERGE_CONTAINER_STATUSES]] as const) {
    it(`apply(orig, diff(orig, mod)) equals mod (${name})`, () => {
      fc.assert(
        fc.property(status, status, (a, b) => {
          const patch = createTwoWayMergePatch({ status: a }, { metadata: { uid: UID }, status: b }, meta);
          const out = applyStrategicMergePatch({ status: a }, patch, meta) as { status?: PodStatus };
          if (!jsonEqual(out.status ?? {}, b)) return false;
          // Equal statuses, and only they, give the bare uid patch.
          return jsonEqual(a, b) === jsonEqual(patch, { metadata: { uid: UID } });
        }),
        { numRuns: 500, seed: 42 },
      );
    });
  }

  it('keeps list order exactly (conditions reordered, added, removed)', () => {
    fc.assert(
      fc.property(uniqueBy(condition, (c) => c.type), uniqueBy(condition, (c) => c.type), (a, b) => {
        const out = applyStrategicMergePatch({ status: { conditions: a } }, createTwoWayMergePatch({ status: { conditions: a } }, { status: { conditions: b } })) as { status?: PodStatus };
        const got = (out.status?.conditions ?? []).map((c) => c.type);
        return JSON.stringify(got) === JSON.stringify(b.map((c) => c.type));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
