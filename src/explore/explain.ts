// An explanation of a find in words, in the style of Jepsen's Elle: "Let … Then … a
// contradiction": the pod, the steps and faults, what the kubelet cached and wrote, what the
// other writers wrote, and the violation, each with its virtual instant.
import { formatDuration, parseRfc3339 } from '../model/time.js';
import type { Pod } from '../model/pod.js';
import type { RunResult } from '../world/run.js';
import type { TraceRecord } from '../world/tracer.js';
import type { Signature } from './types.js';

const MAX_LINES = 16;

function secs(t: number): string {
  return `${(t / 1000).toFixed(3).replace(/\.?0+$/, '')} s`;
}

/** "Ready=True since 3s, phase Running" of a stored object. */
function statusWords(pod: Pod | null | undefined, epochMs: number): string {
  if (!pod) return 'the object gone';
  const st = pod.status ?? {};
  const parts: string[] = [];
  if (st.phase) parts.push(`phase ${st.phase}`);
  for (const c of st.conditions ?? []) {
    if (c.type !== 'Ready' && c.type !== 'ContainersReady') continue;
    const at = c.lastTransitionTime ? parseRfc3339(c.lastTransitionTime) : undefined;
    const since = at !== undefined ? at - epochMs : undefined;
    parts.push(`${c.type}=${c.status}${since !== undefined && Number.isFinite(since) ? ` since ${formatDuration(since)}` : ''}`);
  }
  if (pod.metadata?.deletionTimestamp) parts.push('deletionTimestamp set');
  return parts.join(', ') || 'an empty status';
}

function lineOf(r: TraceRecord, res: RunResult, epochMs: number): string | undefined {
  const who = r.actor === 'kubelet' ? 'the kubelet' : r.actor === 'controller' ? 'a second writer' : r.actor === 'user' ? 'a user' : `the ${r.actor}`;
  const stored = () => {
    const rv = Number(r.resourceVersion);
    return res.world.apiserver.history.find((w) => w.resourceVersion === rv)?.object;
  };
  switch (r.type) {
    case 'step':
      return `the timeline runs ${String(r.action)}${r.pod ? ` on ${r.pod}` : ''}`;
    case 'status.set':
      return `the kubelet caches a new status for ${r.pod} (version ${String(r.version)})`;
    case 'status.drop':
      return `the kubelet drops the sync request for ${r.pod}: the channel is full`;
    case 'status.recreated':
      return `the kubelet finds ${r.pod} recreated and drops its cached status`;
    case 'status.delete':
      return `the kubelet issues the final delete of ${r.pod}`;
    case 'api.patch':
      return `${who} writes ${r.pod}'s status (${statusWords(stored(), epochMs)})`;
    case 'api.delete':
      return `${who} deletes ${r.pod}`;
    case 'api.create':
      return `${who} creates ${r.pod}`;
    case 'api.error':
      return `${who}'s ${String(r.verb)} of ${r.pod ?? 'a pod'} fails (${String(r.code)})`;
    case 'kubelet.start':
      return `the kubelet starts (incarnation ${String(r.incarnation)})`;
    case 'kubelet.stop':
      return `the kubelet stops: its memory is gone`;
    case 'fault.begin':
    case 'fault.end':
      return undefined; // the step says it
    default:
      return undefined;
  }
}

export function explainFind(res: RunResult, sig: Signature): string {
  const epochMs = parseRfc3339(res.world.scenario.epoch) ?? 0;
  const violation = res.unexpectedViolations.find((v) => String(v.invariant) === sig.name && (v.pod ?? '') === sig.pod);
  const failed = res.assertions.find((a) => !a.ok && a.kind === sig.name);
  const endSeq = violation?.seq ?? Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  for (const r of res.trace) {
    if (r.seq >= endSeq) break;
    const relevant = r.type === 'step' || r.type.startsWith('kubelet.') || r.pod === undefined || sig.pod === '' || r.pod === sig.pod;
    if (!relevant) continue;
    const l = lineOf(r, res, epochMs);
    if (l !== undefined) lines.push(`  at ${secs(r.t)}, ${l}.`);
  }
  const shown = lines.length > MAX_LINES ? [...lines.slice(0, 3), `  … ${lines.length - MAX_LINES} more …`, ...lines.slice(-(MAX_LINES - 3))] : lines;
  const out = [`Let P be ${sig.pod || 'the pods'} (role ${sig.role}), seed ${res.seed}, ${res.variant} status manager.`, 'Then:', ...shown];
  if (violation) {
    out.push(`At ${secs(violation.t)} this is a contradiction: ${sig.name} — ${String(violation.message ?? '')}`);
  } else if (failed) {
    out.push(`At the end this is a contradiction: expect[${failed.index}] ${failed.kind} (line ${failed.line}) — ${failed.message}`);
  }
  return out.join('\n') + '\n';
}
