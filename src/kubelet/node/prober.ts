// The prober glue (pkg/kubelet/prober prober_manager.go and results/results_manager.go): readiness,
// startup and liveness results per container instance, the probe workers of each pod
// (prober-worker.ts; AddPod / RemovePod), and UpdatePodStatus, which folds the results into a
// generated API status. A worker's probe answers what the container's attempt (`ready` / `started` /
// `live`) or a timeline step last said; the spec's probe timing decides when the kubelet sees it.
import type { Container, ContainerStatus, Pod, PodStatus, UID } from '../../model/pod.js';
import { getContainerByIndex, isRestartableInitContainer } from '../status/conditions.js';
import { gateEnabled, type StatusFeatureGates } from '../status/types.js';
import type { Generation } from './types.js';

export type ProbeKind = 'readiness' | 'startup' | 'liveness';

/** results.Result */
export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** A result from a boolean (a timeline step's value) or as is. */
function asResult(v: boolean | ProbeResult): ProbeResult {
  return v === true ? 'Success' : v === false ? 'Failure' : v;
}

/** Does the spec give this container a probe of that kind (upstream: a probe worker exists)? */
export function hasProbe(c: Container | undefined, kind: ProbeKind): boolean {
  if (c === undefined) return false;
  const p = kind === 'readiness' ? c.readinessProbe : kind === 'startup' ? c.startupProbe : c.livenessProbe;
  return p !== undefined && p !== null;
}

function specContainer(pod: Pod, name: string): Container | undefined {
  return pod.spec?.containers?.find((c) => c.name === name) ?? pod.spec?.initContainers?.find((c) => c.name === name);
}

/** The results managers: container ID → last result (true = Success, false = Failure). */
export class ProbeManager {
  private readonly readiness = new Map<string, ProbeResult>();
  private readonly startup = new Map<string, ProbeResult>();
  private readonly liveness = new Map<string, ProbeResult>();
  /** containerID → pod UID, to drop a pod's results at once. */
  private readonly owner = new Map<string, UID>();
  /** Per pod UID, a counter bumped by every change of its results (see podVersion). */
  private readonly versions = new Map<UID, number>();

  constructor(private readonly gen: Generation, private readonly gates?: StatusFeatureGates) {}

  private results(kind: ProbeKind): Map<string, ProbeResult> {
    return kind === 'readiness' ? this.readiness : kind === 'startup' ? this.startup : this.liveness;
  }

  /** results.Manager.Set. Returns whether the cached result changed (upstream sends an update then). */
  set(kind: ProbeKind, podUID: UID, containerID: string, value: boolean | ProbeResult): boolean {
    const success = asResult(value);
    const m = this.results(kind);
    const prev = m.get(containerID);
    const owner = this.owner.get(containerID);
    if (prev === success && owner === podUID) return false; // (a probe tick that changes nothing)
    m.set(containerID, success);
    this.owner.set(containerID, podUID);
    if (prev !== success || owner !== podUID) {
      this.bump(podUID);
      if (owner !== undefined && owner !== podUID) this.bump(owner);
    }
    return prev !== success;
  }

  /** A counter that moves whenever a result of the pod's containers changes (what updatePodStatus
   *  reads of the pod; generated statuses are reused while it stands still). */
  podVersion(podUID: UID): number {
    return this.versions.get(podUID) ?? 0;
  }

  private bump(podUID: UID): void {
    this.versions.set(podUID, (this.versions.get(podUID) ?? 0) + 1);
  }

  /** results.Manager.Get, as "is it Success" (undefined: no result). */
  get(kind: ProbeKind, containerID: string): boolean | undefined {
    const r = this.results(kind).get(containerID);
    return r === undefined ? undefined : r === 'Success';
  }

  /** results.Manager.Get */
  getResult(kind: ProbeKind, containerID: string): ProbeResult | undefined {
    return this.results(kind).get(containerID);
  }

  /** results.Manager.Remove */
  remove(kind: ProbeKind, containerID: string): void {
    const m = this.results(kind);
    if (!m.delete(containerID)) return;
    const uid = this.owner.get(containerID);
    if (uid !== undefined) this.bump(uid);
  }

  /** RemovePod / CleanupPods: forget a pod's results. */
  removePod(podUID: UID): void {
    for (const [id, uid] of [...this.owner]) {
      if (uid !== podUID) continue;
      this.owner.delete(id);
      this.readiness.delete(id);
      this.startup.delete(id);
      this.liveness.delete(id);
      this.bump(podUID);
    }
  }

  /** isContainerStarted */
  private isStarted(pod: Pod, cs: ContainerStatus, old: ContainerStatus | undefined): boolean {
    if (!cs.state?.running) return false;
    const r = cs.containerID ? this.startup.get(cs.containerID) : undefined;
    if (r !== undefined && r !== 'Unknown') return r === 'Success';
    if (!hasProbe(specContainer(pod, cs.name), 'startup')) return true;
    // KEP-4781: the instance's previous Started until its probe reports; else a startup probe that
    // has not reported yet holds the container unstarted
    return this.keepsStatusOverRestart() && old?.containerID === cs.containerID ? old?.started === true : false;
  }

  /** The readiness of a started container. */
  private isReady(pod: Pod, cs: ContainerStatus, old: ContainerStatus | undefined): boolean {
    if (!cs.state?.running) return false;
    const r = cs.containerID ? this.readiness.get(cs.containerID) : undefined;
    if (this.gen === 'classic') {
      if (r !== undefined) return r === 'Success';
    } else if (r === 'Success') return true;
    // no readiness probe: ready once started
    if (!hasProbe(specContainer(pod, cs.name), 'readiness')) return true;
    // KEP-4781: no result yet for an instance the previous status had: its previous Ready
    return r === undefined && this.keepsStatusOverRestart() && old?.containerID === cs.containerID ? old?.ready === true : false;
  }

  /** ChangeContainerStatusOnKubeletRestart off (KEP-4781; current generation only): a restarted
   *  kubelet keeps a running container's Started and Ready until its probes report. */
  keepsStatusOverRestart(): boolean {
    return this.gen === 'current' && !gateEnabled(this.gen, this.gates, 'ChangeContainerStatusOnKubeletRestart');
  }

  /** UpdatePodStatus: set `started` and `ready` on every container status of `status` (mutated; it
   *  is a freshly generated status). Classic: init containers are ready iff they exited 0. Current:
   *  sidecars are probed like regular containers; other init containers become ready when they
   *  exited 0. */
  updatePodStatus(pod: Pod, status: PodStatus, oldStatus?: PodStatus): void {
    // KEP-4781: the previous statuses matter only while the kubelet keeps them over a restart
    const previous = oldStatus !== undefined && this.keepsStatusOverRestart() ? oldStatus.containerStatuses : undefined;
    for (const cs of status.containerStatuses ?? []) {
      const old = previous?.find((c) => c.name === cs.name);
      const started = this.isStarted(pod, cs, old);
      cs.started = started;
      if (started) cs.ready = this.isReady(pod, cs, old);
    }
    const inits = status.initContainerStatuses ?? [];
    if (this.gen !== 'current') {
      for (const cs of inits) cs.ready = cs.state?.terminated !== undefined && cs.state.terminated.exitCode === 0;
      return;
    }
    for (let i = 0; i < inits.length; i++) {
      const cs = inits[i];
      const started = this.isStarted(pod, cs, undefined);
      cs.started = started;
      const c = getContainerByIndex(pod.spec?.initContainers, inits, i);
      if (c === undefined) continue;
      if (!isRestartableInitContainer(c, this.gen, this.gates)) {
        if (cs.state?.terminated && cs.state.terminated.exitCode === 0) cs.ready = true;
        continue;
      }
      if (!started) continue;
      cs.ready = this.isReady(pod, cs, undefined);
    }
  }
}
