// normalizeStatus and the comparison built on it (status_manager.go).
import { deepFreeze } from '../../model/freeze.js';
import { truncateToSeconds } from '../../model/time.js';
import type { ContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from '../../model/pod.js';
import { podConditionByKubelet, podConditionSharedByKubelet, getPodCondition } from './conditions.js';
import { truncateBytes } from './go-string.js';
import { semanticDeepEqual } from './semantic.js';
import { MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH, type Generation, type StatusFeatureGates } from './types.js';

export { truncateBytes } from './go-string.js';

/** kubetypes.SortInitContainerStatuses: bring statuses into spec order with the upstream swap
 *  algorithm (statuses without a spec container keep whatever position the swaps leave them in). */
export function sortInitContainerStatuses(pod: Pod, statuses: readonly ContainerStatus[]): ContainerStatus[] {
  const out = [...statuses]; // (not slice(): V8's slice is slow on frozen arrays)
  let current = 0;
  for (const c of pod.spec?.initContainers ?? []) {
    for (let j = current; j < out.length; j++) {
      if (out[j].name === c.name) {
        const t = out[current];
        out[current] = out[j];
        out[j] = t;
        current++;
        break;
      }
    }
  }
  return out;
}

function byName(a: ContainerStatus, b: ContainerStatus): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function isSortedByName(list: readonly ContainerStatus[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1].name > list[i].name) return false;
  return true;
}

function sameOrder(a: readonly ContainerStatus[], b: readonly ContainerStatus[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The normalizing helpers are copy-on-write: each returns its input when nothing changes, else a
// shallow copy (keys in their order) with the changed fields replaced. Unchanged parts are shared.

type Obj = { [k: string]: unknown };

/** `o` with o[key] at whole seconds (if it is a time string that is not). */
function normalizeTime<T>(o: T, key: string): T {
  const t = (o as Obj)[key];
  if (typeof t === 'string') {
    const n = truncateToSeconds(t);
    if (n !== t) return { ...o, [key]: n };
  }
  return o;
}

function normalizeContainerState(c: ContainerState | undefined, bytesPerStatus: number): ContainerState | undefined {
  if (!c) return c;
  let out = c;
  if (c.running) {
    const r = normalizeTime(c.running, 'startedAt');
    if (r !== c.running) out = { ...out, running: r };
  }
  if (c.terminated) {
    let t = normalizeTime(normalizeTime(c.terminated, 'startedAt'), 'finishedAt');
    if (t.message !== undefined) {
      const m = truncateBytes(t.message, bytesPerStatus);
      if (m !== t.message) t = { ...t, message: m };
    }
    if (t !== c.terminated) out = { ...out, terminated: t };
  }
  return out;
}

function normalizeContainerStatuses(list: readonly ContainerStatus[] | undefined, bytesPerStatus: number): readonly ContainerStatus[] | undefined {
  if (!list) return list;
  let out: ContainerStatus[] | null = null;
  for (let i = 0; i < list.length; i++) {
    const cs = list[i];
    const state = normalizeContainerState(cs.state, bytesPerStatus);
    const lastState = normalizeContainerState(cs.lastState, bytesPerStatus);
    if (state === cs.state && lastState === cs.lastState) continue;
    const n = { ...cs };
    if (state !== cs.state) n.state = state;
    if (lastState !== cs.lastState) n.lastState = lastState;
    (out ??= [...list])[i] = n;
  }
  return out ?? list;
}

/** normalizeStatus: whole-second timestamps (only startTime, condition probe/transition times and
 *  container state times), termination messages cut to the per-container byte budget, container
 *  statuses sorted by name, init container statuses in spec order (current: ephemeral ones too,
 *  sorted by name, and they count in the budget). Returns a new status (the input is not touched;
 *  unchanged parts are shared). */
export function normalizeStatus(pod: Pod, status: PodStatus, gen: Generation): PodStatus {
  // Hot path: most statuses are already normal; checking is much cheaper than an immer draft.
  if (isNormal(pod, status, gen)) return status;
  const bytesPerStatus = terminationMessageBudget(pod, gen);
  const s: PodStatus = { ...status };
  let changed = false;
  const set = <K extends keyof PodStatus>(key: K, v: PodStatus[K]): void => {
    if (v === s[key]) return;
    s[key] = v;
    changed = true;
  };
  set('startTime', normalizeTime(status, 'startTime').startTime);
  if (status.conditions) {
    let conditions: PodCondition[] | null = null;
    const list = status.conditions;
    let i = 0;
    for (const c of list) {
      const n = normalizeTime(normalizeTime(c, 'lastProbeTime'), 'lastTransitionTime');
      if (n !== c) (conditions ??= [...list])[i] = n;
      i++;
    }
    if (conditions !== null) set('conditions', conditions);
  }
  let cs = normalizeContainerStatuses(status.containerStatuses, bytesPerStatus);
  if (cs && !isSortedByName(cs)) {
    // Go's sort.Sort is not stable; names are unique in a valid status, so any order of equal names is moot.
    cs = [...cs].sort(byName);
  }
  set('containerStatuses', cs as ContainerStatus[] | undefined);
  let init = normalizeContainerStatuses(status.initContainerStatuses, bytesPerStatus);
  if (init && init.length > 1) {
    const sorted = sortInitContainerStatuses(pod, init);
    if (!sameOrder(sorted, init)) init = sorted;
  }
  set('initContainerStatuses', init as ContainerStatus[] | undefined);
  if (gen === 'current') {
    let eph = normalizeContainerStatuses(status.ephemeralContainerStatuses, bytesPerStatus);
    if (eph && !isSortedByName(eph)) eph = [...eph].sort(byName);
    set('ephemeralContainerStatuses', eph as ContainerStatus[] | undefined);
  }
  // (frozen all the way down, as an immer result would be)
  return deepFreeze(changed ? s : status);
}

/** The per-container byte budget of termination messages: MaxPodTerminationMessageLogLength shared
 *  by the spec's containers (current: ephemeral ones count too). */
function terminationMessageBudget(pod: Pod, gen: Generation): number {
  const spec = pod.spec;
  const containers =
    (spec?.containers?.length ?? 0) +
    (spec?.initContainers?.length ?? 0) +
    (gen === 'current' ? (spec?.ephemeralContainers?.length ?? 0) : 0);
  return containers > 0 ? Math.floor(MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH / containers) : MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH;
}

function timeIsNormal(t: unknown): boolean {
  return typeof t !== 'string' || truncateToSeconds(t) === t;
}

/** (The budget is worked out only for a state that carries a message.) */
function stateIsNormal(c: ContainerState | undefined, pod: Pod, gen: Generation): boolean {
  if (!c) return true;
  if (c.running && !timeIsNormal(c.running.startedAt)) return false;
  const t = c.terminated;
  if (t) {
    if (!timeIsNormal(t.startedAt) || !timeIsNormal(t.finishedAt)) return false;
    if (t.message !== undefined && truncateBytes(t.message, terminationMessageBudget(pod, gen)) !== t.message) return false;
  }
  return true;
}

function statusesAreNormal(list: readonly ContainerStatus[] | undefined, pod: Pod, gen: Generation): boolean {
  if (!list) return true;
  for (let i = 0; i < list.length; i++) {
    const cs = list[i];
    if (!stateIsNormal(cs.state, pod, gen) || !stateIsNormal(cs.lastState, pod, gen)) return false;
  }
  return true;
}

/** Would normalizeStatus change anything? (The same rules, read-only.) */
function isNormal(pod: Pod, s: PodStatus, gen: Generation): boolean {
  if (!timeIsNormal(s.startTime)) return false;
  const conditions = s.conditions;
  if (conditions) {
    for (let i = 0; i < conditions.length; i++) if (!timeIsNormal(conditions[i].lastProbeTime) || !timeIsNormal(conditions[i].lastTransitionTime)) return false;
  }
  if (s.containerStatuses && (!statusesAreNormal(s.containerStatuses, pod, gen) || !isSortedByName(s.containerStatuses))) return false;
  const init = s.initContainerStatuses;
  if (init && (!statusesAreNormal(init, pod, gen) || (init.length > 1 && !sameOrder(sortInitContainerStatuses(pod, init), init)))) return false;
  if (gen === 'current') {
    const eph = s.ephemeralContainerStatuses;
    if (eph && (!statusesAreNormal(eph, pod, gen) || !isSortedByName(eph))) return false;
  }
  return true;
}

/** isPodStatusByKubeletEqual: every kubelet-owned (current: and shared) condition of `status` must
 *  exist in `oldStatus` with the same status, reason and message; timestamps of conditions, conditions
 *  only in `oldStatus`, and non-kubelet conditions are ignored; the rest is compared with
 *  Semantic.DeepEqual. */
export function isPodStatusByKubeletEqual(oldStatus: PodStatus, status: PodStatus, gen: Generation, gates?: StatusFeatureGates): boolean {
  const conditions = status.conditions;
  for (let i = 0; conditions && i < conditions.length; i++) {
    const c = conditions[i];
    if (podConditionByKubelet(c.type, gen, gates) || podConditionSharedByKubelet(c.type, gen, gates)) {
      const oc = getPodCondition(oldStatus, c.type);
      if (!oc || oc.status !== c.status || (oc.message ?? '') !== (c.message ?? '') || (oc.reason ?? '') !== (c.reason ?? '')) return false;
    }
  }
  // oldCopy.Conditions = status.Conditions; then Semantic.DeepEqual(oldCopy, status).
  for (const k in oldStatus) {
    if (k === 'conditions') continue;
    if (!semanticDeepEqual((oldStatus as Record<string, unknown>)[k], (status as Record<string, unknown>)[k], k)) return false;
  }
  for (const k in status) {
    if (k === 'conditions' || k in oldStatus) continue;
    if (!semanticDeepEqual(undefined, (status as Record<string, unknown>)[k], k)) return false;
  }
  return true;
}
