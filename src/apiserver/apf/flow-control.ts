// The apiserver under load: how long a request takes to serve, and (optionally) API Priority and
// Fairness in front of it — a port of the APF filter (k8s.io/apiserver/pkg/util/flowcontrol/
// apf_filter.go Handle, and server/filters/priority-and-fairness.go for the 429), v1.26–v1.30.
//
// Service time: a request that starts executing while n others are executing takes
// base + perInflight × n ms (serviceTime; both 0 by default: served the instant it arrives).
// With APF: the request is classified (flow schema → priority level; the flow is the schema and
// its distinguisher, the user for the kubelet's system:node:<name>), and the level's queue set
// (queueset.ts) runs it when a seat is free. A request rejected — its queue full while every seat
// is taken, or still waiting when its wait limit passes — is answered 429 with a Retry-After
// (dropped-requests.ts). An exempt level, and a run without APF, never queue.
import type { Engine, Timer } from '../../engine/engine.js';
import type { ApiResult } from '../../model/client.js';
import type { Actor, Tracer } from '../../model/trace.js';
import type { ApfConfig, ApfLevelConfig, ServiceTimeConfig } from '../../scenario/types.js';
import {
  classify,
  DEFAULT_FLOW_SCHEMAS,
  DEFAULT_PRIORITY_LEVELS,
  DEFAULT_REQUEST_WAIT_LIMIT_MS,
  DEFAULT_SERVER_CONCURRENCY,
  flowDistinguisher,
  nominalConcurrency,
  type FlowSchemaSpec,
  type PriorityLevelSpec,
  type RequestDigest,
} from './bootstrap.js';
import { DroppedRequestsTracker } from './dropped-requests.js';
import { QueueSet, type QueuedRequest } from './queueset.js';
import { hashFlowID } from './shuffle-sharding.js';

export const DEFAULT_APF: ApfConfig = {
  serverConcurrency: DEFAULT_SERVER_CONCURRENCY,
  requestWaitLimitMs: DEFAULT_REQUEST_WAIT_LIMIT_MS,
  retryAfter: 'dynamic',
  nodeHigh: true,
  levels: {},
};

export type { ApfConfig, ApfLevelConfig, ServiceTimeConfig };

export interface LoadConfig {
  serviceTime?: ServiceTimeConfig;
  apf?: ApfConfig;
}

/** What the request's side of the link does with the apiserver's decision. */
export interface AdmissionHandlers {
  /** The request starts executing; it takes serviceMs; call done() when it has. */
  execute(serviceMs: number, done: () => void): void;
  /** The request is refused: answer this (a 429 with retryAfterSeconds). */
  reject(result: ApiResult<never>): void;
}

/** For the 429's trace record: what the request was. */
export interface RequestLabel {
  actor: Actor;
  /** api.error's own fields: verb, and pod or node. */
  fields: Record<string, unknown>;
}

export interface Admission {
  /** The client went away: a request still waiting in its queue leaves it. */
  cancel(): void;
}

const TOO_MANY = 'the server has received too many requests and has asked us to try again later';
const NO_ADMISSION: Admission = { cancel() {} };

interface Level {
  readonly spec: PriorityLevelSpec;
  readonly qs: QueueSet | null; // null: exempt
}

export class ApiServerLoad {
  /** Requests executing now, over every level. */
  inflight = 0;
  /** 429s answered, by priority level. */
  readonly rejectedByLevel = new Map<string, number>();
  private readonly levels_ = new Map<string, Level>();
  private readonly dropped = new DroppedRequestsTracker();
  private readonly flows = new Map<string, bigint>();
  private schemas: readonly FlowSchemaSpec[] = DEFAULT_FLOW_SCHEMAS;

  constructor(private readonly engine: Engine, private readonly tracer: Tracer, readonly cfg: LoadConfig) {
    const apf = cfg.apf;
    if (apf === undefined) return;
    // Without node-high (before v1.22) the Lease and node status fall to system-nodes as well.
    const specs = DEFAULT_PRIORITY_LEVELS.filter((l) => apf.nodeHigh || l.name !== 'node-high').map((l) => ({ ...l, ...pick(levelOf(apf, l.name)) }));
    this.schemas = apf.nodeHigh ? DEFAULT_FLOW_SCHEMAS : DEFAULT_FLOW_SCHEMAS.filter((fs) => fs.name !== 'system-node-high');
    const nominal = nominalConcurrency(specs, apf.serverConcurrency);
    for (const spec of specs) {
      const seats = levelOf(apf, spec.name)?.seats ?? nominal.get(spec.name) ?? 0;
      const qs = spec.exempt ? null : new QueueSet({ name: spec.name, queues: spec.queues, handSize: spec.handSize, queueLengthLimit: spec.queueLengthLimit, concurrencyLimit: seats }, engine.nowMs);
      this.levels_.set(spec.name, { spec, qs });
    }
  }

  /** The limited levels and their queue sets, in the bootstrap order (kss inspect). */
  levels(): Array<{ name: string; qs: QueueSet }> {
    const out: Array<{ name: string; qs: QueueSet }> = [];
    for (const [name, l] of this.levels_) if (l.qs !== null) out.push({ name, qs: l.qs });
    return out;
  }

  /** A level's queue set (tests, reports); undefined for exempt or unknown levels. */
  queueSet(level: string): QueueSet | undefined {
    return this.levels_.get(level)?.qs ?? undefined;
  }

  /** The request reaches the apiserver now. */
  admit(digest: RequestDigest, label: RequestLabel, h: AdmissionHandlers): Admission {
    const apf = this.cfg.apf;
    if (apf === undefined) {
      this.run(h, () => {});
      return NO_ADMISSION;
    }
    const fs = classify(this.schemas, digest);
    const level = this.levels_.get(fs.priorityLevel)!;
    if (level.qs === null) {
      this.run(h, () => {});
      return NO_ADMISSION;
    }
    const qs = level.qs;
    const flow = this.flowHash(fs.name, flowDistinguisher(fs, digest));
    let timer: Timer | null = null;
    const r = qs.start(this.engine.nowMs, flow, (req) => {
      timer?.cancel();
      timer = null;
      this.run(h, () => qs.finish(this.engine.nowMs, req));
    });
    if (typeof r === 'string') {
      this.refuse(h, label, fs.name, level.spec.name, r);
      return NO_ADMISSION;
    }
    if (r.state === 'waiting') {
      timer = this.engine.at(this.engine.nowMs + apf.requestWaitLimitMs, () => {
        timer = null;
        if (qs.cancel(this.engine.nowMs, r, 'time-out')) this.refuse(h, label, fs.name, level.spec.name, 'time-out');
      });
    }
    return {
      cancel: () => {
        if (qs.cancel(this.engine.nowMs, r, 'cancel')) {
          timer?.cancel();
          timer = null;
        }
      },
    };
  }

  private run(h: AdmissionHandlers, finished: () => void): void {
    const st = this.cfg.serviceTime;
    const serviceMs = st === undefined ? 0 : Math.max(0, Math.round(st.baseMs + st.perInflightMs * this.inflight));
    this.inflight++;
    h.execute(serviceMs, () => {
      this.inflight--;
      finished();
    });
  }

  private refuse(h: AdmissionHandlers, label: RequestLabel, flowSchema: string, level: string, reason: string): void {
    const now = this.engine.nowMs;
    const fixed = this.cfg.apf!.retryAfter;
    this.dropped.recordDroppedRequest(level, now);
    const retryAfter = fixed === 'dynamic' ? this.dropped.getRetryAfter(level) : fixed;
    this.rejectedByLevel.set(level, (this.rejectedByLevel.get(level) ?? 0) + 1);
    this.tracer.emit({ type: 'api.error', actor: label.actor, ...label.fields, code: 429, message: TOO_MANY, retryAfter, flowSchema, priorityLevel: level, reason });
    h.reject({ ok: false, code: 429, message: TOO_MANY, retryAfterSeconds: retryAfter });
  }

  private flowHash(fs: string, distinguisher: string): bigint {
    const k = `${fs}\u0000${distinguisher}`;
    let h = this.flows.get(k);
    if (h === undefined) this.flows.set(k, (h = hashFlowID(fs, distinguisher)));
    return h;
  }
}

function levelOf(apf: ApfConfig, name: string): ApfLevelConfig | undefined {
  return (apf.levels as Record<string, ApfLevelConfig | undefined>)[name];
}

function pick(o: ApfLevelConfig | undefined): Partial<PriorityLevelSpec> {
  if (o === undefined) return {};
  const out: { -readonly [K in keyof PriorityLevelSpec]?: PriorityLevelSpec[K] } = {};
  if (o.shares !== undefined) out.shares = o.shares;
  if (o.queues !== undefined) out.queues = o.queues;
  if (o.handSize !== undefined) out.handSize = o.handSize;
  if (o.queueLengthLimit !== undefined) out.queueLengthLimit = o.queueLengthLimit;
  return out;
}
