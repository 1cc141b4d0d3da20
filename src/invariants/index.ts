// Read-only invariant checkers, run after every event (scenario-format.md "Invariants").
//
// createCheckers(view, names) makes one checker per selected invariant. They share two
// feeds (the apiserver's watch and the trace, see checker.ts), judge incrementally, and write each
// violation once per (invariant, pod) as a trace record:
//   invariant.violation {actor: 'invariant', pod, invariant, message, event, seed}
// The World is read through the small interfaces of model/world-view.ts (world/invariant-view.ts
// adapts it), so the checkers can be tested against fakes.
import { isPodStatusByKubeletEqual, normalizeStatus, type StatusFeatureGates } from '../kubelet/status/index.js';
import type { InvariantName, Variant } from '../scenario/types.js';
import { Feeds, type InvariantChecker } from './checker.js';
import { DeletionCompletes, QuietClock, StatusConverges } from './liveness.js';
import { NoTerminalWhileRunning } from './no-terminal-while-running.js';
import { NoIllegalContainerTransition, NoReadyWhenTerminal, TerminalPhaseSticky, TransitionTimeHonest } from './object-history.js';
import type { InvariantWorld, NodeView } from '../model/world-view.js';
import { VersionMonotonic } from './version-monotonic.js';
import { WriteMatchesUID } from './write-matches-uid.js';
import { PhaseNeverGoesBack } from './phase-never-goes-back.js';
import { DeletedPodReachesTerminal } from './deleted-pod-reaches-terminal.js';
import { WriteBudget } from './write-budget.js';
import { TerminatedContainerStarted } from './terminated-container-started.js';
import { BoundedStaleness } from './bounded-staleness.js';
import { ReadyStableAcrossRestart } from './ready-stable-across-restart.js';
import { DeletedPodStops } from './deleted-pod-stops.js';
import { ContainerExitKept } from './container-exit-kept.js';

export type { InvariantChecker } from './checker.js';
export type { InvariantWorld, NodeView, RuntimeView } from '../model/world-view.js';

/** The checkers of the named invariants, in the order named (each name once), over the world's
 *  read-only view (world/invariant-view.ts adapts the World; tests hand in fakes). */
export function createCheckers(w: InvariantWorld, names: readonly InvariantName[]): InvariantChecker[] {
  const feeds = new Feeds(w);
  let quiet: QuietClock | undefined;
  const quietClock = () => (quiet ??= new QuietClock(w, feeds));
  const gates = w.nodes[0].config.featureGates as StatusFeatureGates | undefined;
  const out: InvariantChecker[] = [];
  for (const name of new Set(names)) {
    switch (name) {
      case 'terminal-phase-sticky':
        out.push(new TerminalPhaseSticky(feeds));
        break;
      case 'no-illegal-container-transition':
        out.push(new NoIllegalContainerTransition(feeds, w.variant, gates));
        break;
      case 'no-ready-when-terminal':
        out.push(new NoReadyWhenTerminal(feeds));
        break;
      case 'write-matches-uid':
        out.push(new WriteMatchesUID(feeds));
        break;
      case 'transition-time-honest':
        out.push(new TransitionTimeHonest(feeds));
        break;
      case 'version-monotonic':
        out.push(new VersionMonotonic(feeds));
        break;
      case 'no-terminal-while-running':
        out.push(new NoTerminalWhileRunning(feeds));
        break;
      case 'status-converges':
        out.push(new StatusConverges(feeds, quietClock()));
        break;
      case 'deletion-completes':
        out.push(new DeletionCompletes(feeds, quietClock()));
        break;
      case 'phase-never-goes-back':
        out.push(new PhaseNeverGoesBack(feeds));
        break;
      case 'deleted-pod-reaches-terminal':
        out.push(new DeletedPodReachesTerminal(feeds, quietClock()));
        break;
      case 'write-budget':
        out.push(new WriteBudget(feeds));
        break;
      case 'terminated-container-started':
        out.push(new TerminatedContainerStarted(feeds));
        break;
      case 'bounded-staleness':
        out.push(new BoundedStaleness(feeds));
        break;
      case 'ready-stable-across-restart':
        out.push(new ReadyStableAcrossRestart(feeds));
        break;
      case 'container-exit-kept':
        out.push(new ContainerExitKept(feeds));
        break;
      case 'deleted-pod-stops':
        out.push(new DeletedPodStops(feeds, quietClock()));
        break;
    }
  }
  return out;
}

/** Equality as the kubelet judges it when it decides whether to reconcile (needsReconcile): the
 *  apiserver's status, normalized, against the cached status, by isPodStatusByKubeletEqual. */
export function kubeletStatusEqual(gen: Variant, gates?: StatusFeatureGates): NodeView['statusEqual'] {
  return (api, cached) => isPodStatusByKubeletEqual(normalizeStatus(api, api.status ?? {}, gen), cached, gen, gates);
}
