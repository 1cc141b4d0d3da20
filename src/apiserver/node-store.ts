// The cluster-scoped objects of the node lifecycle, as far as status needs them: each node's Lease
// (coordination.k8s.io/v1 in kube-node-lease: its renewTime, the kubelet's heartbeat) and the
// Node's Ready condition and taints (core/v1 Node). Served by the apiserver (ApiServer.nodes); the
// kubelet reaches it over the network, the node lifecycle controller directly (it runs in the
// control plane, reading from informers).
import type { ApiResult } from '../model/client.js';
import type { VClock } from '../model/time.js';
import { zoneKey, type NodeObject, type NodeReadyCondition, type Taint } from '../model/node.js';
import type { Actor, Tracer } from '../model/trace.js';

export class NodeStore {
  private readonly nodes = new Map<string, NodeObject>();
  /** Each node's lease renewTime, virtual ms. */
  private readonly leases = new Map<string, number>();
  /** Each node's labels as first registered (a node deleted and registered again keeps them). */
  private readonly labels = new Map<string, Readonly<Record<string, string>>>();
  /** Told of every change of a node's taints or its deletion (the controllers' node informer). */
  private readonly listeners: Array<(name: string, actor: Actor) => void> = [];

  constructor(
    private readonly clock: VClock,
    private readonly tracer: Tracer,
    private readonly isDown: () => boolean,
  ) {}

  /** The kubelet's registration (registerWithAPIServer): the Node object, Ready as given, with its
   *  labels, in its zone (zoneKey of its labels). */
  register(name: string, ready: NodeReadyCondition, labels?: Readonly<Record<string, string>>): void {
    if (this.nodes.has(name)) return;
    if (!this.labels.has(name)) this.labels.set(name, Object.freeze({ ...labels }));
    const own = this.labels.get(name)!;
    this.nodes.set(name, { name, ready, taints: [], zone: zoneKey(own), labels: own });
  }

  /** DELETE nodes/{name} (a user, or the cloud node controller for a VM gone): the Node goes, and
   *  its Lease with it (the garbage collector follows the Lease's owner reference to the Node);
   *  whether it was there. */
  deleteNode(name: string, actor: Actor): boolean {
    if (!this.nodes.delete(name)) return false;
    this.leases.delete(name);
    this.tracer.emit({ type: 'node.deleted', actor, node: name });
    this.changed(name, actor);
    return true;
  }

  /** Be told of each change of a node's taints, and of its deletion: the node's name and who. */
  onNodeChange(fn: (name: string, actor: Actor) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private changed(name: string, actor: Actor): void {
    for (const fn of this.listeners.slice()) fn(name, actor);
  }

  /** The stored node (informer read: never refused, not traced). */
  node(name: string): NodeObject | undefined {
    return this.nodes.get(name);
  }

  /** The lease's renewTime (virtual ms), if the lease exists. */
  leaseRenewMs(name: string): number | undefined {
    return this.leases.get(name);
  }

  /** Every node name, sorted. */
  names(): string[] {
    return [...this.nodes.keys()].sort();
  }

  /** GET leases/{name} (the lease controller's ensureLease): its renewTime, 404 when missing. */
  getLease(name: string, actor: Actor): ApiResult<number> {
    if (this.isDown()) return this.unavailable(name, actor, 'get');
    const renew = this.leases.get(name);
    if (renew === undefined) return { ok: false, code: 404, message: `leases.coordination.k8s.io "${name}" not found` };
    return { ok: true, value: renew };
  }

  /** POST leases (ensureLease's create, renewTime now); 409 when it exists already. */
  createLease(name: string, actor: Actor): ApiResult<number> {
    if (this.isDown()) return this.unavailable(name, actor, 'create');
    if (this.leases.has(name)) return { ok: false, code: 409, message: `leases.coordination.k8s.io "${name}" already exists` };
    return this.renewed(name, actor);
  }

  /** PUT leases/{name} with renewTime now (the lease controller's update); 404 when it is missing
   *  (a lease is not created on update). */
  renewLease(name: string, actor: Actor): ApiResult<number> {
    if (this.isDown()) return this.unavailable(name, actor, 'update');
    if (!this.leases.has(name)) return { ok: false, code: 404, message: `leases.coordination.k8s.io "${name}" not found` };
    return this.renewed(name, actor);
  }

  private renewed(name: string, actor: Actor): ApiResult<number> {
    const now = this.clock.nowMs;
    this.leases.set(name, now);
    this.tracer.emit({ type: 'node.lease', actor, node: name, renewTime: this.clock.now() });
    return { ok: true, value: now };
  }

  /** GET nodes/{name}. */
  getNode(name: string, actor: Actor): ApiResult<NodeObject> {
    if (this.isDown()) return this.unavailable(name, actor, 'get');
    const n = this.nodes.get(name);
    if (n === undefined) return { ok: false, code: 404, message: `nodes "${name}" not found` };
    return { ok: true, value: n };
  }

  /** PATCH nodes/{name}/status: the Ready condition. Traced as node.status when its status, reason
   *  or message changes (not for a heartbeat alone). */
  setReady(name: string, ready: NodeReadyCondition, actor: Actor): ApiResult<NodeObject> {
    if (this.isDown()) return this.unavailable(name, actor, 'patch');
    const cur = this.nodes.get(name);
    if (cur === undefined) return { ok: false, code: 404, message: `nodes "${name}" not found` };
    const next: NodeObject = { ...cur, ready };
    this.nodes.set(name, next);
    if (cur.ready.status !== ready.status || cur.ready.reason !== ready.reason || cur.ready.message !== ready.message) {
      this.tracer.emit({ type: 'node.status', actor, node: name, condition: 'Ready', status: ready.status, reason: ready.reason, message: ready.message });
    }
    return { ok: true, value: next };
  }

  /** Add a taint (the controller's SwapNodeControllerTaint / AddOrUpdateTaintOnNode); the taint
   *  added, undefined when the node has it already (or does not exist). */
  addTaint(name: string, taint: Omit<Taint, 'timeAdded'>, actor: Actor): Taint | undefined {
    const cur = this.nodes.get(name);
    if (cur === undefined) return undefined;
    if (cur.taints.some((t) => t.key === taint.key && t.effect === taint.effect)) return undefined;
    const added: Taint = { ...taint, timeAdded: this.clock.now() };
    this.nodes.set(name, { ...cur, taints: [...cur.taints, added] });
    this.tracer.emit({ type: 'node.taint', actor, node: name, key: taint.key, effect: taint.effect, added: true });
    this.changed(name, actor);
    return added;
  }

  /** Set a label (value) or remove it (null): `kubectl label nodes … key=value --overwrite` /
   *  `key-`; whether the node changed. The node's zone follows its topology labels. */
  setLabel(name: string, key: string, value: string | null, actor: Actor): boolean {
    const cur = this.nodes.get(name);
    if (cur === undefined || (value === null ? !Object.hasOwn(cur.labels, key) : cur.labels[key] === value)) return false;
    const labels: Record<string, string> = { ...cur.labels };
    if (value === null) delete labels[key];
    else labels[key] = value;
    const own = Object.freeze(labels);
    this.labels.set(name, own);
    this.nodes.set(name, { ...cur, labels: own, zone: zoneKey(own) });
    this.tracer.emit({ type: 'node.label', actor, node: name, key, ...(value === null ? { removed: true } : { value }) });
    this.changed(name, actor);
    return true;
  }

  /** Remove a taint (RemoveTaintOffNode). */
  removeTaint(name: string, key: string, effect: Taint['effect'], actor: Actor): boolean {
    const cur = this.nodes.get(name);
    if (cur === undefined) return false;
    const taints = cur.taints.filter((t) => !(t.key === key && t.effect === effect));
    if (taints.length === cur.taints.length) return false;
    this.nodes.set(name, { ...cur, taints });
    this.tracer.emit({ type: 'node.taint', actor, node: name, key, effect, added: false });
    this.changed(name, actor);
    return true;
  }

  private unavailable<T>(name: string, actor: Actor, verb: 'get' | 'create' | 'update' | 'patch'): ApiResult<T> {
    const message = 'the server is currently unable to handle the request';
    this.tracer.emit({ type: 'api.error', actor, verb, node: name, code: 503, message });
    return { ok: false, code: 503, message };
  }
}
