// From a validated document to the Scenario: defaults, pod manifests as the apiserver (or the
// kubelet's file source) would hold them, `@` times resolved, steps and assertions in file order.
import { createHash } from 'node:crypto';
import { ANNOTATION_CONFIG_HASH, ANNOTATION_CONFIG_SOURCE, type Pod, type PodSpec, type PodStatus } from '../model/pod.js';
import { LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE } from '../model/node.js';
import { getPodQOS } from '../model/qos.js';
import { DEFAULT_EPOCH, formatRfc3339, parseRfc3339 } from '../model/time.js';
import type { PathSeg } from './issues.js';
import { FEATURE_GATES, type RawPod, type RawScenario } from './schema.js';
import { atTimeMs, DEFAULT_LATENCY } from './schema-values.js';
import {
  INVARIANT_NAMES,
  featureGateDefault,
  type ApfConfig,
  type ServiceTimeConfig,
  type Assertion,
  type AssertionBody,
  type Attempt,
  type FeatureGate,
  type KubeletConfig,
  type Scenario,
  type ScenarioPod,
  type SourcePos,
  type Step,
  type StepAction,
  type NodeLifecycleConfig,
  type NodeSpec,
} from './types.js';

export interface BuildInput {
  raw: RawScenario;
  file: string;
  sha256: string;
  /** Where the YAML node at a path starts. */
  posOf: (path: PathSeg[]) => SourcePos;
}

/** Drop keys whose value is undefined, so optional fields are absent rather than undefined. */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}

/** `v` with `f` applied to every string and, unless `keepNulls`, without its null map fields
 *  (to the apiserver, and so to kss, a null field is an unset one; null list items are refused by
 *  the Pod schema). Parts with nothing to change are shared, not copied. */
function mapValue(v: unknown, f: (s: string) => string, keepNulls = false): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = mapValue(v[i], f, keepNulls);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (v === null || typeof v !== 'object') return v;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x === null && !keepNulls) {
      out ??= { ...v };
      delete out[k];
      continue;
    }
    const y = mapValue(x, f, keepNulls);
    if (y !== x) (out ??= { ...v })[k] = y;
  }
  return out ?? v;
}

const same = (s: string) => s;
export const dropNulls = (v: unknown): unknown => mapValue(v, same);

/** Replace every `@<duration>` string with the RFC 3339 time of epoch + duration. */
function resolveTimes(v: unknown, epochMs: number, keepNulls = true): unknown {
  return mapValue(
    v,
    (s) => {
      const ms = atTimeMs(s);
      return ms === undefined ? s : formatRfc3339(epochMs + ms);
    },
    keepNulls,
  );
}

/** spec.kubelet.events with the event recorder's defaults. */
function eventsConfig(e: NonNullable<NonNullable<NonNullable<RawScenario['spec']>['kubelet']>['events']>): NonNullable<KubeletConfig['events']> {
  return { sharedClient: e.sharedClient ?? false, eventRecordQPS: e.eventRecordQPS ?? 50, eventBurst: e.eventBurst ?? 100, podInfraContainer: e.podInfraContainer ?? false };
}

type RawKubelet = NonNullable<NonNullable<RawScenario['spec']>['kubelet']>;

/** spec.kubelet (or a node's kubelet over it), defaulted. */
function kubeletConfig(k: RawKubelet): KubeletConfig {
  const variant = k.statusManager ?? 'current';
  const gates = Object.fromEntries(FEATURE_GATES.map((g) => [g, k.featureGates?.[g] ?? featureGateDefault(g, variant)])) as Record<FeatureGate, boolean>;
  return {
    nodeName: k.nodeName ?? 'node-a',
    statusManager: variant,
    syncPeriodMs: k.syncPeriod ?? 10_000,
    statusChannelCapacity: k.statusChannelCapacity ?? 1000,
    runtime: k.runtime ?? 'simulated',
    plegRelistPeriodMs: k.plegRelistPeriod ?? 1000,
    apiQPS: k.apiQPS ?? (variant === 'current' ? 50 : 5),
    apiBurst: k.apiBurst ?? (variant === 'current' ? 100 : 10),
    requestTimeoutMs: k.requestTimeout ?? 10_000,
    ...(k.events ? { events: eventsConfig(k.events) } : {}),
    deletionSafety: {
      podResourcesReclaimed: k.deletionSafety?.podResourcesReclaimed ?? true,
      podCouldHaveRunningContainers: k.deletionSafety?.podCouldHaveRunningContainers ?? false,
    },
    featureGates: gates,
    explicitFeatureGates: Object.fromEntries(FEATURE_GATES.filter((g) => k.featureGates?.[g] !== undefined).map((g) => [g, k.featureGates![g]])),
    revertFixes: [...new Set(k.revertFixes ?? [])],
    proposedFixes: [...new Set(k.proposedFixes ?? [])],
    ...(k.stalenessBound !== undefined ? { stalenessBoundMs: k.stalenessBound } : {}),
    ...(k.allocatable ? { allocatable: k.allocatable } : {}),
    ...(k.serializeImagePulls !== undefined ? { serializeImagePulls: k.serializeImagePulls } : {}),
  };
}

/** spec.nodes: each node's kubelet is spec.kubelet with the node's own settings over it (field by
 *  field) and the node's name. */
function nodeSpecs(spec: NonNullable<RawScenario['spec']>, posOf: BuildInput['posOf']): NodeSpec[] | undefined {
  if (!spec.nodes) return undefined;
  return spec.nodes.map((n, i) => {
    const labels = {
      ...n.labels,
      ...(n.zone !== undefined ? { [LABEL_TOPOLOGY_ZONE]: n.zone } : {}),
      ...(n.region !== undefined ? { [LABEL_TOPOLOGY_REGION]: n.region } : {}),
    };
    const kubelet = kubeletConfig({ ...spec.kubelet, ...compact(n.kubelet ?? {}), nodeName: n.name });
    return { name: n.name, kubelet: Object.keys(labels).length > 0 ? { ...kubelet, nodeLabels: labels } : kubelet, labels, pos: posOf(['spec', 'nodes', i]) };
  });
}

export function buildScenario({ raw, file, sha256, posOf }: BuildInput): Scenario {
  const spec = raw.spec ?? {};
  const epochMs = parseRfc3339(spec.epoch ?? DEFAULT_EPOCH)!;
  const nodes = nodeSpecs(spec, posOf);
  const kubelet = nodes ? nodes[0].kubelet : kubeletConfig(spec.kubelet ?? {});
  const latency = spec.apiserver?.latency;
  const d = DEFAULT_LATENCY;
  const time = (v: unknown) => resolveTimes(v, epochMs);

  const timeline: Step[] = (spec.timeline ?? []).map((s, index) => {
    const name = Object.keys(s).find((key) => key !== 'at' && s[key] !== undefined)!;
    const action = compact(s[name] as StepAction);
    if ('status' in action) action.status = resolveTimes(action.status, epochMs, false) as PodStatus;
    return { ...action, atMs: s.at as number, index, pos: posOf(['spec', 'timeline', index]) };
  });

  const expect: Assertion[] = (spec.expect ?? []).map((a, index) => {
    const name = Object.keys(a).find((key) => a[key] !== undefined)!;
    const body = compact(a[name] as AssertionBody);
    if ('status' in body) body.status = time(body.status);
    return { ...body, index, pos: posOf(['spec', 'expect', index]) };
  });

  const inv = spec.invariants ?? 'all';
  return compact({
    file,
    sha256,
    name: raw.metadata.name,
    description: raw.metadata.description,
    tags: raw.metadata.tags ?? [],
    seed: spec.seed ?? 1,
    epoch: formatRfc3339(epochMs),
    untilMs: spec.until ?? 600_000,
    kubelet,
    nodes,
    apiserver: compact({
      latency: latency ?? { get: { ...d }, patch: { ...d }, delete: { ...d }, create: { ...d } },
      ...apiserverLoad(spec.apiserver, kubelet.statusManager),
    }),
    pods: (spec.pods ?? []).flatMap((p, i) => {
      const pos = posOf(['spec', 'pods', i]);
      return replicasOf(p).map((r) => scenarioPod(r, false, kubelet.nodeName, epochMs, pos));
    }),
    staticPods: (spec.staticPods ?? []).map((p, i) => scenarioPod(p, true, kubelet.nodeName, epochMs, posOf(['spec', 'staticPods', i]))),
    timeline,
    expect,
    invariants: inv === 'all' ? [...INVARIANT_NAMES] : inv === 'none' ? [] : [...new Set(inv)],
    pinned: [...new Set(spec.pinned ?? [])],
    explore: spec.explore ? compact({ faults: spec.explore.faults, window: spec.explore.window && { fromMs: spec.explore.window.minMs, toMs: spec.explore.window.maxMs }, maxFaults: spec.explore.maxFaults }) : undefined,
    ...(spec.nodeLifecycle ? { nodeLifecycle: nodeLifecycleConfig(spec.nodeLifecycle) } : {}),
  });
}

/** spec.nodeLifecycle with kube-controller-manager's and the kubelet's defaults. */
function nodeLifecycleConfig(n: NonNullable<NonNullable<RawScenario['spec']>['nodeLifecycle']>): NodeLifecycleConfig {
  return {
    nodeMonitorPeriodMs: n.nodeMonitorPeriod ?? 5_000,
    nodeMonitorGracePeriodMs: n.nodeMonitorGracePeriod ?? 40_000,
    leaseDurationMs: n.leaseDuration ?? 40_000,
    nodeStatusUpdateFrequencyMs: n.nodeStatusUpdateFrequency ?? 10_000,
    healthyNodes: n.healthyNodes ?? 2,
    nodeEvictionRate: n.nodeEvictionRate ?? 0.1,
    secondaryNodeEvictionRate: n.secondaryNodeEvictionRate ?? 0.01,
    largeClusterSizeThreshold: n.largeClusterSizeThreshold ?? 50,
    unhealthyZoneThreshold: n.unhealthyZoneThreshold ?? 0.55,
    terminatedPodGCThreshold: n.terminatedPodGCThreshold ?? 12_500,
  };
}

/** JSON with sorted keys: the same manifest hashes the same whatever its key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((v as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** x-kss.replicas: N — the entry as N pods named name-0 … name-(N-1) (a pod without it: itself). */
function replicasOf(raw: RawPod): RawPod[] {
  const n = raw['x-kss']?.replicas;
  if (n === undefined) return [raw];
  const out: RawPod[] = new Array(n);
  for (let r = 0; r < n; r++) out[r] = { ...raw, metadata: { ...raw.metadata, name: `${raw.metadata.name}-${r}` } };
  return out;
}

/** `raw` without its x-kss, in raw's key order (a loop: object rest is slow in V8). */
type WithoutXKss<T> = { [K in keyof T as K extends 'x-kss' ? never : K]: T[K] };
function withoutXKss<T extends { 'x-kss'?: unknown }>(raw: T): WithoutXKss<T> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(raw)) if (k !== 'x-kss') out[k] = (raw as Record<string, unknown>)[k];
  return out as WithoutXKss<T>;
}

function scenarioPod(raw: RawPod, isStatic: boolean, nodeName: string, epochMs: number, pos: SourcePos): ScenarioPod {
  const x = raw['x-kss'];
  const manifest = dropNulls(withoutXKss(raw)) as WithoutXKss<RawPod>;
  const meta = { ...manifest.metadata, namespace: manifest.metadata.namespace ?? 'default' };
  if (meta.deletionTimestamp !== undefined) meta.deletionTimestamp = resolveTimes(meta.deletionTimestamp, epochMs) as string;
  const spec = {
    ...manifest.spec,
    restartPolicy: manifest.spec.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: manifest.spec.terminationGracePeriodSeconds ?? 30,
    // The file source binds a static pod to its node; the apiserver keeps a given nodeName.
    nodeName: isStatic ? nodeName : (manifest.spec.nodeName ?? nodeName),
  } as PodSpec;

  let status: PodStatus | undefined;
  if (manifest.status !== undefined) status = resolveTimes(manifest.status, epochMs) as PodStatus;
  else if (!isStatic) status = { phase: 'Pending', qosClass: getPodQOS({ spec }) };

  if (isStatic) {
    // As the kubelet's file source does: the UID is a hash of the manifest unless given, the
    // config.hash annotation is the UID, and the name carries the node's.
    const hash = createHash('sha256').update(canonical(manifest)).digest('hex').slice(0, 32);
    meta.uid ??= hash;
    meta.annotations = { ...meta.annotations, [ANNOTATION_CONFIG_SOURCE]: 'file', [ANNOTATION_CONFIG_HASH]: meta.uid };
    meta.name = `${meta.name}-${nodeName}`;
    status ??= {};
  }

  const pod = { ...manifest, metadata: meta, spec, status } as Pod;
  return compact({
    pod,
    key: `${meta.namespace}/${meta.name}`,
    createAtMs: x?.createAt ?? 0,
    only: x?.only,
    containers: attempts(spec, x?.containers ?? {}),
    static: isStatic,
    pos,
  });
}

type RawAttempt = NonNullable<NonNullable<RawPod['x-kss']>['containers']>[string][number];

/** Every container's attempts: as listed, else running until killed. An init container that
 *  is not a sidecar completes at once by default, or the pod would never start. */
function attempts(spec: PodSpec, listed: Record<string, RawAttempt[]>): Record<string, Attempt[]> {
  const out: Record<string, Attempt[]> = {};
  const all = [
    ...(spec.initContainers ?? []).map((c) => ({ name: c.name, runsToEnd: c.restartPolicy !== 'Always' })),
    ...spec.containers.map((c) => ({ name: c.name, runsToEnd: false })),
    ...(spec.ephemeralContainers ?? []).map((c) => ({ name: c.name, runsToEnd: false })),
  ];
  for (const c of all) {
    const given = listed[c.name];
    out[c.name] = given
      ? given.map((a) => compact({ runMs: a.run, exit: a.exit ?? 0, term: a.term ?? 0, reason: a.reason, message: a.message, ready: a.ready, started: a.started, live: a.live, startError: a.startError, onTerm: a.onTerm, preStopMs: a.preStop, postStartMs: a.postStart, postStartExit: a.postStartExit, pullMs: a.pull }))
      : [{ runMs: c.runsToEnd ? 0 : 'forever', exit: 0, term: 0 }];
  }
  return out;
}


/** spec.apiserver.serviceTime and apf, defaulted (apiserver/apf/bootstrap.ts has the upstream defaults). */
function apiserverLoad(a: NonNullable<RawScenario['spec']>['apiserver'], generation: KubeletConfig['statusManager']): { serviceTime?: ServiceTimeConfig; apf?: ApfConfig } {
  const out: { serviceTime?: ServiceTimeConfig; apf?: ApfConfig } = {};
  if (a?.serviceTime) out.serviceTime = { baseMs: a.serviceTime.base ?? 0, perInflightMs: a.serviceTime.perInflight ?? 0 };
  const f = a?.apf;
  if (f) {
    out.apf = {
      serverConcurrency: (f.maxRequestsInflight ?? 400) + (f.maxMutatingRequestsInflight ?? 200),
      requestWaitLimitMs: f.requestWaitLimit ?? 15_000,
      // the generation's apiserver: v1.20 (no node-high, Retry-After 1), v1.23 (node-high), v1.31 (dynamic Retry-After)
      retryAfter: f.retryAfter ?? (generation === 'current' ? 'dynamic' : 1),
      nodeHigh: f.nodeHigh ?? generation !== 'classic',
      levels: f.priorityLevels ? Object.fromEntries(Object.entries(f.priorityLevels).map(([k, v]) => [k, compact({ ...v })])) : {},
    };
  }
  return out;
}
