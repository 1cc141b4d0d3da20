// Evaluating a scenario's expectations (scenario-format.md "Assertions") against a World.
import { isStaticPod, type PodStatus } from '../model/pod.js';
import type { Assertion } from '../scenario/types.js';
import { match, type Mismatch } from './match.js';
import type { TraceRecord } from './tracer.js';
import type { World } from './world.js';
import { evaluatePodStartup, evaluateRequestRate } from './scale-assertions.js';

export interface AssertionResult {
  index: number;
  kind: Assertion['kind'];
  line: number;
  col: number;
  ok: boolean;
  /** What was expected and what happened, in words. */
  message: string;
  atMs?: number;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s.length > 400 ? s.slice(0, 397) + '...' : s;
}

function mismatchText(what: string, m: Mismatch): string {
  return `${what}${m.path ? ' at ' + m.path : ''}: expected ${show(m.expected)}, got ${show(m.actual)}`;
}

function inWindow(r: TraceRecord, fromMs?: number, toMs?: number): boolean {
  return (fromMs === undefined || r.t >= fromMs) && (toMs === undefined || r.t <= toMs);
}

/** The trace records the assertions and the verdict read (api.request for `requests`, log for
 *  `log`, each `events` type, invariant.violation), gathered by a tracer listener as the run goes:
 *  the same whether or not the run keeps its whole trace (RunOptions.keepTrace). */
export class AssertionRecords {
  readonly records: TraceRecord[] = [];
  private readonly types = new Set<string>();
  constructor(assertions: readonly Assertion[], invariantsChecked: boolean) {
    if (invariantsChecked) this.types.add('invariant.violation');
    for (const a of assertions) {
      if (a.kind === 'requests') this.types.add('api.request');
      else if (a.kind === 'log') this.types.add('log');
      else if (a.kind === 'events') this.types.add(a.type);
      else if (a.kind === 'requestRate') this.types.add(`api.${a.verb}`);
    }
  }
  /** Does anything need records at all (else no listener is added: a run may skip rendering). */
  get needed(): boolean {
    return this.types.size > 0;
  }
  readonly listen = (r: TraceRecord): void => {
    if (this.types.has(r.type)) this.records.push(r);
  };
}

/** Point-in-time assertions (apiserver, kubelet) read live state: evaluate them at their instant. */
export function isPointInTime(a: Assertion): boolean {
  return a.kind === 'apiserver' || a.kind === 'kubelet';
}

export function evaluateNow(w: World, a: Assertion, trace: readonly TraceRecord[]): AssertionResult {
  const base = { index: a.index, kind: a.kind, line: a.pos.line, col: a.pos.col, atMs: 'atMs' in a ? a.atMs : undefined };
  const fail = (message: string): AssertionResult => ({ ...base, ok: false, message });
  const pass = (message: string): AssertionResult => ({ ...base, ok: true, message });
  switch (a.kind) {
    case 'apiserver': {
      const obj = w.apiPod(a.pod);
      const exists = obj !== undefined;
      if (a.exists !== undefined && a.exists !== exists) return fail(`apiserver object ${a.pod}: expected exists=${a.exists}, got exists=${exists}`);
      if (!exists) {
        if (a.uid !== undefined || a.status !== undefined || a.deletionTimestamp !== undefined) return fail(`apiserver object ${a.pod} does not exist`);
        return pass(`apiserver has no ${a.pod}`);
      }
      if (a.uid !== undefined && match(a.uid, obj.metadata?.uid) !== undefined) return fail(`apiserver object ${a.pod}: expected uid ${show(a.uid)}, got ${show(obj.metadata?.uid)}`);
      if (a.deletionTimestamp !== undefined) {
        const set = obj.metadata?.deletionTimestamp != null;
        if ((a.deletionTimestamp === 'set') !== set) return fail(`apiserver object ${a.pod}: expected deletionTimestamp ${a.deletionTimestamp}, got ${set ? obj.metadata!.deletionTimestamp : 'unset'}`);
      }
      if (a.status !== undefined) {
        const m = match(a.status, obj.status ?? {}, 'status');
        if (m) return fail(mismatchText(`apiserver object ${a.pod}`, m));
      }
      return pass(`apiserver object ${a.pod} matches`);
    }
    case 'kubelet': {
      const kl = w.siteOfPod(a.pod).kubelet; // the kubelet of the pod's node
      const pod = w.kubeletPod(a.pod);
      const uid = pod?.metadata?.uid;
      const entry = kl && uid ? kl.statusManager.cachedEntry(uid) : undefined;
      if (a.cached !== undefined && a.cached !== (entry !== undefined)) return fail(`kubelet cache for ${a.pod}: expected cached=${a.cached}, got cached=${entry !== undefined}`);
      if (a.version !== undefined && match(a.version, entry?.version) !== undefined) return fail(`kubelet cache for ${a.pod}: expected version ${show(a.version)}, got ${entry?.version ?? 'no entry'}`);
      if (a.apiStatusVersion !== undefined) {
        let apiUID = uid;
        if (pod && isStaticPod(pod) && kl) apiUID = kl.podManager.getMirrorPodByPod(pod)?.metadata?.uid;
        const v = kl && apiUID ? kl.statusManager.apiStatusVersion(apiUID) : undefined;
        if (match(a.apiStatusVersion, v) !== undefined) return fail(`kubelet apiStatusVersions for ${a.pod}: expected ${show(a.apiStatusVersion)}, got ${v ?? 'none'}`);
      }
      if (a.status !== undefined) {
        if (entry === undefined) return fail(`kubelet cache for ${a.pod}: no entry to match status against`);
        const m = match(a.status, entry.status as PodStatus, 'status');
        if (m) return fail(mismatchText(`kubelet cache for ${a.pod}`, m));
      }
      return pass(`kubelet cache for ${a.pod} matches`);
    }
    case 'requests':
      return requestsResult(w, trace, a, pass, fail);
    case 'log':
      return logResult(trace, a, pass, fail);
    case 'events': {
      const hits = trace.filter((r) => r.type === a.type && (a.pod === undefined || r.pod === a.pod) && inWindow(r, a.fromMs, a.toMs) && (a.where === undefined || match(a.where, r) === undefined));
      const n = hits.length;
      if (a.count !== undefined && n !== a.count) return fail(`events ${a.type}${a.pod ? ' for ' + a.pod : ''}: expected ${a.count}, got ${n}`);
      if (a.min !== undefined && n < a.min) return fail(`events ${a.type}${a.pod ? ' for ' + a.pod : ''}: expected at least ${a.min}, got ${n}`);
      if (a.count === undefined && a.min === undefined && n === 0) return fail(`events ${a.type}${a.pod ? ' for ' + a.pod : ''}: expected at least 1, got 0`);
      return pass(`events ${a.type}: ${n}`);
    }
    case 'violation':
      return violationResult(trace, a, pass, fail);
    case 'podStartup':
    case 'requestRate': {
      const v = a.kind === 'podStartup' ? evaluatePodStartup(w, a) : evaluateRequestRate(trace, a, (key) => w.siteOfPod(key).name);
      return v.ok ? pass(v.message) : fail(v.message);
    }
    case 'converged':
      throw new Error('converged is evaluated by the convergence tracker');
  }
}

type Done = (message: string) => AssertionResult;

/** `requests`: what the kubelet sent for a pod, or what one node's kubelet sent. */
function requestsResult(w: World, trace: readonly TraceRecord[], a: Assertion & { kind: 'requests' }, pass: Done, fail: Done): AssertionResult {
  const who = [a.pod, a.node && `node ${a.node}`].filter(Boolean).join(' on ');
  // a kubelet's requests name their node in a scenario of many (node-tracer.ts); with one, every request is its
  const home = w.sites[0].name;
  const verbs = trace
    .filter((r) => r.type === 'api.request' && (a.pod === undefined || r.pod === a.pod) && (a.node === undefined || (r.node ?? home) === a.node) && inWindow(r, a.fromMs, a.toMs))
    .map((r) => String(r.verb));
  if (a.verbs !== undefined && (verbs.length !== a.verbs.length || verbs.some((v, i) => v !== a.verbs![i]))) {
    return fail(`requests for ${who}: expected [${a.verbs.join(', ')}], got [${verbs.join(', ')}]`);
  }
  if (a.count !== undefined) {
    for (const [verb, n] of Object.entries(a.count)) {
      const got = verbs.filter((v) => v === verb).length;
      if (got !== n) return fail(`requests for ${who}: expected ${n} ${verb}, got ${got} (all: [${verbs.join(', ')}])`);
    }
  }
  return pass(`requests for ${who}: [${verbs.join(', ')}]`);
}

function violationResult(trace: readonly TraceRecord[], a: Assertion & { kind: 'violation' }, pass: Done, fail: Done): AssertionResult {
  const n = trace.filter((r) => r.type === 'invariant.violation' && r.invariant === a.invariant && (a.pod === undefined || r.pod === a.pod)).length;
  if (n === 0) return fail(`expected invariant ${a.invariant} to be violated${a.pod ? ' for ' + a.pod : ''}, it held`);
  return pass(`invariant ${a.invariant} violated ${n} time(s), as expected`);
}

function logResult(trace: readonly TraceRecord[], a: Assertion & { kind: 'log' }, pass: Done, fail: Done): AssertionResult {
  const n = trace.filter((r) => r.type === 'log' && (a.pod === undefined || r.pod === a.pod) && String(r.msg).includes(a.contains)).length;
  if (a.count !== undefined ? n !== a.count : n === 0) return fail(`log ${JSON.stringify(a.contains)}${a.pod ? ' for ' + a.pod : ''}: expected ${a.count ?? 'at least 1'} line(s), got ${n}`);
  return pass(`log ${JSON.stringify(a.contains)}: ${n} line(s)`);
}
