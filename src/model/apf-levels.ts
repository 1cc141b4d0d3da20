// The default API Priority and Fairness priority levels (k8s.io/apiserver/pkg/apis/flowcontrol/
// bootstrap/default.go, v1.22–v1.31; v1.20 and v1.21 lack node-high): plain data, read by the apiserver's flow control
// (apiserver/apf/) and by the scenario loader's checks of spec.apiserver.apf.priorityLevels.

export interface PriorityLevelSpec {
  readonly name: string;
  /** Exempt: never queued, never limited. */
  readonly exempt?: boolean;
  /** NominalConcurrencyShares (AssuredConcurrencyShares before v1.26). */
  readonly shares: number;
  /** LimitResponse Queue: queues > 0; Reject: queues 0 (no queuing: over the limit is a 429 at once). */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

const q = (name: string, shares: number, queues: number, handSize: number, queueLengthLimit = 50): PriorityLevelSpec => ({ name, shares, queues, handSize, queueLengthLimit });

/** The mandatory and suggested priority levels, in the order default.go lists them. */
export const DEFAULT_PRIORITY_LEVELS: readonly PriorityLevelSpec[] = [
  { name: 'exempt', exempt: true, shares: 0, queues: 0, handSize: 0, queueLengthLimit: 0 },
  q('system', 30, 64, 6),
  q('node-high', 40, 64, 6),
  q('leader-election', 10, 16, 4),
  q('workload-high', 40, 128, 6),
  q('workload-low', 100, 128, 6),
  q('global-default', 20, 128, 6),
  // catch-all: LimitResponse Reject (no queues)
  q('catch-all', 5, 0, 0, 0),
];

/** shufflesharding.go: a hand needs ceil(log2(deckSize) × handSize) bits of the 64-bit hash; at most 60. */
export const MAX_HASH_BITS = 60;

export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}
