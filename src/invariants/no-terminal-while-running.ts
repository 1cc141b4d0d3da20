// no-terminal-while-running: the apiserver never shows Succeeded or Failed while the runtime still
// runs a container of the pod — a terminal phase the kubelet wrote (or kept writing). A terminal
// phase another writer set (a user's or a controller's externalPatch) is not the kubelet's claim
// and is not judged, until the kubelet itself writes the object with the phase still terminal.
//
// Incremental: the checker keeps the set of apiserver objects now in a terminal phase (from the
// watch). The predicate can only become true when an object turns terminal (that object is
// checked) or when a container starts (`runtime.start`: every terminal object is checked, a small
// set). Both are judged after the event, when the runtime and the store have settled.
// Inert with `runtime: none` (no containers run).
import { isMirrorPod, isPodPhaseTerminal, podKey, type Pod, type UID } from '../model/pod.js';
import { Checker, type Feeds } from './checker.js';

export class NoTerminalWhileRunning extends Checker {
  /** Apiserver objects in a terminal phase now, by UID. */
  private readonly terminal = new Map<UID, Pod>();
  private readonly dirty = new Set<UID>();
  private allDirty = false;
  /** Mirror pod UID → the static pod UID the runtime runs it under, as the kubelet last knew. */
  private readonly staticUIDOf = new Map<UID, UID>();

  constructor(feeds: Feeds) {
    super('no-terminal-while-running', feeds.w);
    if (feeds.w.runtime === null) return;
    for (const p of feeds.w.apiserver.list()) if (isPodPhaseTerminal(p.status?.phase)) this.terminal.set(p.metadata?.uid ?? '', p);
    this.allDirty = this.terminal.size > 0;
    feeds.onApiChange(({ type, next, actor }) => {
      const uid = next.metadata?.uid ?? '';
      if (type !== 'DELETED' && isPodPhaseTerminal(next.status?.phase)) {
        // Another writer's terminal phase: judged once the kubelet writes the object so (a version
        // the kubelet already claimed stays claimed through other writers' writes).
        if (actor !== 'kubelet' && type !== 'ADDED' && !this.terminal.has(uid)) return;
        this.terminal.set(uid, next);
        this.dirty.add(uid);
      } else {
        this.terminal.delete(uid);
        this.dirty.delete(uid);
      }
    });
    feeds.onTrace(['runtime.start'], () => {
      if (this.terminal.size > 0) this.allDirty = true;
    });
  }

  /** The UID the runtime knows the pod by: its own, or for a mirror pod its static pod's. */
  private runtimeUID(pod: Pod): UID {
    const uid = pod.metadata?.uid ?? '';
    if (!isMirrorPod(pod)) return uid;
    const kl = this.w.kubelet();
    const sp = kl?.podManager.getPodByMirrorPod(pod);
    if (sp?.metadata?.uid) this.staticUIDOf.set(uid, sp.metadata.uid);
    return this.staticUIDOf.get(uid) ?? uid;
  }

  protected override check(): void {
    if (!this.allDirty && this.dirty.size === 0) return;
    const uids = this.allDirty ? [...this.terminal.keys()] : [...this.dirty];
    this.allDirty = false;
    this.dirty.clear();
    const rt = this.w.runtime!;
    for (const uid of uids) {
      const pod = this.terminal.get(uid);
      if (pod === undefined) continue;
      const key = podKey(pod);
      if (this.hasReported(key)) continue;
      const running = rt.runningContainers(this.runtimeUID(pod));
      if (running.length > 0) this.violation(key, `phase ${pod.status?.phase} in the apiserver while the runtime still runs ${running.map((c) => c.name).join(', ')} (uid ${uid})`);
    }
  }
}
