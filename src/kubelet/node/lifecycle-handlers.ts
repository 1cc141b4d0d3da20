// pkg/kubelet/lifecycle/handlers.go: handlerRunner.Run for the container lifecycle hooks (preStop,
// postStart) — how long a hook runs and, for a postStart hook that fails, the message startContainer
// returns with ErrPostStartHook (kuberuntime_container.go).
//
// An exec or httpGet hook takes the attempt's `preStop` / `postStart` time; a `sleep` hook
// (KEP-3960, PodLifecycleSleepAction: beta and on in v1.30, so in the current generation) its own
// seconds (runSleepHandler; older releases have no such action: it takes no time). A postStart hook
// fails when the attempt gives it a non-zero `postStartExit`: an exec hook's command exited so, an
// httpGet hook's connection was refused (runHTTPHandler looks at no status code: only a request
// that gets no answer fails). A sleep hook does not fail.
import type { Container, Pod } from '../../model/pod.js';
import type { Attempt, Variant } from '../../scenario/types.js';
import { formatPod } from './backoff.js';

type Handler = NonNullable<NonNullable<Container['lifecycle']>['postStart']>;

/** kubecontainer's ErrPostStartHook: the start result's error (the waiting reason). */
export const ErrPostStartHook = 'PostStartHookError';

/** How long the hook runs, ms. */
export function hookMs(gen: Variant, hook: Handler, attemptMs: number | undefined): number {
  if (hook.sleep) return gen === 'current' ? Math.max(0, hook.sleep.seconds) * 1000 : 0;
  return attemptMs ?? 0;
}

/** Go's %v of a []string: "[a b c]". */
const goStrings = (xs: readonly string[]) => `[${xs.join(' ')}]`;

/** The port an httpGet hook dials: a number, or a named port of the container (resolvePort). */
function resolvePort(port: number | string, c: Container): string {
  if (typeof port === 'number') return String(port);
  const named = (c.ports ?? []).find((p) => p.name === port);
  return named !== undefined ? String(named.containerPort) : port;
}

/** handlerRunner.Run's message for a postStart hook that failed (undefined: it did not). */
export function postStartFailure(gen: Variant, pod: Pod, c: Container, hook: Handler, attempt: Attempt, podIP: string): string | undefined {
  const code = attempt.postStartExit ?? 0;
  if (code === 0 || hook.sleep) return undefined;
  const where = `for Container ${JSON.stringify(c.name)} in Pod ${JSON.stringify(formatPod(pod))}`;
  if (hook.exec) {
    const cmd = hook.exec.command ?? [];
    // RunInContainer's CodeExitError (cri-client ExecSync), then the output (%q)
    return `Exec lifecycle hook (${goStrings(cmd)}) ${where} failed - error: command '${cmd.join(' ')}' exited with ${code}: , message: ""`;
  }
  if (hook.httpGet) {
    const g = hook.httpGet;
    const host = g.host || podIP;
    const hostPort = `${host}:${resolvePort(g.port, c)}`;
    const url = `${(g.scheme ?? 'HTTP').toLowerCase()}://${hostPort}${g.path ?? ''}`;
    const err = `Get ${JSON.stringify(url)}: dial tcp ${hostPort}: connect: connection refused`;
    // the current runHTTPHandler returns only an error (no response body in the message)
    return gen === 'current' ? `HTTP lifecycle hook (${g.path ?? ''}) ${where} failed - error: ${err}` : `Http lifecycle hook (${g.path ?? ''}) ${where} failed - error: ${err}, message: ""`;
  }
  return `Cannot run handler: invalid handler: ${JSON.stringify(hook)}`;
}
