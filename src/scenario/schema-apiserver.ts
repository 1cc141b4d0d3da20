// The zod schema of spec.apiserver (scenario-format.md "The apiserver under load"): the request
// latency, the service time under load and API Priority and Fairness with its priority levels.
import { z } from 'zod';
import { duration, latency, positiveDuration } from './schema-values.js';
import { APF_LEVEL_NAMES } from './types.js';

const apfLevel = z.strictObject({
  shares: z.int().min(1).max(1_000_000).optional(),
  seats: z.int().min(1).max(1_000_000).optional().meta({ description: "the level's concurrency limit, instead of its nominal share of the server's" }),
  queues: z.int().min(0).max(1024).optional().meta({ description: '0: no queuing (over the limit is a 429 at once)' }),
  handSize: z.int().min(1).max(15).optional(),
  queueLengthLimit: z.int().min(1).max(1_000_000).optional(),
});

/** spec.apiserver: latency, and the apiserver under load (docs/scenario-format.md). */
export const apiserver = z.strictObject({
  latency: latency.optional(),
  serviceTime: z
    .strictObject({ base: duration.optional(), perInflight: duration.optional() })
    .nullish()
    .meta({ description: 'a request that starts while n others execute takes base + perInflight × n (absent: served the instant it arrives)' }),
  apf: z
    .strictObject({
      maxRequestsInflight: z.int().min(1).max(1_000_000).optional(),
      maxMutatingRequestsInflight: z.int().min(0).max(1_000_000).optional(),
      requestWaitLimit: positiveDuration.optional(),
      retryAfter: z.union([z.literal('dynamic'), z.int().min(1).max(3600)]).optional(),
      nodeHigh: z.boolean().optional().meta({ description: 'the node-high level for Leases and node status (v1.22+); default false for classic, true otherwise' }),
      priorityLevels: z.partialRecord(z.enum(APF_LEVEL_NAMES), apfLevel).optional(),
    })
    .nullish()
    .meta({ description: 'API Priority and Fairness for the requests the kubelet sends (absent: no flow control)' }),
});
