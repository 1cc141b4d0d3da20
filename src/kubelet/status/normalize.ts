// normalizeStatus and the comparison built on it (status_manager.go).
import { produce, type Draft } from 'immer';
import { truncateToSeconds } from '../../model/time.js';
import type { ContainerState, ContainerStatus, Pod, PodStatus } from '../../model/pod.js';
import { podConditionByKubelet, podConditionSharedByKubelet, getPodCondition } from './conditions.js';
import { semanticDeepEqual } from './semantic.js';
import { MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH, type Generation, type StatusFeatureGates } from './types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8'); // non-fatal: a cut multi-byte sequence decodes to U+FFFD

/** Go's s[:n] on a string's bytes. The cut may split a UTF-8 sequence; what is left of it decodes
 *  to U+FFFD, which is also what encoding/json makes of it on the way to the apiserver. */
export function truncateBytes(s: string, n: number): string {
  // Fast path: every UTF-16 unit is at least one UTF-8 byte, at most three.
  if (s.length * 3 <= n) return s;
  const bytes = encoder.encode(s);
  if (bytes.length <= n) return s;
  return decoder.decode(bytes.subarray(0, n));
}

/** kubetypes.SortInitContainerStatuses: bring statuses into spec order with the upstream swap
 *  algorithm (statuses without a spec container keep whatever position the swaps leave them in). */
export function sortInitContainerStatuses(pod: Pod, statuses: readonly ContainerStatus[]): ContainerStatus[] {
  const out = statuses.slice();
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

function normalizeTime(draft: { [k: string]: unknown }, key: string): void {
  const t = draft[key];
  if (typeof t === 'string') {
    const n = truncateToSeconds(t);
    if (n !== t) draft[key] = n;
  }
}

function normalizeContainerState(c: Draft<ContainerState> | undefined, bytesPerStatus: number): void {
  if (!c) return;
  if (c.running) normalizeTime(c.running as { [k: string]: unknown }, 'startedAt');
  if (c.terminated) {
    const t = c.terminated;
    normalizeTime(t as { [k: string]: unknown }, 'startedAt');
    normalizeTime(t as { [k: string]: unknown }, 'finishedAt');
    if (t.message !== undefined) {
      const m = truncateBytes(t.message, bytesPerStatus);
      if (m !== t.message) t.message = m;
    }
  }
}

function normalizeContainerStatuses(list: Draft<ContainerStatus>[] | undefined, bytesPerStatus: number): void {
  if (!list) return;
  for (const cs of list) {
    normalizeContainerState(cs.state, bytesPerStatus);
    normalizeContainerState(cs.lastState, bytesPerStatus);
  }
}

/** normalizeStatus: whole-second timestamps (only startTime, condition probe/transition times and
 *  container state times), termination messages cut to the per-container byte budget, container
 *  statuses sorted by name, init container statuses in spec order (current: ephemeral ones too,
 *  sorted by name, and they count in the budget). Returns a new status (the input is not touched;
 *  unchanged parts are shared). */
export function normalizeStatus(pod: Pod, status: PodStatus, gen: Generation): PodStatus {
  const spec = pod.spec;
  const containers =
    (spec?.containers?.length ?? 0) +
    (spec?.initContainers?.length ?? 0) +
    (gen === 'current' ? (spec?.ephemeralContainers?.length ?? 0) : 0);
  const bytesPerStatus = containers > 0 ? Math.floor(MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH / containers) : MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH;
  // Hot path: most statuses are already normal; checking is much cheaper than an immer draft.
  if (isNormal(pod, status, gen, bytesPerStatus)) return status;
  return produce(status, (d) => {
    normalizeTime(d as { [k: string]: unknown }, 'startTime');
    if (d.conditions) {
      for (const c of d.conditions) {
        normalizeTime(c as { [k: string]: unknown }, 'lastProbeTime');
        normalizeTime(c as { [k: string]: unknown }, 'lastTransitionTime');
      }
    }
    normalizeContainerStatuses(d.containerStatuses, bytesPerStatus);
    if (d.containerStatuses && !isSortedByName(d.containerStatuses)) {
      // Go's sort.Sort is not stable; names are unique in a valid status, so any order of equal names is moot.
      d.containerStatuses = d.containerStatuses.slice().sort(byName);
    }
    normalizeContainerStatuses(d.initContainerStatuses, bytesPerStatus);
    if (d.initContainerStatuses && d.initContainerStatuses.length > 1) {
      const sorted = sortInitContainerStatuses(pod, d.initContainerStatuses as ContainerStatus[]);
      if (!sameOrder(sorted, d.initContainerStatuses as ContainerStatus[])) d.initContainerStatuses = sorted as Draft<ContainerStatus>[];
    }
    if (gen === 'current') {
      normalizeContainerStatuses(d.ephemeralContainerStatuses, bytesPerStatus);
      if (d.ephemeralContainerStatuses && !isSortedByName(d.ephemeralContainerStatuses)) {
        d.ephemeralContainerStatuses = d.ephemeralContainerStatuses.slice().sort(byName);
      }
    }
  });
}

function timeIsNormal(t: unknown): boolean {
  return typeof t !== 'string' || truncateToSeconds(t) === t;
}

function stateIsNormal(c: ContainerState | undefined, bytesPerStatus: number): boolean {
  if (!c) return true;
  if (c.running && !timeIsNormal(c.running.startedAt)) return false;
  const t = c.terminated;
  if (t) {
    if (!timeIsNormal(t.startedAt) || !timeIsNormal(t.finishedAt)) return false;
    if (t.message !== undefined && truncateBytes(t.message, bytesPerStatus) !== t.message) return false;
  }
  return true;
}

function statusesAreNormal(list: readonly ContainerStatus[] | undefined, bytesPerStatus: number): boolean {
  if (!list) return true;
  for (const cs of list) if (!stateIsNormal(cs.state, bytesPerStatus) || !stateIsNormal(cs.lastState, bytesPerStatus)) return false;
  return true;
}

/** Would normalizeStatus change anything? (The same rules, read-only.) */
function isNormal(pod: Pod, s: PodStatus, gen: Generation, bytesPerStatus: number): boolean {
  if (!timeIsNormal(s.startTime)) return false;
  if (s.conditions) for (const c of s.conditions) if (!timeIsNormal(c.lastProbeTime) || !timeIsNormal(c.lastTransitionTime)) return false;
  if (s.containerStatuses && (!statusesAreNormal(s.containerStatuses, bytesPerStatus) || !isSortedByName(s.containerStatuses))) return false;
  const init = s.initContainerStatuses;
  if (init && (!statusesAreNormal(init, bytesPerStatus) || (init.length > 1 && !sameOrder(sortInitContainerStatuses(pod, init), init)))) return false;
  if (gen === 'current') {
    const eph = s.ephemeralContainerStatuses;
    if (eph && (!statusesAreNormal(eph, bytesPerStatus) || !isSortedByName(eph))) return false;
  }
  return true;
}

/** isPodStatusByKubeletEqual: every kubelet-owned (current: and shared) condition of `status` must
 *  exist in `oldStatus` with the same status, reason and message; timestamps of conditions, conditions
 *  only in `oldStatus`, and non-kubelet conditions are ignored; the rest is compared with
 *  Semantic.DeepEqual. */
export function isPodStatusByKubeletEqual(oldStatus: PodStatus, status: PodStatus, gen: Generation, gates?: StatusFeatureGates): boolean {
  for (const c of status.conditions ?? []) {
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
