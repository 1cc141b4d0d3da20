// Container restart back-off: k8s.io/client-go/util/flowcontrol Backoff as the kubelet uses it
// (pkg/kubelet/kubelet.go: backOffPeriod 10 s, MaxContainerBackOff 300 s, no jitter), plus the
// CrashLoopBackOff reason and message of kuberuntime doBackOff.
import type { Container, Pod } from '../../model/pod.js';

/** backOffPeriod: the first restart delay after the first restart. */
export const BACKOFF_INITIAL_MS = 10_000;
/** MaxContainerBackOff */
export const BACKOFF_MAX_MS = 300_000;

/** kubecontainer.ErrCrashLoopBackOff */
export const CRASH_LOOP_BACK_OFF = 'CrashLoopBackOff';

interface BackoffEntry {
  backoffMs: number;
  lastUpdateMs: number;
}

/** flowcontrol.Backoff: per-key exponential back-off on a virtual clock (integer ms). */
export class Backoff {
  private readonly perItemBackoff = new Map<string, BackoffEntry>();

  constructor(
    private readonly clock: { readonly nowMs: number },
    readonly defaultDurationMs = BACKOFF_INITIAL_MS,
    readonly maxDurationMs = BACKOFF_MAX_MS,
  ) {}

  /** Get: the current back-off of the key (0 when it has none). */
  get(id: string): number {
    return this.perItemBackoff.get(id)?.backoffMs ?? 0;
  }

  /** Next: move the key's back-off forward. A new or expired entry starts at the default; otherwise
   *  the back-off doubles, capped at the maximum. lastUpdate is now. */
  next(id: string, eventTimeMs: number): void {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined || hasExpired(eventTimeMs, entry.lastUpdateMs, this.maxDurationMs)) {
      this.perItemBackoff.set(id, { backoffMs: this.defaultDurationMs, lastUpdateMs: this.clock.nowMs });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxDurationMs);
    entry.lastUpdateMs = this.clock.nowMs;
  }

  /** IsInBackOffSince: true while less than the key's back-off has passed since eventTime; an
   *  unknown key or an expired entry (eventTime − lastUpdate > 2 × max) is not in back-off. */
  isInBackOffSince(id: string, eventTimeMs: number): boolean {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined) return false;
    if (hasExpired(eventTimeMs, entry.lastUpdateMs, this.maxDurationMs)) return false;
    return this.clock.nowMs - eventTimeMs < entry.backoffMs;
  }

  /** IsInBackOffSinceUpdate: true while less than the key's back-off has passed between its last
   *  update and eventTime (the image pull back-off asks this). */
  isInBackOffSinceUpdate(id: string, eventTimeMs: number): boolean {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined) return false;
    if (hasExpired(eventTimeMs, entry.lastUpdateMs, this.maxDurationMs)) return false;
    return eventTimeMs - entry.lastUpdateMs < entry.backoffMs;
  }

  /** Reset: forget the key. */
  reset(id: string): void {
    this.perItemBackoff.delete(id);
  }

  /** GC: drop entries not updated for more than 2 × max. */
  gc(): void {
    const now = this.clock.nowMs;
    // deleting the entry just visited does not disturb a Map's iteration
    this.perItemBackoff.forEach((e, id, m) => {
      if (now - e.lastUpdateMs > this.maxDurationMs * 2) m.delete(id);
    });
  }

  /** Inspection for tests and traces. */
  keys(): string[] {
    return [...this.perItemBackoff.keys()].sort();
  }
}

/** flowcontrol hasExpired */
function hasExpired(eventTimeMs: number, lastUpdateMs: number, maxDurationMs: number): boolean {
  return eventTimeMs - lastUpdateMs > maxDurationMs * 2;
}

/** Go's time.Duration.String() for a whole number of milliseconds: "10s", "1m20s", "5m0s", "1.5s". */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let r = Math.abs(ms);
  if (r < 1000) return `${neg ? '-' : ''}${r}ms`;
  const h = Math.floor(r / 3_600_000);
  r -= h * 3_600_000;
  const m = Math.floor(r / 60_000);
  r -= m * 60_000;
  const s = r / 1000; // may carry a fraction
  let out = '';
  if (h > 0) out += `${h}h`;
  if (h > 0 || m > 0) out += `${m}m`;
  out += `${trimFraction(s)}s`;
  return (neg ? '-' : '') + out;
}

function trimFraction(s: number): string {
  return Number.isInteger(s) ? String(s) : s.toFixed(3).replace(/0+$/, '');
}

/** format.Pod: "name_namespace(uid)". */
export function formatPod(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}(${pod.metadata?.uid ?? ''})`;
}

/** The waiting message of a container in back-off (kuberuntime doBackOff). */
export function crashLoopBackOffMessage(backoffMs: number, containerName: string, pod: Pod): string {
  return `back-off ${goDuration(backoffMs)} restarting failed container=${containerName} pod=${formatPod(pod)}`;
}

/** getStableKey: pod name, namespace, UID, container name and a hash of the container spec, so
 *  that a changed container starts a fresh back-off. */
export function getStableKey(pod: Pod, container: Container): string {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  const uid = pod.metadata?.uid ?? '';
  if (!Object.isFrozen(container)) return `${name}_${namespace}_${uid}_${container.name}_${computeContainerHash(container)}`;
  // every sync of a pod with an exited container asks: the key of a frozen container is kept with
  // the pod identity it was built for, and reused while that identity is the same
  // (per UID: the pods of one x-kss.replicas entry share their frozen container specs)
  let byUID = stableKeys.get(container);
  if (byUID === undefined) stableKeys.set(container, (byUID = new Map()));
  const k = byUID.get(uid);
  if (k !== undefined && k.name === name && k.namespace === namespace) return k.key;
  const key = `${name}_${namespace}_${uid}_${container.name}_${hashContainer(container)}`;
  byUID.set(uid, { name, namespace, key });
  return key;
}

const stableKeys = new WeakMap<Container, Map<string, { name: string; namespace: string; key: string }>>();

/** A deterministic short hash of a container spec (kubecontainer.HashContainer's role). */
export function hashContainer(container: Container): string {
  if (!Object.isFrozen(container)) return computeContainerHash(container);
  let h = containerHashes.get(container);
  if (h === undefined) {
    h = computeContainerHash(container);
    containerHashes.set(container, h);
  }
  return h;
}

/** Hashes of frozen container specs (they cannot change): the back-off key is computed on every
 *  sync of a pod with an exited container. */
const containerHashes = new WeakMap<Container, string>();

function computeContainerHash(container: Container): string {
  return fnv1a32(stableStringify(container)).toString(16).padStart(8, '0');
}

/** FNV-1a, 32 bit, over the UTF-16 code units of s. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** JSON with object keys sorted, so that equal values hash equally whatever their key order. */
export function stableStringify(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify(o[k])}`)
    .join(',')}}`;
}
