// The vocabulary of `kss explore`: injected faults, one run's plan, a find and its signature, the
// options and the report. Plain data only, so plans and finds cross worker threads as they are.
import { DEFAULT_EXPLORE_FAULT_KINDS, EXPLORE_FAULT_KINDS, type ExploreFaultKind, type Verb } from '../scenario/types.js';
export type { ExploreSpec } from '../scenario/types.js';

/** The fault kinds explore may inject, each as explicit timeline steps of the scenario format. */
export const FAULT_KINDS = EXPLORE_FAULT_KINDS;
/** The kinds drawn when the scenario names none. */
export const DEFAULT_FAULT_KINDS = DEFAULT_EXPLORE_FAULT_KINDS;
export type FaultKind = ExploreFaultKind;

/** One injected fault. `atMs` is when it starts; a partition also says when it is repaired. With
 *  spec.nodes the node-level ones (a partition, a kubelet restart, injected failures, a slow link)
 *  name the node they hit (absent: the default node, the one node of a one-node scenario; a
 *  latency without a node slows every link). */
export type Fault =
  | { kind: 'partition'; atMs: number; forMs: number; node?: string }
  | { kind: 'restartApiserver'; atMs: number; downForMs: number }
  | { kind: 'restartKubelet'; atMs: number; downForMs: number; node?: string }
  | { kind: 'fail'; atMs: number; verbs: Verb[]; code: 409 | 429 | 500 | 'timeout'; count: number; node?: string }
  | { kind: 'latency'; atMs: number; minMs: number; maxMs: number; forMs: number; node?: string }
  | { kind: 'externalPatch'; atMs: number; pod: string; condition: 'Ready' | 'ContainersReady'; value: 'True' | 'False' }
  | { kind: 'delete'; atMs: number; pod: string; gracePeriodSeconds: number }
  | { kind: 'restartRuntime'; atMs: number; downForMs: number; node?: string }
  | { kind: 'networkPluginDown'; atMs: number; downForMs: number; node?: string }
  | { kind: 'stopFails'; atMs: number; pod: string; container: string; forMs: number }
  | { kind: 'evict'; atMs: number; pod: string; signal: 'memory.available' | 'nodefs.available'; maxPodGracePeriodSeconds?: number };


/** Everything that differs between two runs of one scenario. */
export interface RunPlan {
  /** The run's index in the whole search (shards and workers split these). */
  run: number;
  seed: number;
  faults: Fault[];
  /** Same-instant ties are choice points (left in insertion order unless a deviation says). */
  ties?: boolean;
  /** Choices that differ from the default run: [index in the run's choice log, value]. */
  deviations?: Array<[number, number]>;
  /** A PCT run: the priority stream and the tie points where priorities change. */
  pct?: { seed: number; depth: number; changePoints: number[] };
}

/** The reductions of a scenario that shrinking tries; the identity when every set is empty. */
export interface Reduction {
  /** Indices into scenario.pods that are left out. */
  dropPods: number[];
  /** Indices into scenario.timeline that are left out. */
  dropSteps: number[];
  /** "podIndex/container" of containers left out. */
  dropContainers: string[];
  /** A new instant (ms) for original timeline steps, by index. */
  stepAt: Record<number, number>;
  untilMs?: number;
}

export type Oracle = 'invariants' | 'expect' | 'both';

/** "The same failure": what broke, for which pod role, after which kind of event. */
export interface Signature {
  oracle: 'invariant' | 'expect';
  /** The invariant's name, or the failing assertion's kind (`converged`). */
  name: string;
  /** The pod's role: its name without namespace and without a trailing ordinal (`web-2` → `web`). */
  role: string;
  /** The type of the event that showed the failure (`api.patch`, `liveness`, the assertion kind). */
  event: string;
  /** The pod ("ns/name") or "" (not part of the key). */
  pod: string;
}

export interface Coverage {
  /** Distinct (pod, sequence of apiserver statuses) histories, as short hashes. */
  statusHistories: string[];
  /** Distinct fault-kind sets (swarm configurations) tried. */
  faultSets: string[];
  /** Distinct choice prefixes (when runs are driven by choices). */
  choicePrefixes: string[];
  /** For exhaustive: whether the bounded space was exhausted. */
  exhausted?: boolean;
}

/** A find as the search records it, before shrinking. */
export interface RawFind {
  key: string;
  signature: Signature;
  count: number;
  /** The first run that failed this way, and its plan. */
  plan: RunPlan;
}

export interface ShrunkFind {
  id: string;
  key: string;
  signature: Signature;
  count: number;
  firstRun: number;
  seed: number;
  original: { faults: number; steps: number; pods: number };
  shrunk: { faults: number; steps: number; pods: number; untilMs: number; choices: number };
  shrinkRuns: number;
  /** Paths relative to the output folder, when one was given. */
  file?: string;
  /** When the find still needs choices: the `--choices` file beside the scenario, and its text. */
  choicesFile?: string;
  choices?: string;
  yaml: string;
  explanation: string;
  issue: string;
  trace: string;
  replay: string;
}

export interface ExploreOptions {
  runs?: number;
  /** Wall-clock budget in ms (instead of runs); the runs done are always a prefix. */
  timeMs?: number;
  strategy?: 'random' | 'pct' | 'exhaustive';
  seed?: number;
  oracle?: Oracle;
  jobs?: number;
  shard?: { index: number; total: number };
  /** PCT depth (priority-change points + 1). */
  depth?: number;
  /** Exhaustive: most non-default choices per run (default 2). */
  maxDeviations?: number;
  shrink?: boolean;
  /** Called now and then with progress (wall-clock; for display only). */
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  runs: number;
  total?: number;
  finds: number;
  histories: number;
  elapsedMs: number;
}

export interface ExploreStats {
  runs: number;
  failingRuns: number;
  coverage: { statusHistories: number; faultSets: number; choicePrefixes: number; exhausted?: boolean };
  /** pct: the depth, the tie points k and event sources n of the scenario as written, and the
   *  probability bound 1/(n·k^(d−1)) per run. */
  pct?: { depth: number; ties: number; sources: number; bound: number };
}

/** What one shard (or one whole search) hands back; report.json holds it. */
export interface ExploreReport {
  kss: string;
  scenario: { name: string; file: string; sha256: string };
  strategy: string;
  seed: number;
  oracle: Oracle;
  runsRequested?: number;
  shard: { index: number; total: number };
  stats: ExploreStats;
  /** Kept so that shard reports merge into exactly one run's report. */
  coverage: Coverage;
  finds: Array<Omit<ShrunkFind, 'yaml' | 'explanation' | 'issue' | 'trace' | 'choices'>>;
}
