// pkg/kubelet/kuberuntime/kuberuntime_manager.go: kubeGenericRuntimeManager's SyncPod after
// computePodActions (pod-actions.ts) — the starts, each subject to the restart back-off (doBackOff) —
// and KillPod, with startContainer and the termination ordering of kuberuntime_container.go and
// kuberuntime_termination_order.go, and SyncResult.Error() of pkg/kubelet/container/sync_result.go.
import { Deferred, type Proc } from '../../engine/index.js';
import { podKey, type Container, type Pod } from '../../model/pod.js';
import { emitsNothing } from '../../model/trace.js';
import { isRestartableInitContainer } from '../status/conditions.js';
import { CRASH_LOOP_BACK_OFF, crashLoopBackOffMessage, getStableKey } from './backoff.js';
import { graceAfterPreStop, killContainerTimeoutSeconds, podTerminationGracePeriod, preStopBudgetSeconds } from './grace.js';
import type { KubeletState } from './kubelet-state.js';
import type { PodActions } from './pod-actions.js';
import type { RuntimeContainer } from './runtime.js';
import { CRI_UNAVAILABLE, nextAttempt, startContainerChecked, timedPull } from './kuberuntime-container.js';
import type { Attempt } from '../../scenario/types.js';
import { aggregateError } from './runtime-state.js';
import { ErrPostStartHook, hookMs, postStartFailure } from './lifecycle-handlers.js';
import type { RuntimePodStatus } from './types.js';

/** A container start's result (kubecontainer.SyncResult of StartContainer): a failure has the
 *  error (reason) and message, and may carry its rendered error text. */
export type StartResult = { readonly name: string; readonly error?: string; readonly message?: string; readonly text?: string };

/** No start results (shared). */
export const NO_RESULTS: readonly StartResult[] = Object.freeze([]);

/** results and r (most syncs start one container, or none). */
export function withResult(results: readonly StartResult[], r: StartResult): readonly StartResult[] {
  return results.length === 0 ? [r] : [...results, r];
}

/** SyncResult.Error() of a failed start, as the sync's error lists it: `failed to %q for %q with
 *  %v: %q` (Go's %q of the target and the message: JSON.stringify's quoting, for these texts). */
export function startFailureText(name: string, error: string, message: string | undefined): string {
  return `failed to "StartContainer" for ${JSON.stringify(name)} with ${error}: ${JSON.stringify(message ?? '')}`;
}

/** The CrashLoopBackOff start result of a frozen container spec, with what its message is made of
 *  (the pod's name, namespace and UID; the back-off): a pod in back-off is synced every 10 s, and
 *  each sync would otherwise render the same message and error text again. */
const backOffResults = new WeakMap<Container, Map<string, { name: string; namespace: string; backoffMs: number; result: StartResult }>>();

/** The start result of a container in back-off: CrashLoopBackOff with doBackOff's message. */
function crashLoopBackOffResult(backoffMs: number, container: Container, pod: Pod): StartResult {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  const uid = pod.metadata?.uid ?? '';
  // (per UID: the pods of one x-kss.replicas entry share their frozen container specs)
  let byUID = Object.isFrozen(container) ? backOffResults.get(container) : undefined;
  const kept = byUID?.get(uid);
  if (kept !== undefined && kept.backoffMs === backoffMs && kept.name === name && kept.namespace === namespace) return kept.result;
  const message = crashLoopBackOffMessage(backoffMs, container.name, pod);
  const result: StartResult = Object.freeze({ name: container.name, error: CRASH_LOOP_BACK_OFF, message, text: startFailureText(container.name, CRASH_LOOP_BACK_OFF, message) });
  if (Object.isFrozen(container)) {
    if (byUID === undefined) backOffResults.set(container, (byUID = new Map()));
    byUID.set(uid, { name, namespace, backoffMs, result });
  }
  return result;
}

/** kubeGenericRuntimeManager.SyncPod after computePodActions and the pod kill (the caller's): create
 *  the sandbox, start the next init container(s), start the containers — each start subject to the
 *  restart back-off, and each container with a postStart hook waited for (startContainer's step 4:
 *  the next start comes after it). A generator that yields only for a hook: the caller drives it. */
export function* runtimeSyncPod(kl: KubeletState, pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): Proc<readonly StartResult[]> {
  let results = NO_RESULTS;
  if (changes.killPod && !changes.createSandbox) return results;
  if (changes.createSandbox) {
    kl.runtime.runPodSandbox(pod);
    if (kl.config.events?.podInfraContainer) kl.recorder?.containerStarted(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '', 'POD');
  }
  // Step 5: start ephemeral containers (before the init containers)
  const eph = pod.spec?.ephemeralContainers ?? [];
  for (let i = 0; i < changes.ephemeralContainersToStart.length; i++) results = withResult(results, yield* startOne(kl, pod, eph[changes.ephemeralContainersToStart[i]] as Container, podStatus));
  const inits = pod.spec?.initContainers ?? [];
  if (changes.nextInitContainerToStart !== undefined) {
    const r = yield* startOne(kl, pod, changes.nextInitContainerToStart, podStatus);
    results = withResult(results, r);
    if (r.error !== undefined) return results;
  }
  for (let i = 0; i < changes.initContainersToStart.length; i++) {
    const c = inits[changes.initContainersToStart[i]];
    const r = yield* startOne(kl, pod, c, podStatus);
    results = withResult(results, r);
    if (r.error !== undefined && !isRestartableInitContainer(c, kl.gen, kl.gates)) return results;
  }
  const containers = pod.spec?.containers ?? [];
  for (let i = 0; i < changes.containersToStart.length; i++) results = withResult(results, yield* startOne(kl, pod, containers[changes.containersToStart[i]], podStatus));
  return results;
}

/** startContainer's step 4: run the postStart hook of the instance just started and wait for it; a
 *  hook that fails kills the container (killContainer, reason FailedPostStartHook: the pod's grace,
 *  its preStop hook first) and the start fails with ErrPostStartHook and the hook's message. (The
 *  FailedPostStartHook Warning event is not recorded: the recorder models the start's events only.) */
function* postStartHook(kl: KubeletState, pod: Pod, c: Container): Proc<StartResult> {
  const inst = kl.runtime.latestContainer(pod.metadata?.uid ?? '', c.name)!;
  const hook = c.lifecycle!.postStart!;
  const ms = hookMs(kl.gen, hook, inst.attempt.postStartMs);
  if (ms > 0) yield ms;
  const msg = postStartFailure(kl.gen, pod, c, hook, inst.attempt, kl.runtime.getPodStatus(inst.podUID).sandbox?.ip ?? '');
  if (msg === undefined) return { name: c.name };
  kl.log('error', 'Failed to execute PostStartHook', inst.podKey, { container: c.name, containerID: inst.id });
  if (inst.running) yield* killContainer(kl, pod, inst, undefined).wait();
  return { name: c.name, error: ErrPostStartHook, message: msg };
}

/** One start of SyncPod: skipped with CrashLoopBackOff while the container is in back-off, else
 *  the image pulled when the attempt's pull takes time (behind the node's other pulls), the
 *  container started, and its postStart hook run. Returns the start's result (an error: not
 *  started, or killed by its hook). */
function* startOne(kl: KubeletState, pod: Pod, c: Container, podStatus: RuntimePodStatus): Proc<StartResult> {
  const backoff = doBackOff(kl, pod, c, podStatus);
  if (backoff !== undefined) {
    if (emitsNothing(kl.tracer)) kl.tracer.skip!('runtime.backoff'); // (nothing reads it: counted, not built)
    else kl.trace({ type: 'runtime.backoff', actor: 'kubelet', pod: podKey(pod), uid: pod.metadata?.uid, container: c.name, message: backoff.message });
    return backoff;
  }
  const attempt = nextAttempt(kl, pod, c);
  const pull = timedPull(kl, pod, c, attempt);
  if (pull !== undefined) yield* kl.imagePuller.pull(podKey(pod), pull.ref, pull.ms);
  const r = startChecked(kl, pod, c, attempt);
  return r.error === undefined && c.lifecycle?.postStart ? yield* postStartHook(kl, pod, c) : r;
}

/** startContainer through its creation and start (no hook): the result. */
function startChecked(kl: KubeletState, pod: Pod, c: Container, attempt: Attempt): StartResult {
  const failed = startContainerChecked(kl, pod, c, attempt);
  if (failed === undefined) return { name: c.name };
  kl.trace({ type: 'runtime.startFailed', actor: 'kubelet', pod: podKey(pod), uid: pod.metadata?.uid, container: c.name, reason: failed.error, message: failed.message });
  return { name: c.name, error: failed.error, message: failed.message };
}

/** doBackOff: a container whose latest instance exited is in back-off while less than its back-off
 *  has passed since that instance finished; otherwise the back-off moves on. Returns the
 *  CrashLoopBackOff start result when in back-off. */
export function doBackOff(kl: KubeletState, pod: Pod, container: Container, podStatus: RuntimePodStatus): StartResult | undefined {
  let cStatus: RuntimePodStatus['containers'][number] | undefined;
  for (const c of podStatus.containers) {
    if (c.name === container.name && c.state === 'exited') {
      cStatus = c;
      break;
    }
  }
  if (cStatus === undefined) return undefined;
  const ts = cStatus.finishedAtMs ?? kl.engine.nowMs;
  const key = getStableKey(pod, container);
  if (kl.backoff.isInBackOffSince(key, ts)) return crashLoopBackOffResult(kl.backoff.get(key), container, pod);
  kl.backoff.next(key, ts);
  return undefined;
}


/** killPod: stop every running container of the pod, then its sandbox. Regular (and plain init)
 *  containers get SIGTERM at once; sidecars (current, gate on) wait their turn as upstream's
 *  newTerminationOrdering says — for the regular containers and the next restartable init
 *  container in spec order (one that is not running counts as terminated) — each in a goroutine
 *  of its own, for at most the grace period, and lose the time waited. */
export function* killPod(kl: KubeletState, pod: Pod, gracePeriodOverride: number | undefined): Proc<string | undefined> {
  const uid = pod.metadata?.uid ?? '';
  const running = kl.runtime.runningContainers(uid);
  const failed = stopFailures(kl, running);
  const inits = pod.spec?.initContainers ?? [];
  const sidecarIndex = new Map<string, number>();
  inits.forEach((c, i) => {
    if (isRestartableInitContainer(c, kl.gen, kl.gates)) sidecarIndex.set(c.name, i);
  });
  const regular = running.filter((c) => !sidecarIndex.has(c.name));
  const sidecars = running.filter((c) => sidecarIndex.has(c.name)).sort((a, b) => sidecarIndex.get(b.name)! - sidecarIndex.get(a.name)!);
  const t0 = kl.engine.nowMs;
  const waits: Deferred<void>[] = [];
  for (const c of regular) if (!failed?.has(c)) waits.push(killContainer(kl, pod, c, gracePeriodOverride));
  if (sidecars.length > 0) {
    const turnGrace = gracePeriodOverride ?? podTerminationGracePeriod(pod);
    const deadline = t0 + turnGrace * 1000;
    for (const s of sidecars) {
      if (failed?.has(s)) continue;
      // the next restartable init container after this one in spec order, if it runs
      let next: RuntimeContainer | undefined;
      for (let i = sidecarIndex.get(s.name)! + 1; i < inits.length; i++) {
        if (!sidecarIndex.has(inits[i].name)) continue;
        next = sidecars.find((c) => c.name === inits[i].name);
        break;
      }
      const prereqs = next === undefined ? regular : [...regular, next];
      if (kl.engine.nowMs >= deadline || prereqs.every((c) => !c.running)) {
        // its turn has come already: stopped from here, with no goroutine to wait in
        waits.push(kl.runtime.stopContainer(s.id, killContainerTimeoutSeconds(kl.gen, pod, gracePeriodOverride, (kl.engine.nowMs - t0) / 1000), kl.group));
        continue;
      }
      const stopped = new Deferred<void>();
      waits.push(stopped);
      kl.spawn(`kill-sidecar/${uid}/${s.name}`, (function* (): Proc<void> {
        yield* waitExitsOrUntil(kl, prereqs, deadline); // terminationOrdering.waitForTurn
        const waited = (kl.engine.nowMs - t0) / 1000;
        yield* kl.runtime.stopContainer(s.id, killContainerTimeoutSeconds(kl.gen, pod, gracePeriodOverride, waited), kl.group).wait();
        stopped.resolve(kl.engine, undefined);
      })());
    }
  }
  for (const w of waits) yield* w.wait();
  if (failed === undefined) {
    kl.runtime.stopPodSandbox(uid);
    return undefined;
  }
  return killPodSyncError(kl, uid, failed);
}

/** The running containers whose StopContainer fails now (the stopFails fault), with the CRI error
 *  each gets; undefined when none does (the usual case: nothing allocated). */
function stopFailures(kl: KubeletState, running: readonly RuntimeContainer[]): Map<RuntimeContainer, string> | undefined {
  let out: Map<RuntimeContainer, string> | undefined;
  for (const c of running) {
    const err = kl.runtime.stopFaults.failure(c);
    if (err !== undefined) (out ??= new Map()).set(c, err);
  }
  return out;
}

/** killPodWithSyncResult's PodSyncResult.Error() after failed StopContainer calls: a KillContainer
 *  result per failed container, then the KillPodSandbox one — containerd's StopPodSandbox first
 *  stops the sandbox's containers forcibly, and fails on one that still cannot be signalled (the
 *  sandbox is not stopped then). */
function killPodSyncError(kl: KubeletState, uid: string, failed: ReadonlyMap<RuntimeContainer, string>): string {
  const errs = [...failed].map(([c, err]) => `failed to "KillContainer" for "${c.name}" with KillContainerError: ${JSON.stringify(err)}`);
  const stuck = kl.runtime.runningContainers(uid).find((c) => kl.runtime.stopFaults.failure(c) !== undefined);
  if (stuck === undefined) kl.runtime.stopPodSandbox(uid);
  else errs.push(`failed to "KillPodSandbox" for "${uid}" with KillPodSandboxError: ${JSON.stringify(kl.runtime.stopFaults.failure(stuck, true))}`);
  return aggregateError(errs);
}

/** With containerd down (restartRuntime) a kill stops nothing: every StopContainer fails (and, for
 *  a pod kill — no `containers` given: its running ones — the sandbox's StopPodSandbox), and the
 *  PodSyncResult's error aggregates them: "failed to \"KillContainer\" for \"main\" with
 *  KillContainerError: …". Undefined when the runtime is up. */
export function criKillFailure(kl: KubeletState, pod: Pod, containers?: readonly string[]): string | undefined {
  if (!kl.runtime.criDown) return undefined;
  const names = containers ?? kl.runtime.runningContainers(pod.metadata?.uid ?? '').map((c) => c.name);
  const errs = names.map((name) => `failed to "KillContainer" for "${name}" with KillContainerError: "${CRI_UNAVAILABLE}"`);
  if (containers === undefined) errs.push(`failed to "KillPodSandbox" for "${pod.metadata?.uid ?? ''}" with KillPodSandboxError: "${CRI_UNAVAILABLE}"`);
  return errs.length === 0 ? undefined : aggregateError(errs);
}

/** The spec of a running instance's container (regular or init). */
function specOf(pod: Pod, name: string): Container | undefined {
  return pod.spec?.containers?.find((c) => c.name === name) ?? pod.spec?.initContainers?.find((c) => c.name === name);
}

/** How long the container's preStop hook runs: a `sleep` action (KEP-3960, PodLifecycleSleepAction:
 *  beta and on in v1.30, so in the current generation; handlerRunner.runSleepHandler) its seconds;
 *  any other action (exec, httpGet) the attempt's `preStop` time. */
function preStopHookMs(kl: KubeletState, pod: Pod, c: RuntimeContainer): number {
  const hook = specOf(pod, c.name)?.lifecycle?.preStop;
  return hook ? hookMs(kl.gen, hook, c.attempt.preStopMs) : 0;
}

/** killContainer (kuberuntime_container.go): run the preStop hook if the spec has one and there is
 *  grace for it (it takes its time, preStopHookMs, cut off at the grace; the container runs on
 *  meanwhile), then StopContainer with what is left (graceAfterPreStop). Without a hook (or one
 *  that takes no time) the stop is sent at once. baseSeconds: the grace to start from (a probe's). */
export function killContainer(kl: KubeletState, pod: Pod, c: RuntimeContainer, override: number | undefined, baseSeconds?: number): Deferred<void> {
  const hookMs = preStopHookMs(kl, pod, c);
  const budget = preStopBudgetSeconds(kl.gen, pod, override, baseSeconds);
  if (hookMs <= 0 || budget <= 0) return kl.runtime.stopContainer(c.id, graceAfterPreStop(kl.gen, pod, override, 0, baseSeconds), kl.group);
  const done = new Deferred<void>();
  kl.spawn(`prestop/${c.podUID}/${c.name}`, (function* (): Proc<void> {
    const t0 = kl.engine.nowMs;
    kl.log('V3', `Running preStop hook`, c.podKey, { container: c.name });
    yield Math.min(hookMs, budget * 1000); // executePreStopHook: done, or abandoned at the grace
    const took = Math.floor((kl.engine.nowMs - t0) / 1000);
    yield* kl.runtime.stopContainer(c.id, graceAfterPreStop(kl.gen, pod, override, took, baseSeconds), kl.group).wait();
    done.resolve(kl.engine, undefined);
  })());
  return done;
}

/** Wait until every container has exited, or until deadlineMs. */
export function* waitExitsOrUntil(kl: KubeletState, cs: readonly RuntimeContainer[], deadlineMs: number): Proc<void> {
  const pending = cs.filter((c) => c.running);
  if (pending.length === 0 || kl.engine.nowMs >= deadlineMs) return;
  const d = new Deferred<void>();
  let left = pending.length;
  for (const c of pending)
    c.onExit(() => {
      if (--left === 0) d.resolve(kl.engine, undefined);
    });
  const t = kl.engine.at(deadlineMs, () => d.resolve(kl.engine, undefined));
  kl.timers.push(t);
  yield* d.wait();
  t.cancel();
}

/** The sync's error: the failed starts' syncResult errors, joined by "; " (none: undefined). */
export function syncError(kl: KubeletState, results: readonly StartResult[]): string | undefined {
  let err: string | undefined;
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    if (r.error === undefined) continue;
    const text = r.text ?? startFailureText(r.name, r.error, r.message);
    err = err === undefined ? text : `${err}; ${text}`;
  }
  return err;
}
