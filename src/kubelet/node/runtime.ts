// The simulated container runtime (containerd behind the CRI). It outlives kubelet restarts (the
// world hands one Runtime to every kubelet incarnation): containers run on while the kubelet is
// down. A container instance runs one Attempt of its `x-kss.containers` behaviour: it starts, runs
// runMs (or forever), and exits with `exit` (reason Completed for 0, else Error, unless named).
// StopContainer(timeout) sends SIGTERM: the attempt exits 143 (or its `onTerm` code) `term` ms
// later, or, with `term: ignore` (or a term not shorter than the timeout), is SIGKILLed at the
// timeout: 137. The timeline may end a container at any time (exit, oom: 137 OOMKilled).
import { Deferred, type Engine, type Rng, type Timer } from '../../engine/index.js';
import { podKey, type Container, type Pod, type UID } from '../../model/pod.js';
import type { VClock } from '../../model/time.js';
import type { Tracer } from '../../model/trace.js';
import type { Attempt } from '../../scenario/types.js';
import type { ContainerRuntimeState, RuntimeContainerStatus, RuntimePodStatus } from './types.js';
import { imageRefOf, normalizeImageRef, podIPOf } from './image-ref.js';
import { RuntimeContainer } from './runtime-container.js';
import { StopFaults } from './runtime-faults.js';

export { RuntimeContainer } from './runtime-container.js';

/** The behaviour of a container for which the scenario gave none: runs until stopped, exits at
 *  once on SIGTERM. */
export const DEFAULT_ATTEMPT: Attempt = Object.freeze({ runMs: 'forever', exit: 0, term: 0 }) as Attempt;

export const EXIT_CODE_SIGTERM = 143;
export const EXIT_CODE_SIGKILL = 137;
/** containerd's exit code for a container whose start failed. */
export const EXIT_CODE_START_ERROR = 128;

export interface RuntimeOptions {
  engine: Engine;
  clock: VClock;
  /** A fork for container IDs. */
  rng: Rng;
  tracer: Tracer;
}

interface RuntimePod {
  uid: UID;
  name: string;
  namespace: string;
  key: string;
  /** The pod the kubelet last started something with (its spec survives a restart, as labels do). */
  pod: Pod;
  sandbox: { id: string; attempt: number; ready: boolean; ip: string } | null;
  sandboxes: number;
  /** Every instance, in creation order. */
  containers: RuntimeContainer[];
}

export class Runtime {
  private readonly engine: Engine;
  private readonly clock: VClock;
  private readonly rng: Rng;
  private readonly tracer: Tracer;
  private readonly pods = new Map<UID, RuntimePod>();
  /** containerd is down (restartRuntime: CRI calls fail; the containers run on under their shims);
   *  its CNI plugin is not ready (networkPluginDown: its Status says NetworkReady=false). */
  criDown = false;
  networkDown = false;
  private readonly byID = new Map<string, RuntimeContainer>();
  private sandboxesCreated = 0; // (pod IPs go in that order)
  private readonly failedStarts = new Map<string, number>();
  private readonly interruptedStarts = new Set<string>(); // armed interruptStart faults, "uid/container"
  private readonly sigkillNoExit = new Set<string>(); // and sigkillNoExit ones
  private readonly changeListeners = new Set<(uid: UID) => void>();
  readonly stopFaults: StopFaults; // the stopFails faults in force (runtime-faults.ts)

  constructor(opts: RuntimeOptions) {
    this.stopFaults = new StopFaults(opts.engine, opts.tracer);
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.rng = opts.rng;
    this.tracer = opts.tracer;
  }

  private newID(): string {
    return `containerd://${this.rng.hex(64)}`;
  }

  /** A change the PLEG could see (sandbox, container start/exit/removal). */
  private touch(uid: UID): void {
    for (const l of this.changeListeners) l(uid);
  }

  /** Call `listener` with the pod's UID on every change the PLEG could see (it diffs only the pods
   *  named since its previous relist). Returns the unsubscribe. */
  onPodChange(listener: (uid: UID) => void): () => void {
    this.changeListeners.add(listener);
    return () => void this.changeListeners.delete(listener);
  }

  /** Every pod UID, in no particular order (the PLEG sorts what it needs). */
  podUIDsUnordered = (): IterableIterator<UID> => this.pods.keys();

  private podEntry(pod: Pod): RuntimePod {
    const uid = pod.metadata?.uid ?? '';
    let p = this.pods.get(uid);
    if (p === undefined) {
      p = { uid, name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', key: podKey(pod), pod, sandbox: null, sandboxes: 0, containers: [] };
      this.pods.set(uid, p);
    } else p.pod = pod;
    return p;
  }

  // ---- CRI -----------------------------------------------------------------------------------

  /** RunPodSandbox: a fresh, ready sandbox, replacing any previous one (a hostNetwork one has no IP: no CNI call). */
  runPodSandbox(pod: Pod): void {
    const p = this.podEntry(pod);
    p.sandbox = { id: this.newID(), attempt: p.sandboxes, ready: true, ip: pod.spec?.hostNetwork === true ? '' : podIPOf(this.sandboxesCreated++) };
    p.sandboxes++;
    this.touch(p.uid);
  }

  /** StopPodSandbox: the sandbox stays, not ready. */
  stopPodSandbox(uid: UID): void {
    const p = this.pods.get(uid);
    if (p?.sandbox && p.sandbox.ready) {
      p.sandbox = { ...p.sandbox, ready: false };
      this.touch(uid);
    }
  }

  /** CreateContainer + StartContainer: a new instance of `container` runs `attempt` from now. Its
   *  restart count is the previous instance's plus one. */
  startContainer(pod: Pod, container: Container, attempt: Attempt = DEFAULT_ATTEMPT): RuntimeContainer {
    const { p, c, restartCount } = this.createInstance(pod, container, attempt);
    this.tracer.emit({ type: 'runtime.start', actor: 'runtime', pod: p.key, uid: p.uid, container: c.name, attempt: restartCount, containerID: c.id });
    if (typeof attempt.runMs === 'number') {
      const ms = attempt.runMs;
      c.runTimer = this.engine.after(ms, () => this.finish(c, attempt.exit ?? 0, attempt.reason, attempt.message));
    }
    return c;
  }

  /** CreateContainer: a new instance of `container`; its restart count is the previous instance's
   *  plus one. Running unless `created` (a StartContainer that never happened). */
  private createInstance(pod: Pod, container: Container, attempt: Attempt, created = false): { p: RuntimePod; c: RuntimeContainer; restartCount: number } {
    const p = this.podEntry(pod);
    let prev: RuntimeContainer | undefined;
    for (const x of p.containers) if (x.name === container.name) prev = x;
    const restartCount = prev === undefined ? 0 : prev.restartCount + 1;
    const now = this.engine.nowMs;
    // containerd reports a container it never started with started_at 0: the Unix epoch
    const startedAt = created ? -this.clock.epochMs : now;
    const c = new RuntimeContainer(this.newID(), p.uid, p.key, container.name, normalizeImageRef(container.image ?? ''), restartCount, attempt, now, startedAt);
    if (created) c.state = 'created';
    p.containers.push(c);
    this.byID.set(c.id, c);
    this.touch(p.uid);
    return { p, c, restartCount };
  }

  /** CreateContainer, then a StartContainer cut off (the CRI call timed out, its context was
   *  cancelled): the instance stays CONTAINER_CREATED, never started (the interruptStart fault). */
  createContainerOnly(pod: Pod, container: Container, attempt: Attempt): RuntimeContainer {
    return this.createInstance(pod, container, attempt, true).c;
  }

  /** CreateContainer, then a failed StartContainer: exits at once, 128 StartError, StartedAt zero. */
  startContainerFailing(pod: Pod, container: Container, attempt: Attempt, message: string): RuntimeContainer {
    const c = this.startContainer(pod, container, { ...attempt, runMs: 'forever' });
    c.startedAtMs = -this.clock.epochMs;
    this.finish(c, EXIT_CODE_START_ERROR, 'StartError', message);
    return c;
  }

  /** A start that failed before a container was created (image pull, config, create): counted per
   *  container (failedStartsOf), so that the next start takes the next attempt. */
  noteFailedStart(uid: UID, name: string): void {
    this.failedStarts.set(`${uid}/${name}`, this.failedStartsOf(uid, name) + 1);
  }
  failedStartsOf(uid: UID, name: string): number {
    return this.failedStarts.get(`${uid}/${name}`) ?? 0;
  }

  /** StopContainer(timeout): SIGTERM now (once), SIGKILL when the timeout expires; a second call
   *  can only bring a pending SIGKILL forward. The SIGKILL belongs to the (blocking) CRI call: when
   *  its caller dies (abandonStops) it is not sent, and the next StopContainer arms a new one.
   *  Returns what the caller waits on: the instance's exit. */
  stopContainer(id: string, timeoutSeconds: number, owner = ''): Deferred<void> {
    const c = this.byID.get(id);
    // (no such container; or containerd's StopContainer of a container with no task: nothing to
    // stop, it stays created)
    if (c === undefined || c.state === 'created') {
      const d = new Deferred<void>();
      d.resolve(this.engine, undefined);
      return d;
    }
    if (!c.running) return c.exited;
    const now = this.engine.nowMs;
    const killAt = now + Math.max(0, timeoutSeconds) * 1000;
    if (c.sigtermAtMs === undefined) {
      c.sigtermAtMs = now;
      this.tracer.emit({ type: 'runtime.kill', actor: 'runtime', pod: c.podKey, uid: c.podUID, container: c.name, attempt: c.restartCount, signal: 'SIGTERM', timeoutSeconds });
      const term = c.attempt.term;
      if (term !== 'ignore' && term * 1 < killAt - now) {
        const code = c.attempt.onTerm ?? EXIT_CODE_SIGTERM;
        c.termTimer = this.engine.after(term, () => this.finish(c, code));
      }
    } else if (c.killAtMs === undefined) {
      // a new caller after the previous one died: the stop signal again, a new deadline
      this.tracer.emit({ type: 'runtime.kill', actor: 'runtime', pod: c.podKey, uid: c.podUID, container: c.name, attempt: c.restartCount, signal: 'SIGTERM', timeoutSeconds, again: true });
    }
    if (c.killAtMs === undefined || killAt < c.killAtMs) {
      c.killTimer?.cancel();
      c.killAtMs = killAt;
      c.killOwner = owner;
      c.killTimer = this.engine.at(killAt, () => {
        if (!c.running) return;
        this.tracer.emit({ type: 'runtime.kill', actor: 'runtime', pod: c.podKey, uid: c.podUID, container: c.name, attempt: c.restartCount, signal: 'SIGKILL' });
        if (this.sigkillNoExit.size > 0 && this.sigkillNoExit.delete(`${c.podUID}/${c.name}`)) this.forget(c, 'sigkill');
        else this.finish(c, EXIT_CODE_SIGKILL, 'Error');
      });
    }
    return c.exited;
  }

  /** The caller `owner` (a kubelet incarnation) died: its StopContainer calls return without
   *  SIGKILL (containerd's stop returns when the request's context is cancelled). */
  abandonStops(owner: string): void {
    for (const c of this.byID.values()) {
      if (!c.running || c.killOwner !== owner || c.killTimer === null) continue;
      c.killTimer.cancel();
      c.killTimer = null;
      c.killAtMs = undefined;
      c.killOwner = undefined;
    }
  }

  /** RemoveContainer (the kubelet's container deletor, podContainerDeletor): an exited instance
   *  leaves the runtime; the next relist reports it ContainerRemoved and drops it from the cache.
   *  False when there is no such instance or it still runs (containerd refuses to remove it). */
  removeContainer(id: string): boolean {
    const c = this.byID.get(id);
    if (c === undefined || c.running) return false;
    const p = this.pods.get(c.podUID);
    if (p !== undefined) {
      const i = p.containers.indexOf(c);
      if (i >= 0) p.containers.splice(i, 1);
    }
    this.byID.delete(id);
    this.touch(c.podUID);
    this.tracer.emit({ type: 'runtime.remove', actor: 'runtime', pod: c.podKey, uid: c.podUID, container: c.name, attempt: c.restartCount, containerID: c.id });
    return true;
  }

  // ---- the timeline's node actions -----------------------------------------------------------

  /** The newest running instance of a container of the pod. */
  runningContainer(uid: UID, name: string): RuntimeContainer | undefined {
    const p = this.pods.get(uid);
    if (p === undefined) return undefined;
    for (let i = p.containers.length - 1; i >= 0; i--) {
      const c = p.containers[i];
      if (c.name === name) return c.running ? c : undefined;
    }
    return undefined;
  }

  /** The newest instance (any state) of a container of the pod. */
  latestContainer(uid: UID, name: string): RuntimeContainer | undefined {
    const p = this.pods.get(uid);
    if (p === undefined) return undefined;
    for (let i = p.containers.length - 1; i >= 0; i--) if (p.containers[i].name === name) return p.containers[i];
    return undefined;
  }

  /** The running container exits now with code (reason Completed/Error unless given). False when
   *  no instance of that name runs. */
  exit(uid: UID, name: string, code: number, reason?: string, message?: string): boolean {
    const c = this.runningContainer(uid, name);
    if (c === undefined) return false;
    this.finish(c, code, reason, message);
    return true;
  }

  /** The running container is OOM-killed: exit 137, reason OOMKilled. */
  oom(uid: UID, name: string): boolean {
    return this.exit(uid, name, EXIT_CODE_SIGKILL, 'OOMKilled');
  }

  private finish(c: RuntimeContainer, code: number, reason?: string, message?: string): void {
    if (!c.running) return;
    c.runTimer?.cancel();
    c.termTimer?.cancel();
    c.killTimer?.cancel();
    c.runTimer = c.termTimer = c.killTimer = null;
    c.state = 'exited';
    c.finishedAtMs = this.engine.nowMs;
    c.exitCode = code;
    c.reason = reason ?? (code === 0 ? 'Completed' : 'Error');
    if (message !== undefined) c.message = message;
    this.touch(c.podUID);
    this.tracer.emit({ type: 'runtime.exit', actor: 'runtime', pod: c.podKey, uid: c.podUID, container: c.name, attempt: c.restartCount, exitCode: code, reason: c.reason });
    c.exited.resolve(this.engine, undefined);
    c.fireExit();
  }

  // ---- faults (the bug zoo) ------------------------------------------------------------------

  /** Fault: the newest instance of a container vanishes with no exit record (a SIGKILL nothing
   *  reported, a removal before its exit was seen). False when the pod has no such instance. */
  forgetContainer(uid: UID, name: string): boolean {
    const c = this.latestContainer(uid, name);
    if (c !== undefined) this.forget(c, 'container');
    return c !== undefined;
  }

  /** Fault (sigkillNoExit): the next SIGKILL of this container of the pod (a StopContainer's
   *  timeout) leaves no exit record: the instance vanishes from the runtime as forgetContainer's. */
  armSigkillNoExit(uid: UID, name: string): void {
    this.sigkillNoExit.add(`${uid}/${name}`);
  }

  /** Fault (interruptStart): the next StartContainer of this container of the pod is cut off after
   *  its CreateContainer (takeInterruptedStart tells the kubelet's start). */
  interruptNextStart(uid: UID, name: string): void {
    this.interruptedStarts.add(`${uid}/${name}`);
  }
  takeInterruptedStart(uid: UID, name: string): boolean {
    return this.interruptedStarts.size > 0 && this.interruptedStarts.delete(`${uid}/${name}`);
  }

  /** Fault (gcContainers): the container GC (kuberuntime_gc.go evictContainers, removeContainer)
   *  removes every instance that does not run (exited or created) of the pod, or of one container
   *  of it, or of every pod; the next relist reports them ContainerRemoved, and a kubelet that
   *  starts later never sees them. Returns how many went. */
  gcContainers(uid?: UID, name?: string): number {
    let n = 0;
    for (const u of uid === undefined ? this.podUIDs() : [uid]) {
      const dead = (this.pods.get(u)?.containers ?? []).filter((c) => !c.running && (name === undefined || c.name === name));
      for (const c of dead) if (this.removeContainer(c.id)) n++;
    }
    return n;
  }

  /** The node powers off (nodeShutdown's end): every instance's timers stop; nothing exits or is traced. */
  halt(): void {
    for (const c of this.byID.values()) for (const t of [c.runTimer, c.termTimer, c.killTimer]) t?.cancel();
  }

  /** Fault: the whole state is wiped (CRI-O's `crio wipe` on a reboot, BZ-04): every sandbox and
   *  instance is gone, running or not, with no exit record. */
  wipe(): void {
    for (const p of [...this.pods.values()]) {
      for (const c of [...p.containers]) this.forget(c, 'wipe');
      p.sandbox = null;
      this.touch(p.uid);
    }
  }

  /** (gone from every list; whoever waits on its exit is released) */
  private forget(c: RuntimeContainer, fault: 'container' | 'wipe' | 'sigkill'): void {
    for (const t of [c.runTimer, c.termTimer, c.killTimer]) t?.cancel();
    c.runTimer = c.termTimer = c.killTimer = null;
    const running = c.running;
    c.state = 'exited';
    const list = this.pods.get(c.podUID)?.containers;
    if (list?.includes(c)) list.splice(list.indexOf(c), 1);
    this.byID.delete(c.id);
    this.touch(c.podUID);
    this.tracer.emit({ type: 'runtime.forget', actor: 'runtime', pod: c.podKey, uid: c.podUID, container: c.name, attempt: c.restartCount, containerID: c.id, running, fault });
    if (!running) return;
    c.exited.resolve(this.engine, undefined);
    c.fireExit();
  }

  // ---- inspection ----------------------------------------------------------------------------

  /** GetPodStatus: sandbox and every container instance of the pod, newest first. */
  getPodStatus(uid: UID): RuntimePodStatus {
    const p = this.pods.get(uid);
    if (p === undefined) return { uid, name: '', namespace: '', sandbox: null, containers: [] };
    const containers: RuntimeContainerStatus[] = [];
    for (let i = p.containers.length - 1; i >= 0; i--) containers.push(p.containers[i].status());
    return { uid, name: p.name, namespace: p.namespace, sandbox: p.sandbox ? { ...p.sandbox } : null, containers };
  }

  /** The pod object the runtime last saw for this UID (container labels). */
  podOf = (uid: UID): Pod | undefined => this.pods.get(uid)?.pod;

  /** Every pod UID the runtime holds anything for, sorted. */
  podUIDs(): UID[] {
    return [...this.pods.keys()].sort();
  }

  /** The running instances of a pod, in creation order. */
  runningContainers(uid: UID): RuntimeContainer[] {
    return (this.pods.get(uid)?.containers ?? []).filter((c) => c.running);
  }

  hasRunningContainers = (uid: UID): boolean => this.pods.get(uid)?.containers.some((c) => c.running) ?? false;
  container = (id: string): RuntimeContainer | undefined => this.byID.get(id);

  /** Every instance of a pod, in creation order (tests, invariants). */
  containersOf(uid: UID): readonly RuntimeContainer[] {
    return this.pods.get(uid)?.containers ?? [];
  }
}
