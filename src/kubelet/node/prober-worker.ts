// pkg/kubelet/prober/worker.go (and the worker bookkeeping of prober_manager.go AddPod / RemovePod /
// getWorker): one worker per (pod, container, probe kind), which probes the container every
// periodSeconds and records the result, with the spec's initialDelaySeconds and success / failure
// thresholds. The probe's answer is the container instance's (the attempt's `ready` / `started` /
// `live`, or what a timeline step last said); no answer is a prober error (result thrown away).
// classic (v1.20): the first probe after a random part of the period; no manual trigger.
// current (v1.22+ text, v1.28): the random wait only while the kubelet started less than a period
// ago; UpdatePodStatus kicks a readiness worker whose container is not ready (manualTriggerCh);
// a deleted pod's liveness and startup workers report Success and stop; sidecars are probed too.
// transitional (v1.23.17): as current (v1.21+ random wait and deletion rule, v1.22 manual trigger),
// without sidecars.
import type { Process, Proc, Rng } from '../../engine/index.js';
import type { Container, ContainerStatus, Pod, PodStatus, UID } from '../../model/pod.js';
import { isRestartableInitContainer } from '../status/conditions.js';
import type { StatusFeatureGates } from '../status/types.js';
import type { ProbeKind, ProbeManager, ProbeResult } from './prober.js';
import type { Generation } from './types.js';

type Probe = NonNullable<Container['readinessProbe']>;

/** What the workers need of the kubelet. */
export interface ProbeWorkerHost {
  readonly gen: Generation;
  readonly gates?: StatusFeatureGates;
  readonly results: ProbeManager;
  readonly rng: Rng;
  nowMs(): number;
  /** When this kubelet's probe manager was made (probeManager.start). */
  readonly startMs: number;
  spawn(name: string, body: Proc<unknown>): Process;
  wake(p: Process, v: unknown): void;
  kill(p: Process): void;
  /** statusManager.GetPodStatus */
  getPodStatus(uid: UID): PodStatus | undefined;
  /** The probe's answer for that container instance (undefined: none: a prober error). */
  answer(containerID: string, kind: ProbeKind): boolean | undefined;
  /** containerd is down (restartRuntime): exec probes error. */
  criDown?(): boolean;
  /** RFC 3339 → virtual ms. */
  toVirtual(s: string): number | undefined;
  /** The results manager's update (a result changed): the kubelet's sync loop handles it. */
  onUpdate(kind: ProbeKind, podUID: UID, containerName: string, containerID: string, result: ProbeResult): void;
}

const TRIGGER = Symbol('manualTrigger');

/** The probe of that kind of a container, if the spec has one. */
export function probeOf(c: Container, kind: ProbeKind): Probe | undefined {
  const p = kind === 'readiness' ? c.readinessProbe : kind === 'startup' ? c.startupProbe : c.livenessProbe;
  return p ?? undefined;
}

/** SetDefaults_Probe: periodSeconds 10, successThreshold 1, failureThreshold 3. */
function probeTiming(p: Probe): { periodMs: number; initialDelay: number; success: number; failure: number } {
  return {
    periodMs: Math.max(1, p.periodSeconds ?? 10) * 1000,
    initialDelay: p.initialDelaySeconds ?? 0,
    success: Math.max(1, p.successThreshold ?? 1),
    failure: Math.max(1, p.failureThreshold ?? 3),
  };
}

/** worker */
export class ProbeWorker {
  containerID = '';
  lastResult: ProbeResult | undefined;
  resultRun = 0;
  onHold = false;
  /** manualTriggerCh holds a trigger; the worker waits in its select. */
  triggered = false;
  waiting = false;
  proc: Process | null = null;
  readonly initialValue: ProbeResult;
  readonly timing: ReturnType<typeof probeTiming>;

  /** An exec probe runs through the runtime (ExecSync): it errors while containerd is down. */
  readonly exec: boolean;

  constructor(readonly h: ProbeWorkerHost, readonly kind: ProbeKind, readonly pod: Pod, readonly container: Container, spec: Probe) {
    this.exec = spec.exec !== undefined && spec.exec !== null;
    this.initialValue = kind === 'readiness' ? 'Failure' : kind === 'liveness' ? 'Success' : 'Unknown';
    this.timing = probeTiming(spec);
  }

  get uid(): UID {
    return this.pod.metadata?.uid ?? '';
  }

  /** run: the random wait, then doProbe at once and on every tick (or manual trigger). */
  *run(): Proc<void> {
    const period = this.timing.periodMs;
    if (this.h.gen === 'classic' || period > this.h.nowMs() - this.h.startMs) yield Math.floor(this.h.rng.float() * period);
    const tickerStart = this.h.nowMs();
    let n = 1;
    while (this.doProbe()) {
      if (this.triggered) {
        this.triggered = false;
        continue;
      }
      this.waiting = true;
      const v: unknown = yield Math.max(0, tickerStart + n * period - this.h.nowMs());
      this.waiting = false;
      if (v === TRIGGER) this.triggered = false;
      else n++;
    }
    this.cleanUp();
  }

  /** The deferred clean-up of run: forget the result, leave the manager. */
  cleanUp(): void {
    if (this.containerID !== '') this.h.results.remove(this.kind, this.containerID);
  }

  /** manualTriggerCh <- struct{}{} (non-blocking, capacity 1). */
  trigger(): void {
    if (this.triggered) return;
    this.triggered = true;
    if (this.waiting && this.proc !== null) this.h.wake(this.proc, TRIGGER);
  }

  private set(result: ProbeResult): void {
    if (this.h.results.set(this.kind, this.uid, this.containerID, result)) this.h.onUpdate(this.kind, this.uid, this.container.name, this.containerID, result);
  }

  /** A timeline step's result for this container instance lands now: the worker has seen the
   *  instance (no initial value over it) and the result counts as a full run. */
  adopt(containerID: string, result: ProbeResult): void {
    if (this.containerID !== containerID) {
      if (this.containerID !== '') this.h.results.remove(this.kind, this.containerID);
      this.containerID = containerID;
      this.onHold = false;
    }
    this.lastResult = result;
    this.resultRun = result === 'Success' ? this.timing.success : this.timing.failure;
    if (this.kind !== 'readiness' && result === 'Failure') {
      this.onHold = true;
      this.resultRun = 0;
    }
  }

  /** The status doProbe last looked in (a frozen cache entry: the same until the next update),
   *  the container status it found there, and its start time's text and instant. */
  private seenStatus: PodStatus | undefined;
  private seenContainer: ContainerStatus | undefined;
  private seenStartedAt = '';
  private seenStartedAtMs = 0;

  /** The container's status in the pod's (regular, then, current, init) statuses. */
  private containerStatusIn(status: PodStatus): ContainerStatus | undefined {
    if (status === this.seenStatus && Object.isFrozen(status)) return this.seenContainer;
    let c = named(status.containerStatuses, this.container.name);
    if ((c === undefined || !c.containerID) && this.h.gen === 'current') c = named(status.initContainerStatuses, this.container.name);
    this.seenStatus = status;
    this.seenContainer = c;
    return c;
  }

  /** startedAt in virtual ms (0 when it does not parse). */
  private startedAtMs(startedAt: string): number {
    if (startedAt !== this.seenStartedAt) {
      this.seenStartedAt = startedAt;
      this.seenStartedAtMs = this.h.toVirtual(startedAt) ?? 0;
    }
    return this.seenStartedAtMs;
  }

  /** KEP-4781: a readiness or startup worker of an instance started before the probe manager. */
  private keepsPrevious(c: ContainerStatus): boolean {
    if (this.kind === 'liveness' || !this.h.results.keepsStatusOverRestart()) return false;
    const startedAt = this.h.toVirtual(c.state?.running?.startedAt ?? '');
    return startedAt !== undefined && startedAt < this.h.startMs;
  }

  /** doProbe: probe once and record the result; false: the worker stops. */
  doProbe(): boolean {
    const status = this.h.getPodStatus(this.uid);
    if (status === undefined) return true;
    if (status.phase === 'Failed' || status.phase === 'Succeeded') return false;
    const c = this.containerStatusIn(status);
    if (c === undefined || !c.containerID) return true;
    if (this.containerID !== c.containerID) {
      if (this.containerID !== '') this.h.results.remove(this.kind, this.containerID);
      this.containerID = c.containerID;
      // KEP-4781 (ChangeContainerStatusOnKubeletRestart off): no initial value for an instance that
      // ran before this kubelet's prober started: its previous Ready / Started stand until a probe
      if (!this.keepsPrevious(c)) this.set(this.initialValue);
      this.onHold = false;
    }
    if (this.onHold) return true;
    if (!c.state?.running) {
      this.set('Failure');
      return c.state?.terminated === undefined || (this.pod.spec?.restartPolicy ?? 'Always') !== 'Never';
    }
    if (this.h.gen !== 'classic' && this.pod.metadata?.deletionTimestamp && this.kind !== 'readiness') {
      this.set('Success');
      return false;
    }
    const startedAt = this.startedAtMs(c.state.running.startedAt ?? '');
    if (Math.floor((this.h.nowMs() - startedAt) / 1000) < this.timing.initialDelay) return true;
    if (c.started === true) {
      if (this.kind === 'startup') return true;
    } else if (this.kind !== 'startup') return true;
    // a prober error (an exec probe with containerd down): the result is thrown away
    const answer = this.exec && this.h.criDown?.() ? undefined : this.h.answer(this.containerID, this.kind);
    if (answer === undefined) return true;
    const result: ProbeResult = answer ? 'Success' : 'Failure';
    if (this.lastResult === result) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    if ((result === 'Failure' && this.resultRun < this.timing.failure) || (result === 'Success' && this.resultRun < this.timing.success)) return true;
    this.set(result);
    if (this.kind !== 'readiness' && result === 'Failure') {
      this.onHold = true;
      this.resultRun = 0;
    }
    return true;
  }
}

/** The first status of that container name (a loop: doProbe runs on every probe tick). */
function named(list: readonly ContainerStatus[] | undefined, name: string): ContainerStatus | undefined {
  if (list === undefined) return undefined;
  for (let i = 0; i < list.length; i++) if (list[i].name === name) return list[i];
  return undefined;
}

const KINDS: readonly ProbeKind[] = ['readiness', 'liveness', 'startup'];

/** The probe manager's workers (prober_manager.go AddPod / RemovePod / getWorker / CleanupPods). */
export class ProbeWorkers {
  private readonly workers = new Map<string, ProbeWorker>();
  /** Per pod UID, its workers' keys, each once, in the order they were first added. */
  private readonly byPod = new Map<UID, string[]>();
  /** Per pod UID, beside byPod's keys: the worker each key holds in `workers` now (null: none). */
  private readonly byPodWorkers = new Map<UID, Array<ProbeWorker | null>>();

  constructor(private readonly h: ProbeWorkerHost) {}

  private static key(uid: UID, name: string, kind: ProbeKind): string {
    return `${uid}/${name}/${kind}`;
  }

  get(uid: UID, name: string, kind: ProbeKind): ProbeWorker | undefined {
    const ws = this.byPodWorkers.get(uid);
    if (ws === undefined) return undefined;
    for (let i = 0; i < ws.length; i++) {
      const w = ws[i];
      if (w !== null && w.kind === kind && w.container.name === name) return w;
    }
    return undefined;
  }

  /** Keep byPodWorkers beside `workers`: the key now holds w (or nothing). */
  private hold(uid: UID, key: string, w: ProbeWorker | null): void {
    const keys = this.byPod.get(uid);
    const ws = this.byPodWorkers.get(uid);
    if (keys === undefined || ws === undefined) return;
    const i = keys.indexOf(key);
    if (i >= 0) ws[i] = w;
  }

  /** AddPod: a worker for every probe of the pod's containers (current: and its sidecars'). */
  addPod(pod: Pod): void {
    const uid = pod.metadata?.uid ?? '';
    const cs: Container[] = [];
    if (this.h.gen === 'current') for (const c of pod.spec?.initContainers ?? []) if (isRestartableInitContainer(c, 'current', this.h.gates)) cs.push(c);
    cs.push(...(pod.spec?.containers ?? []));
    for (const c of cs) {
      for (const kind of KINDS) {
        const spec = probeOf(c, kind);
        const key = ProbeWorkers.key(uid, c.name, kind);
        if (spec === undefined || this.workers.has(key)) continue;
        const w = new ProbeWorker(this.h, kind, pod, c, spec);
        this.workers.set(key, w);
        const keys = this.byPod.get(uid) ?? [];
        const ws = this.byPodWorkers.get(uid) ?? [];
        const i = keys.indexOf(key);
        if (i >= 0) ws[i] = w; // a worker that ended left its key: visited there, as before
        else {
          keys.push(key);
          ws.push(w);
        }
        this.byPod.set(uid, keys);
        this.byPodWorkers.set(uid, ws);
        w.proc = this.h.spawn(`probe/${uid}/${c.name}/${kind}`, this.runWorker(key, w));
      }
    }
  }

  private *runWorker(key: string, w: ProbeWorker): Proc<void> {
    yield* w.run();
    if (this.workers.get(key) === w) {
      this.workers.delete(key);
      this.hold(w.uid, key, null);
    }
  }

  /** RemovePod: stop the pod's workers (each forgets its result). */
  removePod(uid: UID): void {
    for (const key of this.byPod.get(uid) ?? []) {
      const w = this.workers.get(key);
      if (w === undefined) continue;
      this.workers.delete(key);
      if (w.proc !== null) this.h.kill(w.proc);
      w.cleanUp();
    }
    this.byPod.delete(uid);
    this.byPodWorkers.delete(uid);
  }

  /** UpdatePodStatus's manual trigger (current): a readiness worker whose started, running
   *  container is not ready probes again at once. */
  triggerUnready(uid: UID, status: PodStatus): void {
    if (!this.byPod.has(uid)) return;
    for (const list of [status.containerStatuses, status.initContainerStatuses]) {
      for (const cs of list ?? []) {
        if (cs.started !== true || cs.ready === true || !cs.state?.running) continue;
        this.get(uid, cs.name, 'readiness')?.trigger();
      }
    }
  }
}
