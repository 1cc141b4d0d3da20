// kuberuntime's view of one container instance in the simulated runtime (its state, its exit,
// its CRI status): the instances that Runtime (runtime.ts) creates, stops and lists.
import { Deferred, type Timer } from '../../engine/index.js';
import type { Container, Pod, UID } from '../../model/pod.js';
import type { Attempt } from '../../scenario/types.js';
import type { ContainerRuntimeState, RuntimeContainerStatus } from './types.js';
import { imageRefOf, normalizeImageRef } from './image-ref.js';

/** One container instance in the runtime. */
export class RuntimeContainer {
  state: ContainerRuntimeState = 'running';
  finishedAtMs: number | undefined;
  exitCode: number | undefined;
  reason: string | undefined;
  message: string | undefined;
  /** Resolved when the instance exits (the kubelet's StopContainer waits on it). */
  readonly exited = new Deferred<void>();
  /** Callbacks run when the instance exits. */
  private readonly exitListeners: Array<() => void> = [];
  /** SIGTERM already sent (and when). */
  sigtermAtMs: number | undefined;
  /** Pending timers: the natural exit, the SIGTERM exit, the SIGKILL. */
  runTimer: Timer | null = null;
  termTimer: Timer | null = null;
  killTimer: Timer | null = null;
  killAtMs: number | undefined;
  /** Who is waiting in StopContainer (the SIGKILL is that call's; it goes if the caller dies). */
  killOwner: string | undefined;
  /** status() of the exited instance: nothing of it changes once it exited. */
  private exitedStatus: RuntimeContainerStatus | null = null;
  /** What its probes answer (the attempt's, then the timeline's; outlives the kubelet). */
  readonly probeAnswers: { readiness?: boolean; startup?: boolean; liveness?: boolean } = {};
  /** The image's repo digest (ImageRef). */
  readonly imageRef: string;

  constructor(
    readonly id: string,
    readonly podUID: UID,
    readonly podKey: string,
    readonly name: string,
    readonly image: string,
    readonly restartCount: number,
    readonly attempt: Attempt,
    readonly createdAtMs: number,
    public startedAtMs: number,
  ) {
    this.imageRef = imageRefOf(image);
    if (attempt.ready !== undefined) this.probeAnswers.readiness = attempt.ready;
    if (attempt.started !== undefined) this.probeAnswers.startup = attempt.started;
    if (attempt.live !== undefined) this.probeAnswers.liveness = attempt.live;
  }

  get running(): boolean {
    return this.state === 'running';
  }

  onExit(cb: () => void): void {
    if (this.state === 'exited') cb();
    else this.exitListeners.push(cb);
  }

  /** @internal */
  fireExit(): void {
    const ls = this.exitListeners.splice(0);
    for (const l of ls) l();
  }

  /** The instance as the runtime reports it (kept once it exited: every relist of the pod lists it). */
  status(): RuntimeContainerStatus {
    if (this.exitedStatus !== null) return this.exitedStatus;
    const s: {
      -readonly [K in keyof RuntimeContainerStatus]: RuntimeContainerStatus[K];
    } = {
      id: this.id,
      name: this.name,
      state: this.state,
      createdAtMs: this.createdAtMs,
      startedAtMs: this.startedAtMs,
      restartCount: this.restartCount,
      image: this.image,
      imageRef: this.imageRef,
    };
    if (this.finishedAtMs !== undefined) s.finishedAtMs = this.finishedAtMs;
    if (this.exitCode !== undefined) s.exitCode = this.exitCode;
    if (this.reason !== undefined) s.reason = this.reason;
    if (this.message !== undefined) s.message = this.message;
    if (this.state === 'exited') this.exitedStatus = Object.freeze(s);
    return s;
  }
}
