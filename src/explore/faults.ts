// Swarm-style fault generation (TigerBeetle's VOPR, FoundationDB's BUGGIFY, Groce et al.'s swarm
// testing): each run enables a random subset of the fault kinds, gives each a random rate, and
// draws that many faults at random virtual instants inside the window. Every fault becomes plain
// timeline steps of the scenario format, so a find is a scenario a user can read and run.
import { Rng } from '../engine/rng.js';
import { formatDuration, formatRfc3339, parseRfc3339 } from '../model/time.js';
import type { Latency, Scenario, Step, StepAction, Verb } from '../scenario/types.js';
import { DEFAULT_FAULT_KINDS, type ExploreSpec, type Fault, type FaultKind } from './types.js';

/** What generation needs of a scenario, computed once per search. */
export interface FaultSpace {
  kinds: FaultKind[];
  fromMs: number;
  toMs: number;
  maxFaults: number;
  /** Pods a user's delete or a second writer may target ("ns/name"), apiserver pods only. */
  pods: string[];
  /** The nodes a node-level fault may hit (spec.nodes); empty with one node. */
  nodes: string[];
  /** Each pod's containers, by key (what a stopFails may name). */
  containers: Record<string, string[]>;
}

export const DEFAULT_MAX_FAULTS = 4;

/** The fault space of a scenario: every kind (or spec.explore.faults), within the window (default:
 *  the first two thirds of the run, so that the rest of it can show whether the kubelet recovers). */
export function faultSpace(s: Scenario, spec: ExploreSpec | undefined): FaultSpace {
  const pods = s.pods.filter((p) => p.only !== 'kubelet' && p.createAtMs !== 'never').map((p) => p.key);
  let kinds = [...(spec?.faults ?? DEFAULT_FAULT_KINDS)];
  if (pods.length === 0) kinds = kinds.filter((k) => k !== 'externalPatch' && k !== 'delete' && k !== 'stopFails' && k !== 'evict');
  if (s.kubelet.runtime !== 'simulated') kinds = kinds.filter((k) => k !== 'restartRuntime' && k !== 'networkPluginDown' && k !== 'stopFails' && k !== 'evict');
  // (only what a stopFails can name, and only when it is drawn: one pass over the pods)
  const containers: Record<string, string[]> = {};
  if (kinds.includes('stopFails')) {
    const drawable = new Set(pods);
    for (const p of s.pods) if (drawable.has(p.key)) containers[p.key] = (p.pod.spec?.containers ?? []).map((c) => c.name);
  }
  const toMs = spec?.window?.toMs ?? Math.floor((s.untilMs * 2) / 3);
  const nodes = (s.nodes ?? []).length > 1 ? s.nodes!.map((n) => n.name) : [];
  return { kinds, fromMs: spec?.window?.fromMs ?? 0, toMs: Math.min(toMs, s.untilMs), maxFaults: spec?.maxFaults ?? DEFAULT_MAX_FAULTS, pods, nodes, containers };
}

const CODES = [409, 429, 500, 'timeout'] as const;
const VERB_SETS: Verb[][] = [['get'], ['patch'], ['get', 'patch'], ['delete'], ['get', 'patch', 'delete']];

/** The faults of one run, from its own stream: a subset of kinds, rates, instants. */
export function swarmFaults(space: FaultSpace, rng: Rng): Fault[] {
  if (space.kinds.length === 0 || space.maxFaults === 0) return [];
  const enabled = space.kinds.filter(() => rng.float() < 0.5);
  if (enabled.length === 0) enabled.push(space.kinds[rng.pick(space.kinds.length)]);
  const weights = enabled.map(() => 1 + rng.int(0, 9));
  const total = weights.reduce((a, b) => a + b, 0);
  const n = rng.int(1, space.maxFaults);
  const out: Fault[] = [];
  for (let i = 0; i < n; i++) {
    let w = rng.int(1, total);
    let k = 0;
    while (w > weights[k]) w -= weights[k++];
    out.push(drawFault(enabled[k], space, rng));
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}

function drawFault(kind: FaultKind, space: FaultSpace, rng: Rng): Fault {
  const atMs = rng.int(space.fromMs, space.toMs);
  const pod = () => space.pods[rng.pick(space.pods.length)];
  // (drawn last, and only with several nodes: a one-node scenario draws what it always drew)
  const onNode = <F extends Fault>(f: F): F => (space.nodes.length > 1 ? { ...f, node: space.nodes[rng.pick(space.nodes.length)] } : f);
  switch (kind) {
    case 'partition':
      return onNode({ kind, atMs, forMs: rng.int(1_000, 60_000) });
    case 'restartApiserver':
      return { kind, atMs, downForMs: rng.int(0, 20_000) };
    case 'restartKubelet':
      return onNode({ kind, atMs, downForMs: rng.int(0, 10_000) });
    case 'fail':
      return onNode({ kind, atMs, verbs: VERB_SETS[rng.pick(VERB_SETS.length)], code: CODES[rng.pick(CODES.length)], count: rng.int(1, 5) });
    case 'latency': {
      const minMs = rng.int(1, 2_000);
      return onNode({ kind, atMs, minMs, maxMs: minMs + rng.int(0, 5_000), forMs: rng.int(1_000, 60_000) });
    }
    case 'externalPatch':
      return { kind, atMs, pod: pod(), condition: rng.float() < 0.75 ? 'Ready' : 'ContainersReady', value: rng.float() < 0.75 ? 'False' : 'True' };
    case 'delete':
      return { kind, atMs, pod: pod(), gracePeriodSeconds: [0, 1, 5, 30][rng.pick(4)] };
    case 'restartRuntime':
    case 'networkPluginDown':
      // (a runtime outage long enough, at times, for the kubelet to see it: 30 s after its last status check)
      return onNode({ kind, atMs, downForMs: rng.int(1_000, 120_000) });
    case 'stopFails': {
      // (the pod's node: its steps act where the pod runs)
      const p = pod();
      const names = space.containers[p] ?? [];
      return { kind, atMs, pod: p, container: names[rng.pick(names.length)] ?? '', forMs: rng.int(1_000, 120_000) };
    }
    case 'evict': {
      // (the eviction manager's pick for node pressure: a hard threshold (grace 1 s) three times in
      // four, else a soft one with evictionMaxPodGracePeriod 0..30 s)
      const p = pod();
      const signal = rng.float() < 0.5 ? 'memory.available' : 'nodefs.available';
      return rng.float() < 0.75 ? { kind, atMs, pod: p, signal } : { kind, atMs, pod: p, signal, maxPodGracePeriodSeconds: rng.int(0, 30) };
    }
  }
}

/** An evict fault's step fields (soft when it carries a grace). */
const evictFields = (f: Extract<Fault, { kind: 'evict' }>) => ({ pod: f.pod, signal: f.signal, ...(f.maxPodGracePeriodSeconds === undefined ? {} : { soft: true }) });

/** The timeline actions of a fault, each with its instant (and the node it acts on). */
export function faultActions(f: Fault, epoch: string, base?: Latency): Array<{ atMs: number; action: StepAction; node?: string }> {
  switch (f.kind) {
    case 'partition':
      return [
        { atMs: f.atMs, action: { action: 'partition' }, ...nodeOf(f) },
        { atMs: f.atMs + f.forMs, action: { action: 'repair' }, ...nodeOf(f) },
      ];
    case 'restartApiserver':
      return [{ atMs: f.atMs, action: { action: 'restartApiserver', downForMs: f.downForMs } }];
    case 'restartKubelet':
      return [{ atMs: f.atMs, action: { action: 'restartKubelet', downForMs: f.downForMs }, ...nodeOf(f) }];
    case 'fail':
      return [{ atMs: f.atMs, action: { action: 'fail', verbs: f.verbs, code: f.code, count: f.count }, ...nodeOf(f) }];
    case 'latency': {
      const r = { minMs: f.minMs, maxMs: f.maxMs };
      const back = base ?? { get: r, patch: r, delete: r, create: r };
      const on = f.node === undefined ? {} : { node: f.node };
      return [
        { atMs: f.atMs, action: { action: 'latency', latency: { get: { ...r }, patch: { ...r }, delete: { ...r }, create: { ...r } } }, ...on },
        { atMs: f.atMs + f.forMs, action: { action: 'latency', latency: { get: { ...back.get }, patch: { ...back.patch }, delete: { ...back.delete }, create: { ...back.create } } }, ...on },
      ];
    }
    case 'externalPatch': {
      const ltt = formatRfc3339(parseRfc3339(epoch)! + Math.floor(f.atMs / 1000) * 1000);
      return [{ atMs: f.atMs, action: { action: 'externalPatch', pod: f.pod, status: { conditions: [{ type: f.condition, status: f.value, lastTransitionTime: ltt }] } } }];
    }
    case 'delete':
      return [{ atMs: f.atMs, action: { action: 'delete', pod: f.pod, gracePeriodSeconds: f.gracePeriodSeconds } }];
    case 'restartRuntime':
    case 'networkPluginDown':
      return [{ atMs: f.atMs, action: { action: f.kind, downForMs: f.downForMs }, ...nodeOf(f) }];
    case 'stopFails':
      return [{ atMs: f.atMs, action: { action: 'stopFails', pod: f.pod, container: f.container, forMs: f.forMs } }];
    case 'evict':
      return [{ atMs: f.atMs, action: { action: 'evict', ...evictFields(f), ...(f.maxPodGracePeriodSeconds === undefined ? {} : { maxPodGracePeriodSeconds: f.maxPodGracePeriodSeconds }) } }];
  }
}

/** The typed steps of a run's faults, after the scenario's own steps (`index` from `first`). */
export function faultSteps(faults: readonly Fault[], epoch: string, first: number, base: Latency): Step[] {
  const out: Step[] = [];
  for (const f of faults) for (const a of faultActions(f, epoch, base)) out.push({ ...a.action, atMs: a.atMs, index: first + out.length, pos: { line: 0, col: 0 }, ...(a.node === undefined ? {} : { node: a.node }) } as Step);
  return out;
}

/** A fault as YAML-ready timeline steps (`{ at: 12s, partition: {} }`). */
export function faultRawSteps(f: Fault, base: Latency): Array<Record<string, unknown>> {
  const at = formatDuration(f.atMs);
  switch (f.kind) {
    case 'partition':
      return [{ at, partition: nodeOf(f) }, { at: formatDuration(f.atMs + f.forMs), repair: nodeOf(f) }];
    case 'restartApiserver':
      return [{ at, restartApiserver: { downFor: formatDuration(f.downForMs) } }];
    case 'restartKubelet':
      return [{ at, restartKubelet: { downFor: formatDuration(f.downForMs), ...nodeOf(f) } }];
    case 'fail':
      return [{ at, fail: { ...nodeOf(f), verbs: f.verbs, code: f.code, count: f.count } }];
    case 'latency': {
      // (one node's link: the map form, the only one that names a node)
      const r = range({ minMs: f.minMs, maxMs: f.maxMs });
      return [
        { at, latency: f.node === undefined ? r : { ...nodeOf(f), get: r, patch: r, delete: r, create: r } },
        { at: formatDuration(f.atMs + f.forMs), latency: { ...nodeOf(f), get: range(base.get), patch: range(base.patch), delete: range(base.delete), create: range(base.create) } },
      ];
    }
    case 'externalPatch':
      return [{ at, externalPatch: { pod: shortPod(f.pod), status: { conditions: [{ type: f.condition, status: f.value, lastTransitionTime: `@${formatDuration(Math.floor(f.atMs / 1000) * 1000)}` }] } } }];
    case 'delete':
      return [{ at, delete: { pod: shortPod(f.pod), gracePeriodSeconds: f.gracePeriodSeconds } }];
    case 'restartRuntime':
    case 'networkPluginDown':
      return [{ at, [f.kind]: { downFor: formatDuration(f.downForMs), ...nodeOf(f) } }];
    case 'stopFails':
      return [{ at, stopFails: { pod: shortPod(f.pod), container: f.container, for: formatDuration(f.forMs) } }];
    case 'evict':
      return [{ at, evict: { ...evictFields(f), pod: shortPod(f.pod), ...(f.maxPodGracePeriodSeconds === undefined ? {} : { maxPodGracePeriod: f.maxPodGracePeriodSeconds }) } }];
  }
}

const range = (r: { minMs: number; maxMs: number }) => `${formatDuration(r.minMs)}..${formatDuration(r.maxMs)}`;
const nodeOf = (f: { node?: string }): Record<string, string> => (f.node === undefined ? {} : { node: f.node });
/** "node-b's kubelet" with a node, else "the kubelet". */
const kubeletOf = (f: { node?: string }): string => (f.node === undefined ? 'the kubelet' : `${f.node}'s kubelet`);

/** "default/web" → "web"; other namespaces keep theirs. */
export function shortPod(key: string): string {
  return key.startsWith('default/') ? key.slice('default/'.length) : key;
}

/** A fault in words, for explanations and progress. */
export function describeFault(f: Fault): string {
  const at = formatDuration(f.atMs);
  switch (f.kind) {
    case 'partition':
      return `a partition between ${kubeletOf(f)} and the apiserver from ${at} to ${formatDuration(f.atMs + f.forMs)}`;
    case 'restartApiserver':
      return `an apiserver restart at ${at} (down ${formatDuration(f.downForMs)})`;
    case 'restartKubelet':
      return f.node === undefined ? `a kubelet restart at ${at} (down ${formatDuration(f.downForMs)})` : `a restart of ${f.node}'s kubelet at ${at} (down ${formatDuration(f.downForMs)})`;
    case 'fail':
      return `${f.count} ${f.verbs.join('/')} request(s)${f.node === undefined ? '' : ` of ${f.node}'s kubelet`} answered ${f.code} from ${at}`;
    case 'latency':
      return `request latency ${formatDuration(f.minMs)}..${formatDuration(f.maxMs)}${f.node === undefined ? '' : ` on ${f.node}'s link`} from ${at} to ${formatDuration(f.atMs + f.forMs)}`;
    case 'externalPatch':
      return `a second writer setting ${f.condition}=${f.value} on ${shortPod(f.pod)} at ${at}`;
    case 'delete':
      return `a user's delete of ${shortPod(f.pod)} (grace ${f.gracePeriodSeconds}s) at ${at}`;
    case 'restartRuntime':
      return `containerd down${f.node === undefined ? '' : ` on ${f.node}`} from ${at} to ${formatDuration(f.atMs + f.downForMs)}`;
    case 'networkPluginDown':
      return `the CNI plugin not ready${f.node === undefined ? '' : ` on ${f.node}`} from ${at} to ${formatDuration(f.atMs + f.downForMs)}`;
    case 'stopFails':
      return `runc unable to signal ${f.container} of ${shortPod(f.pod)} from ${at} to ${formatDuration(f.atMs + f.forMs)}`;
    case 'evict':
      return `the eviction manager evicting ${shortPod(f.pod)} for ${f.signal} at ${at} (${f.maxPodGracePeriodSeconds === undefined ? 'a hard threshold' : `a soft threshold, grace ${f.maxPodGracePeriodSeconds}s`})`;
  }
}
