// k8s.io/client-go/tools/leaderelection as kube-controller-manager runs it (--leader-elect, the
// default: leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s) with its callbacks
// (cmd/kube-controller-manager/app/controllermanager.go): the controllers run only in the leader,
// and a leader that cannot renew its lease for renewDeadline — the apiserver down that long —
// stops leading, and OnStoppedLeading exits the process ("leaderelection lost"). The kubelet
// restarts the static pod at once; the new process's candidate tries every retryPeriod (jittered
// by 1.2, wait.JitterUntil) and, once it has read the old leader's record, waits leaseDuration
// from that first reading (observedTime) before it takes the lease: the controllers start again
// from nothing (no health seen, no eviction scheduled). An outage shorter than renewDeadline
// leaves the leader in place.
import type { Engine, Proc, Rng, Timer } from '../engine/index.js';
import type { Tracer } from '../model/trace.js';
import { CONTROLLER } from './nodelifecycle/taint-eviction.js';

export const LEADER_LEASE_DURATION_MS = 15_000;
export const LEADER_RENEW_DEADLINE_MS = 10_000;
export const LEADER_RETRY_PERIOD_MS = 2_000;
/** wait.JitterUntil's factor for the candidate's tries */
export const LEADER_RETRY_JITTER = 1.2;

/** What a leader runs: started when it takes the lease, stopped when it loses it. */
export interface LeaderRun {
  stop(): void;
}

export interface LeaderElectionOptions {
  engine: Engine;
  rng: Rng;
  tracer: Tracer;
  /** Is the apiserver down now? */
  apiserverDown(): boolean;
  /** Start the controllers (first: as the run begins; after: a new process that took the lease). */
  run(restarted: boolean): LeaderRun;
}

export class LeaderElection {
  private leader: LeaderRun | null = null;
  private lostTimer: Timer | null = null;
  private candidate = false;

  constructor(private readonly o: LeaderElectionOptions) {}

  /** The first process takes the lease as the run begins. */
  start(): void {
    this.leader = this.o.run(false);
  }

  /** The apiserver went down (or came back). */
  availability(down: boolean): void {
    if (!down) {
      this.lostTimer?.cancel();
      this.lostTimer = null;
      return;
    }
    if (this.leader === null || this.lostTimer !== null) return;
    this.lostTimer = this.o.engine.after(LEADER_RENEW_DEADLINE_MS, () => {
      this.lostTimer = null;
      if (this.leader === null || !this.o.apiserverDown()) return;
      this.o.tracer.log('error', 'leaderelection lost', undefined, CONTROLLER);
      this.leader.stop();
      this.leader = null;
      this.campaign();
    });
  }

  /** The restarted process's candidate: tryAcquireOrRenew every jittered retryPeriod. */
  private campaign(): void {
    if (this.candidate) return;
    this.candidate = true;
    const self = this;
    this.o.engine.spawn('kube-controller-manager/leader-election', (function* (): Proc<void> {
      let observedMs: number | undefined;
      for (;;) {
        const now = self.o.engine.nowMs;
        if (!self.o.apiserverDown()) {
          if (observedMs === undefined) observedMs = now; // the old leader's record, first read
          else if (now >= observedMs + LEADER_LEASE_DURATION_MS) break;
        }
        yield Math.floor(LEADER_RETRY_PERIOD_MS * (1 + self.o.rng.float() * LEADER_RETRY_JITTER));
      }
      self.candidate = false;
      self.o.tracer.log('info', 'successfully acquired lease kube-system/kube-controller-manager', undefined, CONTROLLER);
      self.leader = self.o.run(true);
    })(), 'controller');
  }
}
