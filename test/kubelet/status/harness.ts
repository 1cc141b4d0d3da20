// Test harness for the status-manager port: the real StatusManager on the real Engine, with fakes
// of the client-go test clients that upstream's status_manager_test.go uses, and the helpers
// consumeUpdates / verifyUpdates / verifyActions / testSyncBatch with upstream's semantics.
import { expect } from 'vitest';
import { Engine, Rng, type Chooser, type Proc } from '../../../src/engine/index.js';
import { VClock, podUID, type ApiResult, type DeleteOptions, type KubeClient, type LogLevel, type Pod, type PodStatus, type TraceEvent, type Tracer } from '../../../src/model/index.js';
import { applyStrategicMergePatch } from '../../../src/model/strategic-merge.js';
import { PodManager } from '../../../src/kubelet/pod-manager.js';
import { StatusManager, type Generation, type PodStatusSyncRequest, type StatusFeatureGates } from '../../../src/kubelet/status/index.js';

export const GENERATIONS: Generation[] = ['classic', 'current'];

// ------------------------------------------------------------------------------------------------
// Fixtures (status_manager_test.go helpers)

/** getTestPod: UID 12345678, foo in namespace new, empty spec and status. */
export function getTestPod(): Pod {
  return { kind: 'Pod', apiVersion: 'v1', metadata: { uid: '12345678', name: 'foo', namespace: 'new' }, spec: { containers: [] } };
}

let messageCounter = 0;
/** getRandomPodStatus: {message: <a fresh number>} — two calls always differ. */
export function getRandomPodStatus(): PodStatus {
  return { message: String(++messageCounter * 7919) };
}

/** getReadyPodStatus */
export function getReadyPodStatus(): PodStatus {
  return { conditions: [{ type: 'Ready', status: 'True' }] };
}

/** getPodStatus (merge tests): Running, Ready True, PodScheduled True, message "Message". */
export function getPodStatus(): PodStatus {
  return {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ],
    message: 'Message',
  };
}

export const STATIC_ANNOTATIONS = { 'kubernetes.io/config.source': 'file' };
export const MIRROR_ANNOTATIONS = { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.mirror': 'mirror' };

// ------------------------------------------------------------------------------------------------
// Fake clients. Every one records "get pods", "patch pods/status", "delete pods" (verb + resource
// + subresource, what verifyActions compares).

export type Action = 'get pods' | 'patch pods/status' | 'delete pods' | 'create pods';
export const GET: Action = 'get pods';
export const PATCH: Action = 'patch pods/status';
export const DELETE: Action = 'delete pods';

export abstract class RecordingClient implements KubeClient {
  actions: Action[] = [];
  /** Every patch and delete option sent (not cleared by clearActions). */
  patches: object[] = [];
  deletes: DeleteOptions[] = [];
  /** Virtual latency of every request. */
  latencyMs = 0;
  /** Injected failures, consumed in order by the first request of that verb. */
  faults: Array<{ verb: 'get' | 'patch' | 'delete'; code: 404 | 409 | 500 }> = [];
  clearActions(): void {
    this.actions = [];
  }
  private fault(verb: 'get' | 'patch' | 'delete'): ApiResult<never> | undefined {
    const i = this.faults.findIndex((f) => f.verb === verb);
    if (i < 0) return undefined;
    const [f] = this.faults.splice(i, 1);
    return { ok: false, code: f.code, message: `injected ${f.code}` };
  }
  protected abstract onGet(ns: string, name: string): ApiResult<Pod>;
  protected abstract onPatch(ns: string, name: string, patch: object): ApiResult<Pod>;
  protected abstract onDelete(ns: string, name: string, opts: DeleteOptions): ApiResult<Pod | null>;
  *getPod(ns: string, name: string): Proc<ApiResult<Pod>> {
    this.actions.push(GET);
    if (this.latencyMs > 0) yield this.latencyMs;
    return this.fault('get') ?? this.onGet(ns, name);
  }
  *patchPodStatus(ns: string, name: string, patch: object): Proc<ApiResult<Pod>> {
    this.actions.push(PATCH);
    this.patches.push(patch);
    if (this.latencyMs > 0) yield this.latencyMs;
    return this.fault('patch') ?? this.onPatch(ns, name, patch);
  }
  *deletePod(ns: string, name: string, opts: DeleteOptions): Proc<ApiResult<Pod | null>> {
    this.actions.push(DELETE);
    this.deletes.push(opts);
    if (this.latencyMs > 0) yield this.latencyMs;
    return this.fault('delete') ?? this.onDelete(ns, name, opts);
  }
  *createPod(pod: Pod): Proc<ApiResult<Pod>> {
    this.actions.push('create pods');
    return { ok: true, value: pod };
  }
}

/** `&fake.Clientset{}`: GET and PATCH answer an empty Pod (UID ""), DELETE succeeds. */
export class ZeroClient extends RecordingClient {
  protected onGet(): ApiResult<Pod> {
    return { ok: true, value: {} };
  }
  protected onPatch(): ApiResult<Pod> {
    return { ok: true, value: {} };
  }
  protected onDelete(): ApiResult<Pod | null> {
    return { ok: true, value: null };
  }
}

const notFound = (name: string): ApiResult<never> => ({ ok: false, code: 404, message: `pods "${name}" not found` });

/** `fake.NewSimpleClientset(objs...)`: an object tracker. PATCH applies the strategic merge patch
 *  to the stored object; DELETE removes it (the tracker ignores preconditions). */
export class TrackerClient extends RecordingClient {
  readonly objects = new Map<string, Pod>();
  constructor(...pods: Pod[]) {
    super();
    for (const p of pods) this.objects.set(`${p.metadata?.namespace}/${p.metadata?.name}`, structuredClone(p));
  }
  get(ns: string, name: string): Pod | undefined {
    return this.objects.get(`${ns}/${name}`);
  }
  protected onGet(ns: string, name: string): ApiResult<Pod> {
    const p = this.objects.get(`${ns}/${name}`);
    return p ? { ok: true, value: p } : notFound(name);
  }
  protected onPatch(ns: string, name: string, patch: object): ApiResult<Pod> {
    const p = this.objects.get(`${ns}/${name}`);
    if (!p) return notFound(name);
    const next = applyStrategicMergePatch(p, patch) as Pod;
    this.objects.set(`${ns}/${name}`, next);
    return { ok: true, value: next };
  }
  protected onDelete(ns: string, name: string): ApiResult<Pod | null> {
    if (!this.objects.delete(`${ns}/${name}`)) return notFound(name);
    return { ok: true, value: null };
  }
}

/** `&fake.Clientset{}` with a "*" reactor: every verb answers `ret` / `err`. */
export class ReactorClient extends RecordingClient {
  ret: Pod | null = null;
  err: { code: 404 | 409 | 500; message: string } | null = null;
  getOnly404 = false;
  private answer(): ApiResult<Pod> {
    if (this.err) return { ok: false, code: this.err.code, message: this.err.message };
    return { ok: true, value: this.ret ?? {} };
  }
  protected onGet(): ApiResult<Pod> {
    return this.answer();
  }
  protected onPatch(): ApiResult<Pod> {
    return this.getOnly404 ? { ok: true, value: {} } : this.answer();
  }
  protected onDelete(): ApiResult<Pod | null> {
    return this.err ? this.answer() : { ok: true, value: null };
  }
}

// ------------------------------------------------------------------------------------------------
// Tracer, deletion safety, the manager under test

export class RecordingTracer implements Tracer {
  events: TraceEvent[] = [];
  logs: Array<{ level: LogLevel; msg: string; pod?: string; fields?: Record<string, unknown> }> = [];
  emit(e: TraceEvent): void {
    this.events.push(e);
  }
  log(level: LogLevel, msg: string, pod?: string, fields?: Record<string, unknown>): void {
    this.logs.push({ level, msg, pod, fields });
  }
  types(): string[] {
    return this.events.map((e) => e.type);
  }
  of(type: string): TraceEvent[] {
    return this.events.filter((e) => e.type === type);
  }
  logged(substr: string): number {
    return this.logs.filter((l) => l.msg.includes(substr)).length;
  }
}

/** statustest.FakePodDeletionSafetyProvider, both eras: classic PodResourcesAreReclaimed (v1.20:
 *  always true; v1.22: the Reclaimed field), current PodCouldHaveRunningContainers (HasRunning). */
export class FakeDeletionSafety {
  reclaimed = true;
  hasRunning = false;
  podResourcesAreReclaimed(): boolean {
    return this.reclaimed;
  }
  podCouldHaveRunningContainers(): boolean {
    return this.hasRunning;
  }
}

export interface TestEnv {
  gen: Generation;
  engine: Engine;
  clock: VClock;
  tracer: RecordingTracer;
  podManager: PodManager;
  safety: FakeDeletionSafety;
  client: RecordingClient | null;
  m: StatusManager;
}

export interface EnvOptions {
  /** Pre-load getTestPod() into the pod manager (newTestManager does; some tests build their own). */
  withTestPod?: boolean;
  capacity?: number;
  gates?: StatusFeatureGates;
  seed?: string;
  syncPeriodMs?: number;
  /** Replaces the engine's seeded choices (select, map order). */
  chooser?: Chooser;
  /** Stream for Go's map order (as the world passes one). */
  rng?: Rng;
}

/** newTestManager(client) */
export function newTestManager(gen: Generation, client: RecordingClient | null, opts: EnvOptions = {}): TestEnv {
  const engine = new Engine(new Rng(opts.seed ?? '1'), opts.chooser);
  const clock = new VClock(engine);
  const tracer = new RecordingTracer();
  const podManager = new PodManager();
  if (opts.withTestPod ?? true) podManager.addPod(getTestPod());
  const safety = new FakeDeletionSafety();
  const m = new StatusManager({
    engine,
    clock,
    client,
    podManager,
    deletionSafety: safety,
    tracer,
    config: { variant: gen, syncPeriodMs: opts.syncPeriodMs ?? 10_000, statusChannelCapacity: opts.capacity ?? 1000, featureGates: opts.gates },
    group: 'kubelet-1',
    rng: opts.rng,
  });
  return { gen, engine, clock, tracer, podManager, safety, client, m };
}

/** Run a generator body as an engine process to completion (the manager's own loop is not started,
 *  as in upstream's tests), and return its result. */
export function drive<T>(env: TestEnv, body: () => Proc<T>): T {
  let out: { v: T } | undefined;
  env.engine.spawn('test/driver', (function* (): Proc<void> {
    out = { v: yield* body() };
  })());
  env.engine.run({ untilMs: env.engine.nowMs + 24 * 3_600_000 });
  if (!out) throw new Error('the driver process did not finish');
  return out.v;
}

/** Let virtual time pass. */
export function advance(env: TestEnv, ms: number): void {
  env.engine.spawn('test/sleep', (function* (): Proc<void> {
    yield ms;
  })());
  env.engine.run({ untilMs: env.engine.nowMs + ms });
}

/** consumeUpdates. classic: every queued request goes to syncPod (counted whether or not it syncs);
 *  current: every pending wake-up runs syncBatch(false), whose result is added. */
export function consumeUpdates(env: TestEnv): number {
  return drive(env, function* () {
    let n = 0;
    for (;;) {
      const r = env.m.podStatusChannel.tryRecv();
      if (!r) return n;
      if (env.gen === 'classic') {
        const req = r.value as PodStatusSyncRequest;
        yield* env.m.syncPod(req.podUID, req.status);
        n++;
      } else {
        n += yield* env.m.syncBatch(false);
      }
    }
  });
}

export function verifyUpdates(env: TestEnv, expected: number): void {
  expect(consumeUpdates(env)).toBe(expected);
}

/** verifyActions: consume pending updates, compare the recorded actions, then clear them. */
export function verifyActions(env: TestEnv, expected: Action[]): void {
  consumeUpdates(env);
  expect(env.client!.actions).toEqual(expected);
  env.client!.clearActions();
}

/** syncBatch() (classic) / syncBatch(all) (current), run to completion; returns the count. */
export function syncBatch(env: TestEnv, all = true): number {
  return drive(env, () => env.m.syncBatch(all));
}

/** testSyncBatch: copy every cached status into the pod manager's pod (and its mirror pod) so that
 *  needsReconcile is false, then run a full batch. */
export function testSyncBatch(env: TestEnv): number {
  for (const uid of env.m.cachedUIDs()) {
    const st = env.m.cachedEntry(uid)!.status;
    const pod = env.podManager.getPodByUID(uid);
    if (!pod) throw new Error(`testSyncBatch: no pod ${uid} (upstream would dereference nil)`);
    env.podManager.updatePod({ ...pod, status: st });
    const mirror = env.podManager.getMirrorPodByPod(pod);
    if (mirror) env.podManager.updatePod({ ...mirror, status: st });
  }
  return syncBatch(env, true);
}

/** expectPodStatus */
export function expectPodStatus(env: TestEnv, pod: Pod): PodStatus {
  const st = env.m.getPodStatus(podUID(pod));
  expect(st, `PodStatus for ${podUID(pod)}`).toBeDefined();
  return st!;
}

/** The same object, typed writable: tests mutate pods as upstream's tests mutate Go pointers. */
export type DeepWritable<T> = T extends string | number | boolean | undefined | null ? T : T extends Array<infer E> ? Array<DeepWritable<E>> : { -readonly [K in keyof T]: DeepWritable<T[K]> };
export function w<T>(v: T): DeepWritable<T> {
  return v as DeepWritable<T>;
}

/** A deep, mutable copy (pod.DeepCopy()). */
export function deepCopy<T>(v: T): T {
  return structuredClone(v);
}
