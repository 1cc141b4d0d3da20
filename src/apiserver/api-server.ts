// The fake apiserver: the requests on the pod store (store.ts), with the semantics of spec §6
// (registry/core/pod: create, get, the status subresource, graceful delete with preconditions).
// It knows nothing of the network; every call is synchronous and is served at the virtual instant
// it is made (network/ decides when a kubelet request reaches it).
import { deepFreeze } from '../model/freeze.js';
import { freeze, produce } from 'immer';
import type { ApiResult, DeleteOptions } from '../model/client.js';
import { isPodPhaseTerminal, podKey, type Container, type Pod, type PodStatus } from '../model/pod.js';
import { emitsNothing, type Actor } from '../model/trace.js';
import { applyStrategicMergePatch, jsonEqual, StrategicMergeError } from '../model/strategic-merge.js';
import { getPodQOS } from '../model/qos.js';
import { NodeStore } from './node-store.js';
import { PodStore, splitKey } from './store.js';
import type { ApiServerLoad } from './apf/flow-control.js';

export type { ApiServerOptions, ApiVerb, StoreWrite, WatchEvent, WatchEventType, WatchListener } from './store.js';

const DEFAULT_GRACE_SECONDS = 30;

export class ApiServer extends PodStore {
  /** Nodes and their leases (the node lifecycle, when a scenario has one). */
  readonly nodes = new NodeStore(this.clock, this.tracer, () => this.down);
  /** Service time and flow control for the requests that reach it over the network
   *  (spec.apiserver.serviceTime / apf); null: each is served the instant it arrives. */
  load: ApiServerLoad | null = null;

  // ----------------------------------------------------------------------------------------------
  // Requests (each traced as api.<verb> when served, api.error when answered with an error)

  /** POST pods. 409 if the name is taken. Defaults: namespace `default`, a fresh uid when none is
   *  given, status `{phase: Pending, qosClass}` when none is given (a given status is kept as is).
   *  creationTimestamp and resourceVersion are always the server's. */
  create(pod: Pod, actor: Actor): ApiResult<Pod> {
    const key = podKey(pod);
    if (this.down) return this.unavailable('create', actor, key);
    const name = pod.metadata?.name;
    if (!name) return this.error('create', actor, key, 422, 'Pod "" is invalid: metadata.name: Required value: name or generateName is required');
    if (this.pods.has(key)) return this.error('create', actor, key, 409, `pods "${name}" already exists`);
    const rv = this.nextRV();
    const stored = freeze(
      produce(pod, (d) => {
        const m = (d.metadata ??= {});
        m.namespace ??= 'default';
        if (!m.uid) m.uid = this.newUID();
        m.resourceVersion = String(rv);
        m.creationTimestamp = this.clock.now();
        if (d.status === undefined || d.status === null) d.status = { phase: 'Pending', qosClass: getPodQOS(pod) };
      }),
      true,
    );
    this.commit(key, 'ADDED', stored, actor, rv);
    this.served('api.create', actor, key, stored);
    return { ok: true, value: stored };
  }

  /** GET pods/{name}. */
  /** POST serviceaccounts/{name}/token (a TokenRequest bound to a pod, as the kubelet's token
   *  manager asks for a projected serviceAccountToken volume): nothing is stored, the token is
   *  answered; 503 while down. */
  createToken(namespace: string, serviceAccount: string, podName: string, actor: Actor): ApiResult<string> {
    const key = `${namespace}/${podName}`;
    if (this.down) return this.unavailable('create', actor, key);
    if (emitsNothing(this.tracer)) this.tracer.skip!('api.token');
    else this.tracer.emit({ type: 'api.token', actor, pod: key, serviceAccount, code: 201 });
    return { ok: true, value: `token/${namespace}/${serviceAccount}/${podName}` };
  }

  /** POST events (core/v1 Event about a pod): nothing is stored; 503 while down. */
  createEvent(namespace: string, podName: string, reason: string, container: string, actor: Actor): ApiResult<string> {
    const key = `${namespace}/${podName}`;
    if (this.down) return this.unavailable('create', actor, key);
    if (emitsNothing(this.tracer)) this.tracer.skip!('api.event');
    else this.tracer.emit({ type: 'api.event', actor, pod: key, reason, container, code: 201 });
    return { ok: true, value: reason };
  }

  get(namespace: string, name: string, actor: Actor): ApiResult<Pod> {
    const key = `${namespace}/${name}`;
    if (this.down) return this.unavailable('get', actor, key);
    const pod = this.pods.get(key);
    if (pod === undefined) return this.notFound('get', actor, key);
    this.served('api.get', actor, key, pod);
    return { ok: true, value: pod };
  }

  /**
   * PATCH pods/{name}/status with a strategic merge patch (what the kubelet sends:
   * `{metadata: {uid}, status: {...}}`). Only `status` is applied; `metadata.uid` is a precondition
   * (mismatch → 409); every other part of the patch is ignored, as the status strategy does.
   * A patch that changes nothing writes nothing (no resourceVersion bump, no watch event).
   */
  patchStatus(namespace: string, name: string, patch: object, actor: Actor): ApiResult<Pod> {
    const key = `${namespace}/${name}`;
    if (this.down) return this.unavailable('patch', actor, key);
    const cur = this.pods.get(key);
    if (cur === undefined) return this.notFound('patch', actor, key);
    const p = patch as { metadata?: { uid?: unknown }; status?: unknown };
    const want = p.metadata?.uid;
    if (typeof want === 'string' && want !== '' && want !== cur.metadata?.uid) {
      return this.error('patch', actor, key, 409,
        `Operation cannot be fulfilled on pods "${name}": Precondition failed: UID in precondition: ${want}, UID in object meta: ${cur.metadata?.uid ?? ''}`);
    }
    return this.writeStatusPatch(key, cur, p.status, actor, 'patch');
  }

  /** Another writer (a user, the node controller) patches the status: a strategic merge of
   *  `statusPatch` onto the status, with no precondition. */
  externalPatch(namespace: string, name: string, statusPatch: PodStatus | object, actor: Actor): ApiResult<Pod> {
    const key = `${namespace}/${name}`;
    if (this.down) return this.unavailable('patch', actor, key);
    const cur = this.pods.get(key);
    if (cur === undefined) return this.notFound('patch', actor, key);
    return this.writeStatusPatch(key, cur, statusPatch, actor, 'patch');
  }

  /** PUT pods/{name}/status: replace the status whole. A given resourceVersion or uid that is not
   *  the stored one is a 409 Conflict (optimistic concurrency, for writers that read first). */
  updateStatus(namespace: string, name: string, status: PodStatus, actor: Actor, pre: { resourceVersion?: string; uid?: string } = {}): ApiResult<Pod> {
    const key = `${namespace}/${name}`;
    if (this.down) return this.unavailable('update', actor, key);
    const cur = this.pods.get(key);
    if (cur === undefined) return this.notFound('update', actor, key);
    if ((pre.resourceVersion !== undefined && pre.resourceVersion !== cur.metadata?.resourceVersion) ||
        (pre.uid !== undefined && pre.uid !== cur.metadata?.uid)) {
      return this.error('update', actor, key, 409,
        `Operation cannot be fulfilled on pods "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    return this.writeStatus(key, cur, status, actor, 'update');
  }

  /**
   * DELETE pods/{name} (upstream rest.BeforeDelete + Store.Delete + podStrategy.CheckGracefulDelete):
   *  - uid precondition mismatch → 409; missing → 404; a negative grace → 1.
   *  - first delete: grace = options, else spec.terminationGracePeriodSeconds (default 30), forced
   *    to 0 when spec.nodeName is empty or the phase is Succeeded/Failed. deletionTimestamp =
   *    now + grace and deletionGracePeriodSeconds = grace are written; with grace 0 and no
   *    finalizers the object is then removed (watchers see MODIFIED, then DELETED).
   *  - already deleting: only a shorter explicit grace changes anything (the timestamp moves to
   *    the original request time + the new grace); shortened to 0 without finalizers removes it.
   *    An object already at grace 0 is removed (or, with finalizers, marked deleting now).
   *  - finalizers keep the object: only the deletion fields are written.
   * The value is the object after a graceful delete, or null once it is removed.
   */
  delete(namespace: string, name: string, opts: DeleteOptions, actor: Actor): ApiResult<Pod | null> {
    const key = `${namespace}/${name}`;
    if (this.down) return this.unavailable('delete', actor, key);
    const cur = this.pods.get(key);
    if (cur === undefined) return this.notFound('delete', actor, key);
    const uid = cur.metadata?.uid ?? '';
    if (opts.uid !== undefined && opts.uid !== uid) {
      return this.error('delete', actor, key, 409,
        `Operation cannot be fulfilled on Pod "${name}": Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${uid}`);
    }
    let requested = opts.gracePeriodSeconds;
    if (requested !== undefined && requested < 0) requested = 1;
    const meta = cur.metadata ?? {};
    const hasFinalizers = (meta.finalizers?.length ?? 0) > 0;
    const nowMs = this.clock.nowMs;

    if (meta.deletionTimestamp) {
      const existing = meta.deletionGracePeriodSeconds;
      if (existing === undefined || existing === null || existing === 0) {
        // Already at grace 0: delete now, or (finalizers) markAsDeleting.
        if (!hasFinalizers) return this.remove(key, cur, actor, 0);
        const tsMs = this.clock.toVirtual(meta.deletionTimestamp);
        if (tsMs !== undefined && tsMs <= nowMs && existing === 0) {
          this.served('api.delete', actor, key, cur, { gracePeriodSeconds: 0, pending: true });
          return { ok: true, value: cur };
        }
        const next = produce(cur, (d) => {
          const m = d.metadata!;
          if (tsMs === undefined || tsMs > nowMs) m.deletionTimestamp = this.clock.now();
          m.deletionGracePeriodSeconds = 0;
        });
        return this.deletionWritten(key, cur, next, actor, 0);
      }
      if (requested === undefined || requested >= existing) {
        // Graceful deletion already pending: nothing changes.
        this.served('api.delete', actor, key, cur, { gracePeriodSeconds: existing, pending: true });
        return { ok: true, value: cur };
      }
      const oldTsMs = this.clock.toVirtual(meta.deletionTimestamp) ?? nowMs;
      const grace = requested;
      const next = produce(cur, (d) => {
        const m = d.metadata!;
        m.deletionTimestamp = this.clock.at(oldTsMs - existing * 1000 + grace * 1000);
        m.deletionGracePeriodSeconds = grace;
      });
      return this.deletionWritten(key, cur, next, actor, grace, hasFinalizers);
    }

    // CheckGracefulDelete
    let grace = requested ?? cur.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    if (!cur.spec?.nodeName) grace = 0;
    if (isPodPhaseTerminal(cur.status?.phase)) grace = 0;
    if (grace < 0) grace = 1;
    const next = produce(cur, (d) => {
      const m = (d.metadata ??= {});
      m.deletionTimestamp = this.clock.at(nowMs + grace * 1000);
      m.deletionGracePeriodSeconds = grace;
    });
    return this.deletionWritten(key, cur, next, actor, grace, hasFinalizers);
  }

  /** The timeline's `recreate`: remove the object at once (finalizers or not) and create `pod`
   *  under the same name with a fresh uid (any uid in `pod` is dropped). */
  recreate(pod: Pod, actor: Actor): ApiResult<Pod> {
    const key = podKey(pod);
    if (this.down) return this.unavailable('create', actor, key);
    const cur = this.pods.get(key);
    if (cur !== undefined) this.remove(key, cur, actor, 0);
    const fresh = produce(pod, (d) => {
      if (d.metadata) {
        delete d.metadata.uid;
        delete d.metadata.resourceVersion;
      }
    });
    return this.create(fresh, actor);
  }

  /** The timeline's `markDeleted`: set deletionTimestamp (default now) without deleting, as the
   *  upstream tests do to a pod; an object already being deleted keeps its timestamp. Not a
   *  request: never refused, traced as api.patch. Returns the stored object, if any. */
  markDeleted(namespace: string, name: string, deletionTimestamp?: string, actor: Actor = 'user'): Pod | undefined {
    const key = `${namespace}/${name}`;
    const cur = this.pods.get(key);
    if (cur === undefined || cur.metadata?.deletionTimestamp) return cur;
    const rv = this.nextRV();
    const next = produce(cur, (d) => {
      const m = (d.metadata ??= {});
      m.deletionTimestamp = deletionTimestamp ?? this.clock.now();
      m.resourceVersion = String(rv);
    });
    this.commit(key, 'MODIFIED', next, actor, rv);
    this.served('api.patch', actor, key, next, { deletionTimestamp: next.metadata?.deletionTimestamp });
    return next;
  }

  /** PATCH pods/{name}/ephemeralcontainers: append an ephemeral container to the spec (one of that
   *  name already there: nothing changes). Traced as api.patch; watchers see MODIFIED. */
  addEphemeralContainer(namespace: string, name: string, container: Container, actor: Actor = 'user'): Pod | undefined {
    const key = `${namespace}/${name}`;
    const cur = this.pods.get(key);
    if (cur === undefined || (cur.spec?.ephemeralContainers ?? []).some((c) => c.name === container.name)) return cur;
    const rv = this.nextRV();
    const next = produce(cur, (d) => {
      const spec = (d.spec ??= { containers: [] });
      (spec.ephemeralContainers ??= []).push(container as never);
      d.metadata!.resourceVersion = String(rv);
    });
    this.commit(key, 'MODIFIED', next, actor, rv);
    this.served('api.patch', actor, key, next, { ephemeralContainer: container.name });
    return next;
  }

  // ----------------------------------------------------------------------------------------------
  // Status writes and deletions

  private writeStatusPatch(key: string, cur: Pod, statusPatch: unknown, actor: Actor, verb: 'patch'): ApiResult<Pod> {
    if (statusPatch === undefined || statusPatch === null) return this.unchanged(key, cur, actor, { wrote: null });
    if (typeof statusPatch !== 'object' || Array.isArray(statusPatch)) {
      return this.error(verb, actor, key, 422, `Pod "${splitKey(key)[1]}" is invalid: status: must be an object`);
    }
    let status: PodStatus;
    try {
      const merged = applyStrategicMergePatch({ status: cur.status ?? {} }, { status: statusPatch }, this.patchMeta);
      status = (merged.status ?? {}) as PodStatus;
    } catch (e) {
      if (e instanceof StrategicMergeError) return this.error(verb, actor, key, 422, e.message);
      throw e;
    }
    return this.writeStatus(key, cur, status, actor, verb, statusPatch);
  }

  private writeStatus(key: string, cur: Pod, status: PodStatus, actor: Actor, verb: 'patch' | 'update', wrote: unknown = status): ApiResult<Pod> {
    // PUT status has no trace type of its own: it is traced as api.patch with verb 'update'.
    // `wrote`: what the request wrote (the status patch, or the whole status of a PUT).
    const extra = verb === 'update' ? { verb, wrote } : { wrote };
    if (jsonEqual(status, cur.status)) return this.unchanged(key, cur, actor, extra);
    const rv = this.nextRV();
    // A plain spread over the frozen object: only the new parts need freezing (cheaper than a draft).
    const next: Pod = deepFreeze({ ...cur, metadata: { ...cur.metadata, resourceVersion: String(rv) }, status });
    this.commit(key, 'MODIFIED', next, actor, rv);
    this.served('api.patch', actor, key, next, extra);
    return { ok: true, value: next };
  }

  /** A write that changes nothing is not written (upstream GuaranteedUpdate skips identical bytes). */
  private unchanged(key: string, cur: Pod, actor: Actor, extra?: Record<string, unknown>): ApiResult<Pod> {
    this.served('api.patch', actor, key, cur, { ...extra, noop: true });
    return { ok: true, value: cur };
  }

  /** Store `next` (carrying fresh deletion fields), then remove it when grace is 0 and nothing holds it. */
  private deletionWritten(key: string, cur: Pod, next: Pod, actor: Actor, grace: number, hasFinalizers = (cur.metadata?.finalizers?.length ?? 0) > 0): ApiResult<Pod | null> {
    const rv = this.nextRV();
    const stored = produce(next, (d) => {
      (d.metadata ??= {}).resourceVersion = String(rv);
    });
    this.commit(key, 'MODIFIED', stored, actor, rv);
    if (grace === 0 && !hasFinalizers) return this.remove(key, stored, actor, 0);
    this.served('api.delete', actor, key, stored, { gracePeriodSeconds: grace });
    return { ok: true, value: stored };
  }

  private remove(key: string, cur: Pod, actor: Actor, grace: number): ApiResult<Pod | null> {
    const rv = this.nextRV();
    const last = produce(cur, (d) => {
      (d.metadata ??= {}).resourceVersion = String(rv);
    });
    this.pods.delete(key);
    this.commit(key, 'DELETED', last, actor, rv);
    this.served('api.delete', actor, key, last, { gracePeriodSeconds: grace, removed: true });
    return { ok: true, value: null };
  }

}
