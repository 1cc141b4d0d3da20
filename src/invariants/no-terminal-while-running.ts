// no-terminal-while-running: the apiserver never shows Succeeded or Failed while the runtime still
// runs a container of the pod — a terminal phase the kubelet wrote (or kept writing). A terminal
// phase another writer set (a user's or a controller's externalPatch) is not the kubelet's claim
// and is not judged, until the kubelet itself writes the object with the phase still terminal.
//
// Incremental: the checker keeps the set of apiserver objects now in a terminal phase (from the
// watch). The predicate can only become true when an object turns terminal (that object is
// checked) or when a container starts (`runtime.start`: every terminal object is checked, a small
// set). Both are judged after the event, when the runtime and the store have settled.
// Per node (spec.nodes): an object is judged against the runtime of its node (its spec.nodeName), a
// `runtime.start` makes only its node's terminal objects dirty. Inert on a node with `runtime: none`
// (no containers run).
import { isMirrorPod, isPodPhaseTerminal, podKey, type Pod, type UID } from '../model/pod.js';
import type { NodeView, RuntimeView } from '../model/world-view.js';
import { Checker, type Feeds } from './checker.js';

/** One node's share: its apiserver objects now in a terminal phase, by UID, and what to judge. */
interface NodeTerminal {
  readonly node: NodeView;
  readonly runtime: RuntimeView;
  readonly terminal: Map<UID, Pod>;
  readonly dirty: Set<UID>;
  allDirty: boolean;
}

export class NoTerminalWhileRunning extends Checker {
  /** The nodes with a runtime, by name. */
  private readonly nodes = new Map<string, NodeTerminal>();
  /** The nodes with something to judge after this event, in the order they became dirty. */
  private readonly dirtyNodes = new Set<NodeTerminal>();
  /** Mirror pod UID → the static pod UID the runtime runs it under, as the kubelet last knew. */
  private readonly staticUIDOf = new Map<UID, UID>();

  constructor(feeds: Feeds) {
    super('no-terminal-while-running', feeds.w);
    for (const node of feeds.w.nodes) {
      if (node.runtime !== null) this.nodes.set(node.name, { node, runtime: node.runtime, terminal: new Map(), dirty: new Set(), allDirty: false });
    }
    if (this.nodes.size === 0) return;
    for (const p of feeds.w.apiserver.list()) {
      if (!isPodPhaseTerminal(p.status?.phase)) continue;
      const n = this.nodes.get(feeds.nodeOfObject(p).name);
      if (n === undefined) continue;
      n.terminal.set(p.metadata?.uid ?? '', p);
      n.allDirty = true;
      this.dirtyNodes.add(n);
    }
    feeds.onApiChange(({ type, next, actor }) => {
      const n = this.nodes.get(feeds.nodeOfObject(next).name);
      if (n === undefined) return;
      const uid = next.metadata?.uid ?? '';
      if (type !== 'DELETED' && isPodPhaseTerminal(next.status?.phase)) {
        // Another writer's terminal phase: judged once the kubelet writes the object so (a version
        // the kubelet already claimed stays claimed through other writers' writes).
        if (actor !== 'kubelet' && type !== 'ADDED' && !n.terminal.has(uid)) return;
        n.terminal.set(uid, next);
        n.dirty.add(uid);
        this.dirtyNodes.add(n);
      } else {
        n.terminal.delete(uid);
        n.dirty.delete(uid);
      }
    });
    feeds.onTrace(['runtime.start'], (r) => {
      const n = this.nodes.get(feeds.nodeOfRecord(r).name);
      if (n !== undefined && n.terminal.size > 0) {
        n.allDirty = true;
        this.dirtyNodes.add(n);
      }
    });
  }

  /** The UID the runtime knows the pod by: its own, or for a mirror pod its static pod's. */
  private runtimeUID(pod: Pod, node: NodeView): UID {
    const uid = pod.metadata?.uid ?? '';
    if (!isMirrorPod(pod)) return uid;
    const kl = node.kubelet();
    const sp = kl?.podManager.getPodByMirrorPod(pod);
    if (sp?.metadata?.uid) this.staticUIDOf.set(uid, sp.metadata.uid);
    return this.staticUIDOf.get(uid) ?? uid;
  }

  protected override check(): void {
    if (this.dirtyNodes.size === 0) return;
    const nodes = [...this.dirtyNodes];
    this.dirtyNodes.clear();
    for (const n of nodes) this.checkNode(n);
  }

  private checkNode(n: NodeTerminal): void {
    if (!n.allDirty && n.dirty.size === 0) return;
    const uids = n.allDirty ? [...n.terminal.keys()] : [...n.dirty];
    n.allDirty = false;
    n.dirty.clear();
    for (const uid of uids) {
      const pod = n.terminal.get(uid);
      if (pod === undefined) continue;
      const key = podKey(pod);
      if (this.hasReported(key)) continue;
      const running = n.runtime.runningContainers(this.runtimeUID(pod, n.node));
      if (running.length > 0) this.violation(key, `phase ${pod.status?.phase} in the apiserver while the runtime still runs ${running.map((c) => c.name).join(', ')} (uid ${uid})`, n.node);
    }
  }
}
