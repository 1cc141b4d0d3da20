// runScenario: set up a World, run it to the end, evaluate expectations and invariants, and return
// a verdict with the trace. The library entry point (`import { runScenario } from 'kubelet-status-sim'`).
import { isStaticPod } from '../model/pod.js';
import type { Assertion, Scenario, Variant } from '../scenario/types.js';
import { kubeletStatusEqual, type InvariantChecker } from '../invariants/index.js';
import { createInvariantCheckers } from './invariant-view.js';
import { AssertionRecords, evaluateNow, isPointInTime, type AssertionResult } from './assertions.js';
import type { TraceRecord } from './tracer.js';
import { World, type WorldOptions } from './world.js';
import type { KubeletIncarnation } from './kubelet-lifecycle.js';
import type { ChoiceEntry, DrivenInfo } from '../engine/index.js';
import { loadSummary, type LoadSummary } from './load-report.js';

export const TOOL_VERSION = '0.1.0';

/** Where a run's records go while it runs (`kss run --trace` streaming to its file): told the
 *  trace header once the World exists, before the first record, then every record. */
export interface TraceSink {
  start(header: Record<string, unknown>): void;
  record(r: TraceRecord): void;
}

export interface RunOptions extends WorldOptions {
  /** Streams the trace (the header, then every record). Not with `choices`: a driven run's
   *  header says how the run went, known only at its end. */
  traceSink?: TraceSink;
  /** Keep the convergence clock and summarise the request storm (RunResult.load): `kss run` asks
   *  for it for cluster runs. */
  load?: boolean;
}

export interface RunResult {
  scenario: { name: string; file: string; sha256: string };
  seed: number;
  variant: Variant;
  untilMs: number;
  /** The event limit the run had. */
  maxEvents: number;
  verdict: 'pass' | 'fail';
  /** How the run ended: at `until`, idle (nothing left to do), or stopped by the event limit. */
  end: 'until' | 'idle' | 'stopped' | 'runaway';
  endMessage?: string;
  assertions: AssertionResult[];
  /** Invariant violations no `violation` assertion expected. */
  unexpectedViolations: TraceRecord[];
  stepErrors: Array<{ index: number; line: number; message: string }>;
  events: number;
  traceEvents: number;
  trace: readonly TraceRecord[];
  world: World;
  /** The choices the run made, in order (with `choices.record`). */
  choices?: ChoiceEntry[];
  /** How the run was driven (with any `choices` option); absent for a plain seeded run. */
  driven?: DrivenInfo;
  /** The request storm (with RunOptions.load). */
  load?: LoadSummary;
}

/** The trace file's first line: every setting that changes the run (seed, generation, end
 *  time, event limit), and the scenario by name, file name and sha256 — never the path as given,
 *  so the same run gives the same bytes from any folder and however the path is spelled. A run
 *  driven by a choice log says how it was driven (a plain run's header has no `choices`). */
export function traceHeader(r: Pick<RunResult, 'scenario' | 'seed' | 'variant' | 'untilMs' | 'maxEvents'> & { driven?: DrivenInfo }): Record<string, unknown> {
  const file = r.scenario.file.split(/[\\/]/).pop() ?? r.scenario.file;
  const h: Record<string, unknown> = { kss: TOOL_VERSION, type: 'header', scenario: r.scenario.name, file, sha256: r.scenario.sha256, seed: r.seed, variant: r.variant, until: r.untilMs, maxEvents: r.maxEvents };
  if (r.driven !== undefined) h.choices = r.driven;
  return h;
}

export function traceSummary(r: RunResult): Record<string, unknown> {
  return {
    type: 'summary',
    verdict: r.verdict,
    end: r.end,
    events: r.events,
    traceEvents: r.traceEvents,
    failed: r.assertions.filter((a) => !a.ok).map((a) => a.index),
    violations: r.unexpectedViolations.length,
  };
}

/** Tracks the `converged` assertions: from their deadline on, every cached status must equal its
 *  apiserver status (as the kubelet judges equality) at the end of every instant. */
class ConvergenceTracker {
  private readonly pending: Array<{ a: Assertion & { kind: 'converged' }; deadline: number; broken?: string }> = [];
  constructor(private readonly w: World, assertions: Assertion[], lastStepMs: number) {
    for (const a of assertions) if (a.kind === 'converged') this.pending.push({ a, deadline: lastStepMs + a.withinMs });
  }
  get active(): boolean {
    return this.pending.length > 0;
  }
  check(t: number): void {
    let why: string | undefined | null = null; // null: not looked at yet in this instant
    for (const p of this.pending) {
      if (p.broken !== undefined || t < p.deadline) continue;
      if (why === null) why = this.divergenceNow();
      if (why !== undefined) p.broken = `at ${t}ms: ${why}`;
    }
  }
  /** When the cache and the apiserver last agreed: the trace's count, the apiserver's
   *  resourceVersion and the kubelet incarnation then (null: they did not, or never looked). */
  private agreedAt: { traced: number; rv: number; kubelet: World['kubelet'] } | null = null;
  /** divergence(w), taken as still undefined when nothing happened since the cache and the
   *  apiserver last agreed: no trace event (every change to the status cache, the pod manager or
   *  the apiserver's store traces one, counted even when nothing reads the trace), no write and
   *  the same kubelet. (A run converged from its deadline on is then checked once an instant
   *  in which anything happened, not at every instant.) */
  private divergenceNow(): string | undefined {
    const w = this.w;
    const a = this.agreedAt;
    if (a !== null && a.traced === w.tracer.count && a.rv === w.apiserver.resourceVersion && a.kubelet === w.kubelet) return undefined;
    const why = divergence(w);
    this.agreedAt = why === undefined ? { traced: w.tracer.count, rv: w.apiserver.resourceVersion, kubelet: w.kubelet } : null;
    return why;
  }
  results(): AssertionResult[] {
    return this.pending.map((p) => ({
      index: p.a.index,
      kind: 'converged' as const,
      line: p.a.pos.line,
      col: p.a.pos.col,
      ok: p.broken === undefined && this.w.untilMs >= p.deadline,
      message:
        p.broken !== undefined
          ? `not converged within ${p.a.withinMs}ms of the last step: ${p.broken}`
          : this.w.untilMs < p.deadline
            ? `the run ended at ${this.w.untilMs}ms, before the convergence deadline ${p.deadline}ms`
            : `converged by ${p.deadline}ms and stayed so`,
    }));
  }
}

/** For RunResult.load: from which instant on, after the last step, the kubelet has a status for
 *  every pod it runs, synced with the apiserver, and its cache and the apiserver agree
 *  (divergence() undefined), to the end;
 *  checked at the end of each instant in which anything was traced (once a virtual second for runs
 *  of more than 2,000 pods: each check reads every pod). */
class ConvergenceClock {
  private since: number | null = null;
  private seen = -1;
  private next = 0;
  readonly everyMs: number;
  constructor(private readonly w: World, private readonly lastStepMs: number) {
    this.everyMs = w.scenario.pods.length > 2000 ? 1000 : 0;
  }
  check(t: number): void {
    if (t < this.lastStepMs || this.w.tracer.count === this.seen || t < this.next) return;
    this.seen = this.w.tracer.count;
    this.next = t + this.everyMs;
    if (!this.allSynced() || divergence(this.w) !== undefined) this.since = null;
    else this.since ??= t;
  }
  /** Every pod the kubelet runs has a status in its cache (a restarted kubelet's starts empty),
   *  and the status manager has synced that status with the apiserver (apiStatusVersions). */
  private allSynced(): boolean {
    for (const site of this.w.sites) if (!this.synced(site.kubelet)) return false;
    return true;
  }

  private synced(kl: KubeletIncarnation | null): boolean {
    if (kl === null) return false;
    const sm = kl.statusManager;
    for (const pod of kl.podManager.getPods()) {
      const uid = pod.metadata?.uid ?? '';
      const entry = sm.cachedEntry(uid);
      if (entry === undefined) return false;
      const apiUID = isStaticPod(pod) ? kl.podManager.getMirrorPodByPod(pod)?.metadata?.uid : uid;
      if (apiUID === undefined || (sm.apiStatusVersion(apiUID) ?? 0) < entry.version) return false;
    }
    return true;
  }

  get convergedAtMs(): number | null {
    return this.since;
  }
}

/** Why the kubelet's cache and the apiserver disagree now, or undefined when they agree. */
export function divergence(w: World): string | undefined {
  for (const site of w.sites) {
    const why = siteDivergence(w, site.kubelet, kubeletStatusEqual(w.variant, site.config.featureGates));
    if (why !== undefined) return w.sites.length === 1 ? why : `node ${site.name}: ${why}`;
  }
  return undefined;
}

function siteDivergence(w: World, kl: KubeletIncarnation | null, equal: ReturnType<typeof kubeletStatusEqual>): string | undefined {
  if (kl === null) return 'the kubelet is down';
  for (const uid of [...kl.statusManager.cachedUIDs()].sort()) {
    const entry = kl.statusManager.cachedEntry(uid)!;
    let pod = kl.podManager.getPodByUID(uid);
    if (pod === undefined) continue;
    if (isStaticPod(pod)) {
      const mirror = kl.podManager.getMirrorPodByPod(pod);
      if (mirror === undefined) return `static pod ${pod.metadata?.name} has no mirror pod`;
      pod = mirror;
    }
    const api = w.apiserver.peek(pod.metadata!.namespace!, pod.metadata!.name!);
    if (api === undefined || api.metadata?.uid !== pod.metadata?.uid) continue; // nothing to converge to
    if (!equal(api, entry.status)) return `${pod.metadata?.namespace}/${pod.metadata?.name} differs from the cached status (version ${entry.version})`;
  }
  return undefined;
}

export function runScenario(scenario: Scenario, opts: RunOptions = {}): RunResult {
  const w = new World(scenario, opts);
  const kept = new AssertionRecords(scenario.expect, scenario.invariants.length > 0);
  if (kept.needed) w.tracer.listeners.push(kept.listen);
  if (opts.traceSink !== undefined) {
    if (opts.choices !== undefined) throw new Error('runScenario: traceSink with choices (a driven run\'s header is known only at its end)');
    opts.traceSink.start(traceHeader({ scenario: { name: scenario.name, file: scenario.file, sha256: scenario.sha256 }, seed: w.seed, variant: w.variant, untilMs: w.untilMs, maxEvents: w.maxEvents }));
    w.tracer.listeners.push(opts.traceSink.record);
  }
  const trace = kept.records;
  w.setup();
  const byTime = new Map<number, Assertion[]>();
  const atEnd: Assertion[] = [];
  for (const a of scenario.expect) {
    if (a.kind === 'converged' || a.kind === 'violation') continue;
    const at = 'atMs' in a ? a.atMs : undefined;
    if (at !== undefined && isPointInTime(a)) {
      if (!byTime.has(at)) {
        byTime.set(at, []);
        w.engine.at(at, () => {}); // make the clock stop at that instant
      }
      byTime.get(at)!.push(a);
    } else atEnd.push(a);
  }
  const results: AssertionResult[] = [];
  const lastStep = scenario.timeline.reduce((m, s) => Math.max(m, s.atMs), 0);
  const conv = new ConvergenceTracker(w, scenario.expect, lastStep);
  const clock = opts.load ? new ConvergenceClock(w, lastStep) : null;
  const checkers: InvariantChecker[] = createInvariantCheckers(w, scenario.invariants);
  const afterEvent = checkers.length ? () => { for (const c of checkers) c.afterEvent(); } : undefined;
  const ended = w.run({
    afterEvent,
    endOfInstant: (t) => {
      const due = byTime.get(t);
      if (due) {
        for (const a of due) results.push(evaluateNow(w, a, trace));
        byTime.delete(t);
      }
      if (conv.active) conv.check(t);
      clock?.check(t);
      for (const c of checkers) c.endOfInstant?.(t);
    },
  });
  for (const c of checkers) c.end();
  // Assertions whose instant was never reached (the run ended first) are evaluated at the end.
  for (const due of byTime.values()) for (const a of due) results.push(evaluateNow(w, a, trace));
  for (const a of atEnd) results.push(evaluateNow(w, a, trace));
  results.push(...conv.results());
  for (const a of scenario.expect) if (a.kind === 'violation') results.push(evaluateNow(w, a, trace));
  results.sort((x, y) => x.index - y.index);

  const expected = scenario.expect.filter((a): a is Assertion & { kind: 'violation' } => a.kind === 'violation');
  const unexpectedViolations = trace.filter(
    (r) => r.type === 'invariant.violation' && !expected.some((e) => e.invariant === r.invariant && (e.pod === undefined || e.pod === r.pod)),
  );
  const stepErrors = w.stepErrors.map((e) => ({ index: e.step.index, line: e.step.pos.line, message: e.message }));
  const ok = ended.end !== 'runaway' && results.every((r) => r.ok) && unexpectedViolations.length === 0 && stepErrors.length === 0;
  return {
    scenario: { name: scenario.name, file: scenario.file, sha256: scenario.sha256 },
    seed: w.seed,
    variant: w.variant,
    untilMs: w.untilMs,
    maxEvents: w.maxEvents,
    verdict: ok ? 'pass' : 'fail',
    end: ended.end,
    endMessage: ended.message,
    assertions: results,
    unexpectedViolations,
    stepErrors,
    events: w.engine.events,
    traceEvents: w.tracer.count,
    trace: w.trace,
    world: w,
    ...drivenFields(w),
    ...(clock !== null ? { load: loadSummary(w.trace, lastStep, clock.convergedAtMs) } : {}),
  };
}

function drivenFields(w: World): Pick<RunResult, 'choices' | 'driven'> {
  const log = w.choiceLog;
  if (log === null) return {};
  const out: Pick<RunResult, 'choices' | 'driven'> = {};
  if (log.entries !== null) out.choices = log.entries;
  if (log.driven) out.driven = log.info();
  return out;
}
