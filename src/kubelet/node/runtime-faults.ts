// The stopFails fault of the simulated runtime: a container runc cannot signal for a while — its
// kill is refused, as the AppArmor denial of runc 1.0/1.1 on Ubuntu hosts refused it ("unable to
// signal init: permission denied"). Its StopContainer fails at once and sends nothing, and its pod's
// StopPodSandbox, which stops the sandbox's containers first, fails too; the container runs on.
// The kubelet's kills ask here before they stop anything (kuberuntime-manager.ts killPod,
// kubelet-sync.ts killContainers).
import type { Engine } from '../../engine/index.js';
import type { UID } from '../../model/pod.js';
import type { Tracer } from '../../model/trace.js';
import type { RuntimeContainer } from './runtime-container.js';

export class StopFaults {
  /** "uid/container" → the instant its stops work again. */
  private readonly until = new Map<string, number>();

  constructor(private readonly engine: Engine, private readonly tracer: Tracer) {}

  /** From now for forMs the container of the pod cannot be signalled (a second fault while one is
   *  in force extends it). Traced as fault.begin / fault.end `stopFails`, actor runtime. */
  fail(uid: UID, name: string, podKey: string, forMs: number): void {
    const key = `${uid}/${name}`;
    const untilMs = this.engine.nowMs + forMs;
    if (!this.until.has(key)) this.tracer.emit({ type: 'fault.begin', actor: 'runtime', fault: 'stopFails', pod: podKey, container: name, downForMs: forMs });
    this.until.set(key, Math.max(untilMs, this.until.get(key) ?? 0));
    this.engine.at(untilMs, () => {
      if ((this.until.get(key) ?? 0) > this.engine.nowMs) return;
      this.until.delete(key);
      this.tracer.emit({ type: 'fault.end', actor: 'runtime', fault: 'stopFails', pod: podKey, container: name });
    });
  }

  /** The error a StopContainer of this running instance gets now, in containerd's words (with
   *  `forcibly`: StopPodSandbox's stop, a SIGKILL, which adds "failed to kill container"), or
   *  undefined when it can be signalled. */
  failure(c: RuntimeContainer, forcibly = false): string | undefined {
    if (this.until.size === 0 || !c.running || !this.until.has(`${c.podUID}/${c.name}`)) return undefined;
    const id = JSON.stringify(c.id.replace(/^containerd:\/\//, ''));
    return `rpc error: code = Unknown desc = failed to stop container ${id}: ${forcibly ? `failed to kill container ${id}: ` : ''}unknown error after kill: runc did not terminate successfully: exit status 1: unable to signal init: permission denied: unknown`;
  }
}
