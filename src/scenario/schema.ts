// The zod schema of the scenario document (scenario-format.md): pods, timeline steps, assertions
// and the spec around them, built from the value schemas of schema-values.ts. It checks the
// document's shape and turns steps / assertions into their typed unions. Cross-references (pod
// names, containers, one action per step) are checked in semantics.ts, the Pod fields against the
// Kubernetes schema in k8s/podcheck.ts; defaults in build.ts.
import { FIX_NAMES, PROPOSED_FIX_NAMES } from '../model/fixes.js';
import { z } from 'zod';
import {
  dnsLabel, dnsSubdomain, labels, labelValue, duration, durationOr, instant, MAX_SECONDS, podRef,
  latencyVerbs, positiveDuration, range, Refusal, status, toLatency, value, VERBS, YEAR_1000, YEAR_9000,
} from './schema-values.js';
import { parseRfc3339 } from '../model/time.js';
import { parseQuantityValue } from '../model/quantity.js';
import { apiserver } from './schema-apiserver.js';
import { nodeLifecycle, zoneGivenOnce } from './schema-cluster.js';
import { NODE_OBJECT_ACTIONS } from './schema-node-actions.js';
import { EVICTION_SIGNALS, EXPLORE_FAULT_KINDS, INVARIANT_NAMES, type AssertionBody, type StepAction } from './types.js';
import type { Container } from '../model/pod.js';

export { atTimeMs, DEFAULT_LATENCY, MISSING, OPERATORS, show, VERBS } from './schema-values.js';
// ---- pods ----

const quantities = z.record(z.string(), z.union([z.string(), z.number()]));
/** A resource.Quantity ("2", "500m", "4Gi", or a number), not negative. */
const quantity = value({ type: ['string', 'number'], description: 'a resource quantity: "2", "500m", "4Gi"' }, (v) => {
  const q = parseQuantityValue(v);
  if (q === undefined) return new Refusal('INVALID_VALUE', 'a quantity like "2", "500m" or "4Gi"');
  return q.mantissa < 0n ? new Refusal('INVALID_VALUE', 'a quantity that is not negative') : (v as string | number);
});
const container = z.looseObject({
  name: dnsLabel,
  restartPolicy: z.enum(['Always']).optional(),
  resources: z.looseObject({ requests: quantities.optional(), limits: quantities.optional() }).optional(),
});

const attempt = z.strictObject({
  run: durationOr('forever'),
  exit: z.int().min(0).max(255).optional(),
  term: durationOr('ignore').optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  ready: z.boolean().optional(),
  started: z.boolean().optional(),
  live: z.boolean().optional(),
  startError: z.enum(['ErrImagePull', 'CreateContainerConfigError', 'CreateContainerError', 'StartError']).optional(),
  onTerm: z.int().min(0).max(255).optional(),
  preStop: duration.optional(),
  postStart: duration.optional(),
  postStartExit: z.int().min(0).max(255).optional(),
  pull: duration.optional(),
});

const xKss = z
  .strictObject({
    createAt: durationOr('never').optional(),
    replicas: z.int().min(1).max(100_000).optional(),
    only: z.enum(['kubelet', 'apiserver']).optional(),
    containers: z.record(z.string(), z.array(attempt).min(1)).optional(),
    unchecked: z.array(z.string()).optional().meta({ description: 'fields of this pod (e.g. status.phase) whose value may lie outside the Kubernetes enum' }),
  })
  .meta({ description: 'simulator-only behaviour; never sent to the apiserver' });

/** A v1.Pod manifest. Fields the simulator does not model are accepted and kept. */
const pod = z.looseObject({
  metadata: z.looseObject({
    name: dnsSubdomain,
    namespace: dnsLabel.optional(),
    uid: z.string().min(1).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
    labels: z.record(z.string(), z.string()).optional(),
    deletionTimestamp: instant.optional(),
  }),
  spec: z.looseObject({
    containers: z.array(container).min(1),
    initContainers: z.array(container).optional(),
    ephemeralContainers: z.array(z.looseObject({ name: dnsLabel })).optional(),
    restartPolicy: z.enum(['Always', 'OnFailure', 'Never']).optional(),
    terminationGracePeriodSeconds: z.int().min(0).max(MAX_SECONDS).optional(),
    nodeName: z.string().optional(),
    readinessGates: z.array(z.looseObject({ conditionType: z.string() })).optional(),
  }),
  status: status(false).optional(),
  'x-kss': xKss.optional(),
});

// ---- timeline ----

const verb = z.enum(VERBS);
const containerName = z.string().min(1);
const act = <T extends z.ZodType>(s: T, f: (v: z.output<T>) => StepAction) => s.transform(f);
/** `node:` on a node-level action: which node's kubelet, runtime or link (default: the pod's node,
 *  else the default node; spec.nodes). */
const node = dnsSubdomain.optional().meta({ description: "the node this acts on (spec.nodes); default: the pod's node, else the default node" });
/** An action without fields but `node`: `partition: {}` or `partition:`. */
const bare = (action: 'partition' | 'repair') => act(z.strictObject({ node }).nullable(), (v) => ({ action, node: v?.node }));
const downFor = z.strictObject({ downFor: duration.optional() }).nullable();
const podOnly = z.strictObject({ pod: podRef });
const onPod = z.strictObject({ pod: podRef, container: containerName, node });
const probeAnswer = z.strictObject({ pod: podRef, container: containerName, value: z.boolean(), node });

/** Every timeline action, by its key in the step map. */
export const ACTIONS = {
  create: act(podOnly, (v) => ({ action: 'create', pod: v.pod })),
  delete: act(z.strictObject({ pod: podRef, gracePeriodSeconds: z.int().min(0).max(MAX_SECONDS).optional() }), (v) => ({ action: 'delete', ...v })),
  recreate: act(podOnly, (v) => ({ action: 'recreate', pod: v.pod })),
  externalPatch: act(z.strictObject({ pod: podRef, status: status(false) }), (v) => ({ action: 'externalPatch', ...v })),
  restartApiserver: act(downFor, (v) => ({ action: 'restartApiserver', downForMs: v?.downFor ?? 0 })),
  partition: bare('partition'),
  repair: bare('repair'),
  fail: act(
    z
      .strictObject({
        node,
        verbs: z.array(verb).min(1),
        code: z.literal([404, 409, 429, 500, 'timeout']),
        count: z.int().min(1).optional(),
        for: positiveDuration.optional(),
        retryAfter: z.int().min(0).max(3600).optional().meta({ description: 'the answer carries Retry-After: N seconds (429 and 500 only): the client retries it as client-go does' }),
      })
      .refine((v) => v.count === undefined || v.for === undefined, {
        path: ['for'],
        message: 'give `count` or `for`, not both',
        params: { code: 'INVALID_VALUE', expected: 'either count or for' },
      })
      .refine((v) => v.retryAfter === undefined || v.code === 429 || v.code === 500, {
        path: ['retryAfter'],
        message: 'only a 429 or a 500 answer carries a Retry-After the client acts on',
        params: { code: 'INVALID_VALUE', expected: 'code 429 or 500 with retryAfter' },
      }),
    (v) => ({ action: 'fail', node: v.node, verbs: v.verbs, code: v.code, count: v.count, forMs: v.for, retryAfter: v.retryAfter }),
  ),
  // the map form may name a node: that node's link only (else every node's)
  latency: act(z.union([z.strictObject({ node: dnsSubdomain.optional(), ...latencyVerbs }), range]), (v) => {
    if ('minMs' in v) return { action: 'latency', latency: toLatency(v) };
    const { node, ...verbs } = v;
    return node === undefined ? { action: 'latency', latency: toLatency(verbs) } : { action: 'latency', node, latency: toLatency(verbs) };
  }),
  createMirror: act(podOnly, (v) => ({ action: 'createMirror', pod: v.pod })),
  deleteMirror: act(podOnly, (v) => ({ action: 'deleteMirror', pod: v.pod })),
  exit: act(
    z.strictObject({ pod: podRef, container: containerName, code: z.int().min(0).max(255), reason: z.string().optional(), message: z.string().optional(), node }),
    (v) => ({ action: 'exit', ...v }),
  ),
  oom: act(onPod, (v) => ({ action: 'oom', ...v })),
  ready: act(probeAnswer, (v) => ({ action: 'ready', ...v })),
  started: act(probeAnswer, (v) => ({ action: 'started', ...v })),
  live: act(probeAnswer, (v) => ({ action: 'live', ...v })),
  addEphemeralContainer: act(z.strictObject({ pod: podRef, container }), (v) => ({ action: 'addEphemeralContainer', pod: v.pod, container: v.container as Container })),
  forgetContainer: act(onPod, (v) => ({ action: 'forgetContainer', ...v })),
  wipeRuntime: act(z.strictObject({ node }).nullable(), (v) => ({ action: 'wipeRuntime', node: v?.node })),
  restartRuntime: act(z.strictObject({ downFor: duration, node }), (v) => ({ action: 'restartRuntime', downForMs: v.downFor, node: v.node })),
  networkPluginDown: act(z.strictObject({ downFor: duration, node }), (v) => ({ action: 'networkPluginDown', downForMs: v.downFor, node: v.node })),
  interruptStart: act(onPod, (v) => ({ action: 'interruptStart', ...v })),
  dropPlegEvent: act(
    z.strictObject({ pod: podRef, container: containerName.optional(), event: z.enum(['ContainerStarted', 'ContainerDied', 'ContainerRemoved']).optional(), count: z.int().min(1).optional(), node }),
    (v) => ({ action: 'dropPlegEvent', pod: v.pod, container: v.container, event: v.event, count: v.count ?? 1, node: v.node }),
  ),
  removeStaticPod: act(podOnly, (v) => ({ action: 'removeStaticPod', pod: v.pod })),
  addStaticPod: act(podOnly, (v) => ({ action: 'addStaticPod', pod: v.pod })),
  scrapeKubeletPods: act(z.strictObject({ every: positiveDuration.optional(), for: positiveDuration.optional(), node }).nullable(), (v) => ({
    action: 'scrapeKubeletPods',
    everyMs: v?.every,
    forMs: v?.for,
    node: v?.node,
  })),
  gcContainers: act(z.strictObject({ pod: podRef.optional(), container: containerName.optional(), node }).nullable(), (v) => ({ action: 'gcContainers', pod: v?.pod, container: v?.container, node: v?.node })),
  restartKubelet: act(
    z
      .strictObject({ downFor: duration.optional(), node, nodes: z.union([z.literal('all'), z.array(dnsSubdomain).min(1)]).optional().meta({ description: 'restart these nodes\' kubelets together: all, or a list of names' }) })
      .refine((v) => v.node === undefined || v.nodes === undefined, { path: ['nodes'], message: 'give `node` or `nodes`, not both', params: { code: 'INVALID_VALUE', expected: 'either node or nodes' } })
      .nullable(),
    (v) => ({ action: 'restartKubelet', downForMs: v?.downFor ?? 0, node: v?.node, nodes: v?.nodes }),
  ),
  evict: act(
    z.strictObject({
      pod: podRef,
      signal: z.enum(EVICTION_SIGNALS),
      soft: z.boolean().optional().meta({ description: 'a soft threshold was met: the grace is maxPodGracePeriod (else a hard one: 1 s)' }),
      maxPodGracePeriod: z.int().min(0).max(MAX_SECONDS).optional().meta({ description: "the kubelet's evictionMaxPodGracePeriod in seconds (default 0)" }),
      threshold: z.string().optional(),
      available: z.string().optional(),
      node,
    }),
    (v) => ({ action: 'evict', pod: v.pod, signal: v.signal, soft: v.soft, maxPodGracePeriodSeconds: v.maxPodGracePeriod, threshold: v.threshold, available: v.available, node: v.node }),
  ),
  nodeShutdown: act(
    z
      .strictObject({
        gracePeriod: duration,
        criticalPodsGracePeriod: duration.optional(),
        powerOffDelay: duration.optional().meta({ description: 'from the inhibitor lock released (or logind done waiting) to the power-off: systemd stopping units (default 0)' }),
        node,
      })
      .refine((v) => (v.criticalPodsGracePeriod ?? 0) <= v.gracePeriod, {
        path: ['criticalPodsGracePeriod'],
        message: 'criticalPodsGracePeriod is longer than gracePeriod (the kubelet would then shut nothing down gracefully)',
        params: { code: 'INVALID_VALUE', expected: 'criticalPodsGracePeriod <= gracePeriod' },
      }),
    (v) => ({ action: 'nodeShutdown', gracePeriodSeconds: Math.floor(v.gracePeriod / 1000), criticalPodsGracePeriodSeconds: Math.floor((v.criticalPodsGracePeriod ?? 0) / 1000), powerOffDelayMs: v.powerOffDelay, node: v.node }),
  ),
  sigkillNoExit: act(onPod, (v) => ({ action: 'sigkillNoExit', ...v })),
  stopFails: act(z.strictObject({ pod: podRef, container: containerName, for: duration, node }), (v) => ({ action: 'stopFails', pod: v.pod, container: v.container, forMs: v.for, node: v.node })),
  setPodStatus: act(z.strictObject({ pod: podRef, status: status(false) }), (v) => ({ action: 'setPodStatus', ...v })),
  setContainerReadiness: act(z.strictObject({ pod: podRef, container: containerName, ready: z.boolean() }), (v) => ({
    action: 'setContainerReadiness',
    ...v,
  })),
  setContainerStartup: act(z.strictObject({ pod: podRef, container: containerName, started: z.boolean() }), (v) => ({
    action: 'setContainerStartup',
    ...v,
  })),
  terminatePod: act(podOnly, (v) => ({ action: 'terminatePod', pod: v.pod })),
  removeOrphanedStatuses: act(z.strictObject({ keep: z.array(podRef), node }), (v) => ({ action: 'removeOrphanedStatuses', keep: v.keep, node: v.node })),
  syncBatch: act(z.strictObject({ all: z.boolean().optional(), node }).nullable(), (v) => ({ action: 'syncBatch', all: v?.all ?? true, node: v?.node })),
  markDeleted: act(podOnly, (v) => ({ action: 'markDeleted', pod: v.pod })),
  setDeletionSafety: act(
    z.strictObject({ pod: podRef.optional(), podResourcesReclaimed: z.boolean().optional(), podCouldHaveRunningContainers: z.boolean().optional(), node }).nullable(),
    (v) => ({ action: 'setDeletionSafety', ...v }),
  ),
  setApiStatusVersion: act(z.strictObject({ pod: podRef, version: z.int().min(0) }), (v) => ({ action: 'setApiStatusVersion', ...v })),
  ...NODE_OBJECT_ACTIONS,
} satisfies Record<StepAction['action'], z.ZodType>;

/** Actions that act on the simulated node, so they need `runtime: simulated`. */
export const NODE_ACTIONS = new Set(['exit', 'oom', 'ready', 'started', 'live', 'forgetContainer', 'wipeRuntime', 'interruptStart', 'dropPlegEvent', 'gcContainers', 'removeStaticPod', 'addStaticPod', 'scrapeKubeletPods', 'evict', 'nodeShutdown', 'sigkillNoExit', 'stopFails', 'restartRuntime', 'networkPluginDown']);

function oneOfKeys(fixed: Record<string, z.ZodType>, choices: Record<string, z.ZodType>) {
  const shape: Record<string, z.ZodType> = { ...fixed };
  for (const [k, s] of Object.entries(choices)) shape[k] = s.optional();
  return z.strictObject(shape);
}

export const step = oneOfKeys({ at: duration }, ACTIONS).meta({ description: 'a timeline step: `at` and exactly one action', minProperties: 2, maxProperties: 2 });

// ---- expect ----

const count = z.int().min(0);
/** A scalar expectation: the value itself, or {$ne: value}, or {$exists: bool} (absent, never set). */
const scalar = <T extends z.ZodType>(s: T) =>
  z.union([s, z.strictObject({ $ne: s }), z.strictObject({ $exists: z.boolean() })]).meta({ description: 'a value, {$ne: value} or {$exists: bool}' });
const body = <T extends z.ZodType>(s: T, f: (v: z.output<T>) => AssertionBody) => s.transform(f);
const window = { from: duration.optional(), to: duration.optional() };
const fromBeforeTo = (v: { from?: number; to?: number }) => v.from === undefined || v.to === undefined || v.from <= v.to;
const fromToRule = { path: ['to'], message: '`to` is before `from`', params: { code: 'BAD_RANGE', expected: 'to >= from' } };

/** A latency bound: a duration (at most) or {min, max}. */
const bound = z
  .union([duration.transform((d) => ({ maxMs: d })), z.strictObject({ min: duration.optional(), max: duration.optional() }).transform((b) => ({ minMs: b.min, maxMs: b.max }))])
  .meta({ description: 'at most a duration, or {min, max}' });

/** Every assertion kind, by its key in the assertion map. */
export const ASSERTIONS = {
  apiserver: body(
    z.strictObject({
      pod: podRef,
      at: duration.optional(),
      exists: z.boolean().optional(),
      uid: scalar(z.string()).optional(),
      status: status(true).optional(),
      deletionTimestamp: z.enum(['set', 'unset']).optional(),
    }),
    ({ at, ...v }) => ({ kind: 'apiserver', ...v, atMs: at }),
  ),
  kubelet: body(
    z.strictObject({
      pod: podRef,
      at: duration.optional(),
      cached: z.boolean().optional(),
      version: scalar(count).optional(),
      apiStatusVersion: scalar(count).optional(),
      status: status(true).optional(),
    }),
    ({ at, ...v }) => ({ kind: 'kubelet', ...v, atMs: at }),
  ),
  requests: body(
    z
      .strictObject({ pod: podRef.optional(), node, verbs: z.array(verb).optional(), count: z.strictObject({ get: count, patch: count, delete: count, create: count }).partial().optional(), ...window })
      .refine((v) => v.pod !== undefined || v.node !== undefined, { message: 'give `pod` or `node` (or both)', params: { code: 'MISSING_FIELD', expected: 'pod or node' } })
      .refine((v) => v.verbs !== undefined || v.count !== undefined, { message: 'give `verbs` or `count`', params: { code: 'MISSING_FIELD', expected: 'verbs or count' } })
      .refine((v) => v.verbs === undefined || v.count === undefined, {
        path: ['count'],
        message: 'give `verbs` or `count`, not both',
        params: { code: 'INVALID_VALUE', expected: 'either verbs or count' },
      })
      .refine(fromBeforeTo, fromToRule),
    ({ from, to, ...v }) => ({ kind: 'requests', ...v, fromMs: from, toMs: to }),
  ),
  log: body(z.strictObject({ contains: z.string().min(1), pod: podRef.optional(), count: count.optional() }), (v) => ({ kind: 'log', ...v })),
  events: body(
    z
      .strictObject({ type: z.string().min(1), pod: podRef.optional(), where: z.record(z.string(), z.unknown()).optional(), count: count.optional(), min: count.optional(), ...window })
      .refine((v) => v.count === undefined || v.min === undefined, {
        path: ['min'],
        message: 'give `count` or `min`, not both',
        params: { code: 'INVALID_VALUE', expected: 'either count or min' },
      })
      .refine(fromBeforeTo, fromToRule),
    ({ from, to, ...v }) => ({ kind: 'events', ...v, fromMs: from, toMs: to }),
  ),
  converged: body(z.strictObject({ within: duration }), (v) => ({ kind: 'converged', withinMs: v.within })),
  violation: body(z.strictObject({ invariant: z.enum(INVARIANT_NAMES), pod: podRef.optional() }), (v) => ({ kind: 'violation', ...v })),
  podStartup: body(
    z.strictObject({ of: z.enum(['running', 'ready']).optional(), count: count.optional(), p50: bound.optional(), p99: bound.optional(), max: bound.optional() }),
    (v) => ({ kind: 'podStartup', ...v, of: v.of ?? 'running' }),
  ),
  requestRate: body(
    z.strictObject({ verb: z.enum([...VERBS, 'event', 'token']), max: count, window: positiveDuration.optional(), node, ...window }).refine(fromBeforeTo, fromToRule),
    ({ from, to, window: w, ...v }) => ({ kind: 'requestRate', ...v, windowMs: w ?? 1000, fromMs: from, toMs: to }),
  ),
} satisfies Record<AssertionBody['kind'], z.ZodType>;

const assertion = oneOfKeys({}, ASSERTIONS).meta({ description: 'an assertion: exactly one kind', minProperties: 1, maxProperties: 1 });

// ---- the document ----

export const FEATURE_GATES = ['PodDisruptionConditions', 'PodReadyToStartContainersCondition', 'SidecarContainers', 'ChangeContainerStatusOnKubeletRestart', 'RecursiveReadOnlyMounts'] as const;

const kubelet = z.strictObject({
  nodeName: dnsSubdomain.optional(),
  statusManager: z.enum(['current', 'transitional', 'classic']).optional(),
  syncPeriod: positiveDuration.optional(),
  statusChannelCapacity: z.int().min(0).optional(),
  runtime: z.enum(['simulated', 'none']).optional(),
  plegRelistPeriod: positiveDuration.optional(),
  apiQPS: z.number().positive().max(1e6).optional(),
  apiBurst: z.int().min(1).optional(),
  events: z
    .strictObject({ sharedClient: z.boolean().optional(), eventRecordQPS: z.number().positive().optional(), eventBurst: z.int().min(1).optional(), podInfraContainer: z.boolean().optional() })
    .optional(),
  requestTimeout: positiveDuration.optional(),
  deletionSafety: z.strictObject({ podResourcesReclaimed: z.boolean().optional(), podCouldHaveRunningContainers: z.boolean().optional() }).nullish(),
  featureGates: z.strictObject(Object.fromEntries(FEATURE_GATES.map((g) => [g, z.boolean().optional()])) as Record<(typeof FEATURE_GATES)[number], z.ZodOptional<z.ZodBoolean>>).nullish(),
  /** Upstream fixes taken back out (the bug zoo; `kss fixes` lists them). */
  revertFixes: z.array(z.enum(FIX_NAMES)).nullish(),
  /** Fixes proposed upstream and never merged, put in (the bug zoo; `kss fixes` lists them). */
  proposedFixes: z.array(z.enum(PROPOSED_FIX_NAMES)).nullish(),
  /** The bounded-staleness invariant's base bound (it adds the client's QPS share). */
  stalenessBound: positiveDuration.optional(),
  /** --serialize-image-pulls: one image pull at a time (default true). */
  serializeImagePulls: z.boolean().optional(),
  /** node.status.allocatable for the predicate admit handler (absent: no limit). */
  allocatable: z.strictObject({ cpu: quantity.optional(), memory: quantity.optional(), 'ephemeral-storage': quantity.optional(), pods: z.int().min(0).optional() }).optional(),
});

/** Any RFC 3339 instant from year 1000 to 8999: with runs and `@` offsets of up to 100 years, every
 *  instant of a run is still a 4-digit year. */
const epoch = value({ type: 'string', description: 'RFC 3339 time of virtual 0s (years 1000 to 8999)' }, (v) => {
  const ms = typeof v === 'string' ? parseRfc3339(v) : undefined;
  if (ms === undefined) return new Refusal('INVALID_VALUE', 'an RFC 3339 time like "2026-01-01T00:00:00Z"');
  return ms >= YEAR_1000 && ms < YEAR_9000 ? (v as string) : new Refusal('INVALID_VALUE', 'an RFC 3339 time from year 1000 to 8999');
});

export const specSchema = z.strictObject({
  seed: z.int().optional(),
  epoch: epoch.optional(),
  until: positiveDuration.optional(),
  kubelet: kubelet.nullish(),
  nodes: z
    .array(
      z
        .strictObject({
          name: dnsSubdomain,
          zone: labelValue.optional().meta({ description: "the node's topology.kubernetes.io/zone label: the node lifecycle controller's zone (with region)" }),
          region: labelValue.optional().meta({ description: "the node's topology.kubernetes.io/region label" }),
          labels: labels.optional().meta({ description: "the Node's labels (node.kubernetes.io/exclude-disruption: the node counts in no zone's state; the topology labels: its zone, as zone and region give them)" }),
          kubelet: kubelet.omit({ nodeName: true, statusManager: true }).nullish(),
        })
        .superRefine(zoneGivenOnce),
    )
    .min(1)
    .nullish()
    .meta({ description: "the cluster's nodes, each with its kubelet (over spec.kubelet's settings); the first is the default node; absent: the one node of spec.kubelet" }),
  apiserver: apiserver.nullish(),
  nodeLifecycle: nodeLifecycle.nullish().meta({ description: 'the node lifecycle: the kubelet heartbeats (Lease, node status) and the node lifecycle controller with taint-based eviction; absent: none' }),
  pods: z.array(pod).nullish(),
  staticPods: z.array(pod).nullish(),
  timeline: z.array(step).nullish(),
  expect: z.array(assertion).nullish(),
  invariants: z.union([z.enum(['all', 'none']), z.array(z.enum(INVARIANT_NAMES))]).optional(),
  pinned: z
    .array(z.enum(['seed', 'statusManager']))
    .optional()
    .meta({ description: 'settings the scenario holds under only its own value: kss test --seed/--seeds and --status-manager run it once as written (seed) or skip it (statusManager), with a note; say why in a comment' }),
  'x-kss': z.record(z.string(), z.unknown()).optional(),
  explore: z
    .strictObject({ faults: z.array(z.enum(EXPLORE_FAULT_KINDS)).optional(), window: range.optional(), maxFaults: z.int().min(0).optional() })
    .nullish(),
});

export const scenarioSchema = z
  .strictObject({
    apiVersion: z.literal('kss/v1alpha1'),
    kind: z.literal('Scenario'),
    metadata: z.strictObject({ name: dnsLabel, description: z.string().optional(), tags: z.array(z.string()).nullish() }),
    spec: specSchema.nullish(),
  })
  .meta({ title: 'kss scenario (kss/v1alpha1)' });

export type RawScenario = z.output<typeof scenarioSchema>;
export type RawPod = z.output<typeof pod>;
