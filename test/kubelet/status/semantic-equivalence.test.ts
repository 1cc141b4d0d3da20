// The optimized goJsonPodStatus (src/kubelet/status/semantic.ts) against the plain version it
// replaced (test/kubelet/status/reference/semantic.ts): the same Go-JSON form, key order included,
// for generated pod statuses (zero values, pointer fields, metav1.Time at sub-second precision or
// at Go's zero time, empty structs), converted one after another while they share frozen parts,
// as the kubelet's successive statuses do (the optimized version remembers frozen values' forms).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { freeze } from 'immer';
import { goJsonPodStatus, jsonEqual } from '../../../src/kubelet/status/semantic.js';
import { preparePatchForPodStatus } from '../../../src/kubelet/status/status-manager.js';
import { StrategicMergeError } from '../../../src/model/strategic-merge.js';
import * as ref from './reference/semantic.js';
import type { PodStatus } from '../../../src/model/pod.js';

/** A canonical rendering that keeps key order and tells undefined apart from a missing key. */
function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(show).join(',')}]`;
  return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${show((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

const absent = fc.constantFrom(undefined, null);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: a }, { weight: 1, arbitrary: absent });
const time = fc.constantFrom('2026-01-01T00:00:01Z', '2026-01-01T00:00:01.250Z', '2026-01-01T01:00:01+01:00', '0001-01-01T00:00:00Z', '', 'not a time');
const str = fc.constantFrom('', 'x', 'Running');
const num = fc.constantFrom(0, 1, 137);
const bool = fc.boolean();
const anyScalar = fc.oneof(str, num, bool, time, absent);
const obj = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: fc.constant({}) });

const running = fc.record({ startedAt: maybe(time) }, { requiredKeys: [] });
const terminated = fc.record({ exitCode: maybe(num), signal: maybe(num), reason: maybe(str), startedAt: maybe(time), finishedAt: maybe(time), containerID: maybe(str) }, { requiredKeys: [] });
const waiting = fc.record({ reason: maybe(str), message: maybe(str) }, { requiredKeys: [] });
const state = obj(fc.record({ running: maybe(obj(running)), terminated: maybe(obj(terminated)), waiting: maybe(obj(waiting)) }, { requiredKeys: [] }));
const containerStatus = fc.record(
  {
    name: maybe(fc.constantFrom('a', 'b', '')),
    state: maybe(state),
    lastState: maybe(state),
    ready: maybe(bool),
    restartCount: maybe(num),
    image: maybe(str),
    imageID: maybe(str),
    containerID: maybe(str),
    started: maybe(bool),
    resources: maybe(obj(fc.record({ limits: maybe(fc.record({ cpu: str })) }, { requiredKeys: [] }))),
    user: maybe(fc.constant({})),
    stopSignal: maybe(str),
    allocatedResources: maybe(fc.record({ cpu: str }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);
/** A container status already in (or close to) its Go-JSON form: the seven fields Go always writes,
 *  in Go's order, sometimes cut short, sometimes followed by more. */
const goFormContainerStatus = fc
  .tuple(
    fc.record({
      name: fc.constantFrom('a', ''),
      state: fc.oneof(fc.constant({}), fc.record({ running: fc.record({ startedAt: fc.constant('2026-01-01T00:00:01Z') }) })),
      lastState: fc.oneof(fc.constant({}), fc.record({ terminated: fc.record({ exitCode: num }) })),
      ready: bool,
      restartCount: num,
      image: fc.constantFrom('', 'busybox'),
      imageID: fc.constantFrom('', 'sha256:1'),
    }),
    fc.integer({ min: 0, max: 7 }),
    fc.record({ containerID: maybe(str), started: maybe(bool) }, { requiredKeys: [] }),
  )
  .map(([cs, n, more]) => ({ ...Object.fromEntries(Object.entries(cs).slice(0, n)), ...(n === 7 ? more : {}) }));
const condition = obj(
  fc.record(
    { type: maybe(fc.constantFrom('Ready', 'Initialized', '')), status: maybe(fc.constantFrom('True', 'False', '')), reason: maybe(str), message: maybe(str), lastProbeTime: maybe(time), lastTransitionTime: maybe(time), observedGeneration: maybe(num) },
    { requiredKeys: [] },
  ),
);
const list = <T>(a: fc.Arbitrary<T>) => maybe(fc.array(a, { maxLength: 3 }));
const status = fc.record(
  {
    phase: maybe(str),
    conditions: list(condition),
    message: maybe(str),
    reason: maybe(str),
    nominatedNodeName: maybe(str),
    hostIP: maybe(str),
    hostIPs: list(fc.record({ ip: maybe(str) }, { requiredKeys: [] })),
    podIP: maybe(str),
    podIPs: list(fc.record({ ip: maybe(str) }, { requiredKeys: [] })),
    startTime: maybe(time),
    initContainerStatuses: list(containerStatus),
    containerStatuses: list(fc.oneof(containerStatus, goFormContainerStatus)),
    ephemeralContainerStatuses: list(containerStatus),
    qosClass: maybe(str),
    resize: maybe(str),
    observedGeneration: maybe(num),
    extra: maybe(fc.oneof(anyScalar, fc.array(anyScalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('a', 'startTime', 'running', 'exitCode'), anyScalar, { maxKeys: 2 }))),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<PodStatus>;

type Obj = Record<string, unknown>;

/** A value made of parts of earlier ones (as the kubelet's next status shares the last one's
 *  unchanged parts), frozen or not. */
function mix(a: Obj, b: Obj, pick: number): Obj {
  const out: Obj = {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  let i = pick;
  for (const k of keys) out[k] = (i++ & 1) === 0 ? a[k] : b[k];
  return out;
}

describe('the optimized goJsonPodStatus equals the plain version', () => {
  it('on single statuses, frozen or not', () => {
    fc.assert(
      fc.property(status, fc.boolean(), (s, frozen) => {
        const v = frozen ? freeze(s, true) : s;
        expect(show(goJsonPodStatus(v))).toBe(show(ref.goJsonPodStatus(v)));
      }),
      { numRuns: 3000, seed: 21 },
    );
  });

  it('on runs of statuses that share frozen parts', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(status, fc.nat(3), fc.boolean()), { minLength: 1, maxLength: 8 }), (steps) => {
        let prev: Obj = {};
        for (const [s, pick, frozenTop] of steps) {
          const shared = mix(prev, freeze(s, true) as Obj, pick);
          const cur = frozenTop ? freeze(shared, true) : shared;
          expect(show(goJsonPodStatus(cur as PodStatus))).toBe(show(ref.goJsonPodStatus(cur as PodStatus)));
          prev = cur;
        }
      }),
      { numRuns: 1500, seed: 22 },
    );
  });

  it('undefined is the empty status', () => {
    expect(goJsonPodStatus(undefined)).toEqual({});
  });
});

describe('preparePatchForPodStatus', () => {
  it('is unchanged exactly when the patch is {metadata: {uid}}', () => {
    fc.assert(
      fc.property(status, status, fc.nat(3), fc.constantFrom('u1', ''), (a, b, pick, uid) => {
        for (const next of [b, a, mix(a as Obj, b as Obj, pick) as PodStatus]) {
          let answer: ReturnType<typeof preparePatchForPodStatus>;
          try {
            answer = preparePatchForPodStatus(uid, freeze(a, true), next);
          } catch (e) {
            if (e instanceof StrategicMergeError) continue; // (a podIP without its ip)
            throw e;
          }
          expect(answer.unchanged).toBe(uid !== '' && jsonEqual(answer.patch, { metadata: { uid } }));
        }
      }),
      { numRuns: 1000, seed: 23 },
    );
  });
});
