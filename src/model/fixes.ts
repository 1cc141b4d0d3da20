// The registry of upstream fixes a scenario can take back out (`spec.kubelet.revertFixes`), for the
// bug zoo (scenarios/zoo/). Each entry is one switch at the place in the port that the fix touched,
// with a `// revert #NNNN` comment there; with no fix reverted (the default) the port is exactly the
// release it ports, byte for byte. `kss fixes` prints this table, and the one of PROPOSED_FIXES
// below: changes proposed upstream for a bug every release has, and never merged
// (`spec.kubelet.proposedFixes`; off by default, where the port has the bug as upstream does).

export type FixGeneration = 'classic' | 'transitional' | 'current';

export interface FixInfo {
  /** The name a scenario uses in `revertFixes`. */
  readonly name: string;
  /** The upstream pull requests of the fix (kubernetes/kubernetes). */
  readonly prs: readonly number[];
  /** The upstream release the fix first shipped in (by merge date where not verified). */
  readonly release: string;
  /** The kss generations the switch acts in (elsewhere it changes nothing). */
  readonly generations: readonly FixGeneration[];
  /** The bug-zoo entries it unlocks. */
  readonly bugs: readonly string[];
  /** What reverting it does, in one line. */
  readonly summary: string;
  /** Where the switch sits in the port. */
  readonly where: string;
  /** How far the revert is from the pre-fix code, when not exact. */
  readonly note?: string;
}

export const FIXES = [
  {
    name: 'terminatePodExit0',
    prs: [88440],
    release: 'v1.19 (1.17 backport #93041)',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-01'],
    summary: 'TerminatePod marks a container it cannot account for terminated with exit 0 and no reason, instead of 137 ContainerStatusUnknown',
    where: 'kubelet/status terminate (TerminatePod)',
    note: 'outside classic the exit-0 default is anachronistic (#88440 is v1.19); the rest of v1.18 dispatch is not modelled',
  },
  {
    name: 'vanishedContainerOnlyOnDelete',
    prs: [102821],
    release: 'v1.22',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-04', 'BZ-22'],
    summary: 'a running container that vanished from the runtime is inferred terminated (137) only for a deleted pod; otherwise it is Waiting again and the pod Pending',
    where: 'kubelet/node api-status (convertToAPIContainerStatuses, the #95364 block)',
    note: 'kss keeps #102821\'s form in classic too (v1.20 had the deleted-pods scope)',
  },
  {
    name: 'noContainerStateTransitionGuard',
    prs: [54597],
    release: 'v1.9',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-02'],
    summary: 'updateStatusInternal no longer refuses a status that moves a container terminated → not terminated',
    where: 'kubelet/status updateStatusInternal (checkContainerStateTransition)',
    note: 'the apiserver validation of #54530 is not modelled by kss either way',
  },
  {
    name: 'noPatchUIDPrecondition',
    prs: [86320],
    release: 'v1.18 (picks 1.15–1.17)',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-09'],
    summary: 'the status PATCH carries no metadata.uid precondition, so it lands on whatever pod has the name',
    where: 'kubelet/status syncPod (statusutil.PatchPodStatus)',
    note: 'pre-#86320 code also predates #88591: every sync PATCHes, {} when nothing changed (as noopPatches)',
  },
  {
    name: 'apiVersionsByStaticUID',
    prs: [17270],
    release: 'v1.2',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-10'],
    summary: 'apiStatusVersions is keyed by the static pod\'s UID, not the mirror\'s, so a recreated mirror counts as up to date',
    where: 'kubelet/status syncBatch / syncPod',
  },
  {
    name: 'dropCacheOnNotFound',
    prs: [18129],
    release: 'v1.2',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-11'],
    summary: 'a 404 on the status GET drops the cache entry, whose versions then start again below the version sent',
    where: 'kubelet/status syncPod (the NotFound branch)',
  },
  {
    name: 'ignoreMirrorDeletion',
    prs: [22626],
    release: 'v1.2',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-13'],
    summary: 'the static pod\'s sync keeps a mirror pod that is being deleted, so it stays Terminating',
    where: 'kubelet/node mirror upkeep (syncPod\'s mirror block)',
  },
  {
    name: 'noForceUpdateOnDeletion',
    prs: [22483, 42779],
    release: 'v1.2 / v1.6',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-17'],
    summary: 'SetPodStatus is not forced for a deleted pod, and needsUpdate no longer resends a pod that can be deleted',
    where: 'kubelet/status setPodStatus, needsUpdate',
  },
  {
    name: 'noopPatches',
    prs: [88591],
    release: 'v1.19',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-18', 'BZ-24'],
    summary: 'syncPod sends the PATCH even when it only carries the pod\'s UID (a no-op)',
    where: 'kubelet/status syncPod (statusutil.PatchPodStatus)',
  },
  {
    name: 'noTerminalReadyFalse',
    prs: [110256],
    release: 'v1.25 (picks 1.22–1.24)',
    generations: ['transitional', 'current'],
    bugs: ['BZ-07'],
    summary: 'mergePodStatus no longer forces Ready and ContainersReady False on a terminal phase',
    where: 'kubelet/status mergePodStatus',
  },
  {
    name: 'noDelayTerminalPhase',
    prs: [108366],
    release: 'v1.24 (picks 1.22, 1.23)',
    generations: ['transitional', 'current'],
    bugs: ['BZ-06'],
    summary: 'mergePodStatus writes a terminal phase while the pod could still have running containers',
    where: 'kubelet/status mergePodStatus (couldHaveRunningContainers)',
    note: 'the DisruptionTarget hold-back (v1.26, same idea) is left in place; TerminatePod\'s rewrite of #108366 (transitional) is not reverted',
  },
  {
    name: 'createdCountsAsExited',
    prs: [107845],
    release: 'v1.24 (picks #108882 1.23, #108883 1.22)',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-08'],
    summary: 'a container the runtime created but never started is reported terminated (exit 0, startedAt the Unix epoch), as #41382 had it, instead of waiting',
    where: 'kubelet/node api-status (convertContainerStatus, the ContainerStateCreated case)',
  },
  {
    name: 'missingContainersWaiting',
    prs: [54593],
    release: 'v1.9',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-03'],
    summary: 'a regular container the runtime no longer has is generated Waiting again, though its previous status was terminated (only init containers keep it, as #51644 had it)',
    where: 'kubelet/node api-status (convertToAPIContainerStatuses, the default statuses)',
    note: 'the PR diff was not retrieved; its description has two parts, both reverted: a removed container takes its previous state instead of Waiting (the v1.8 form of #51644, `isInitContainer && terminated`), and the previous statuses come from the status manager ("the status attached to a pod object is often stale": reverted, they are pod.Status\'s); the rest of the v1.8 generator is not modelled',
  },
  {
    name: 'noUIDReuseRestart',
    prs: [104847],
    release: 'v1.22.2 (pick #105075)',
    generations: ['transitional', 'current'],
    bugs: ['BZ-12'],
    summary: 'a create for a UID whose pod is still terminating (a static pod removed and added back) is merged into the termination; the finished worker then ignores the pod until the kubelet restarts',
    where: 'kubelet/node pod-workers-current (UpdatePod restartRequested, SyncKnownPods, HandlePodCleanups)',
    note: 'checked against the PR description (not its diff): KILL → CREATE sets restartRequested; SyncKnownPods reports such a terminated worker (TemporarilyTerminatedWork, later TerminatedAndRecreatedPod) and drops its history; HandlePodCleanups starts exactly those again unless terminal, as kss does; v1.27+ HandlePodCleanups instead restarts every desired pod the workers no longer know (recalled, not read), which kss does not port',
  },
  {
    name: 'getPodsOverwritesStatus',
    prs: [84951, 86189, 86191, 86195],
    release: 'v1.17 (picks 1.15.8, 1.16.5)',
    generations: ['classic', 'transitional', 'current'],
    bugs: ['BZ-14'],
    summary: 'GetPods (the /pods and summary API) writes the status manager\'s status into every pod of the pod manager (#77661), not only static pods, so needsReconcile no longer sees another writer\'s status',
    where: 'kubelet/node kubelet-getters (GetPods)',
    note: 'the pod manager entry is replaced by a copy, where upstream assigned p.Status on the shared object (which other holders of the pointer saw too); checked against #77661 (re-introducing #57106: statuses for the pods of /pods) and #84951 ("sync\'s status for static pods", fixing #84931 / #85389 / #82405: the kubelet missed the apiserver\'s Ready=false because its own pod copy had been overwritten), the diff itself was not retrieved',
  },
  {
    name: 'noReasonMessageCarry',
    prs: [103785],
    release: 'v1.22 (by merge date, 2021-07)',
    generations: ['transitional', 'current'],
    bugs: ['BZ-05'],
    summary: 'generateAPIPodStatus no longer carries the reason and message of a phase it keeps, so an evicted pod\'s next status drops reason Evicted and its message (kubectl: Error)',
    where: 'kubelet/node api-status (generateAPIPodStatus, after the three-way phase merge)',
    note: 'from the PR\'s description (smarterclayton: reason and message kept while the phase is unchanged, so that an eviction\'s survive the later updates of #102344\'s sync functions; fixes #103623), not its diff; #105358 (BZ-05) then found the v1.22 eviction still losing them ("#103623 wasn\'t actually fixed") until the three-way terminal-phase merge drafted in #105411 landed (its merged PR not read); the revert removes only the carry, not that merge',
  },
  {
    name: 'noOrphanTerminationRetry',
    prs: [113145],
    release: 'v1.27 (by merge date, 2023-03)',
    generations: ['current'],
    bugs: ['BZ-25'],
    summary: 'housekeeping no longer replays the last update of an orphaned (force-deleted) pod whose termination failed, so nothing retries its SyncTerminatingPod: its containers run on until the kubelet restarts',
    where: 'kubelet/node pod-workers-current (SyncKnownPods, removeTerminatedWorker\'s orphan switch)',
    note: 'read in a v1.27-era copy of pod_workers.go (removeTerminatedWorker(uid, status, orphaned), requeueLastPodUpdate); the pre-fix side is the v1.23 worker\'s (removeTerminatedWorker returns while the worker is not finished), which the transitional generation runs; the PR\'s other parts (PodWorkerSync, HandlePodCleanups killing only the runtime pods the workers do not know) are in both sides of the switch',
  },
] as const satisfies readonly FixInfo[];

export type FixName = (typeof FIXES)[number]['name'];
export const FIX_NAMES = FIXES.map((f) => f.name) as unknown as readonly [FixName, ...FixName[]];

/** The reverted fixes of one kubelet: `reverted('noopPatches')` at each switch. Empty by default. */
export type RevertedFixes = ReadonlySet<FixName>;
export const NO_REVERTED_FIXES: RevertedFixes = new Set<FixName>();

/** A fix proposed upstream and not merged: applying it (`spec.kubelet.proposedFixes`) puts the
 *  proposal's change into the port, at one switch with a `// proposed #NNNN` comment there. Its
 *  fields are a merged fix's, but that `prs` are the proposals, `summary` says what applying it
 *  does, and `state` what became of it (there is no release). */
export interface ProposedFixInfo extends Omit<FixInfo, 'release'> {
  readonly state: string;
}

export const PROPOSED_FIXES = [
  {
    name: 'keepEvictedContentUntilFinished',
    prs: [123782],
    state: 'closed without merging (2024, stale); #141857 (2026) closed too; kubernetes#122160 open',
    generations: ['transitional', 'current'],
    bugs: ['BZ-26'],
    summary: 'ShouldPodContentBeRemoved says an evicted pod\'s content may go only once its worker has finished (IsEvicted && IsFinished), so the container deletor keeps the dead containers SyncTerminatingPod still has to read',
    where: 'kubelet/node pod-workers-current (ShouldPodContentBeRemoved: the container deletor and the container GC ask it)',
    note: 'the one line of #123782 quoted in its review thread (smarterclayton doubted that delaying all content is right); HandlePodReconcile\'s removal of an evicted pod\'s dead containers, which waits for the API status to say Evicted, is left as it is',
  },
] as const satisfies readonly ProposedFixInfo[];

export type ProposedFixName = (typeof PROPOSED_FIXES)[number]['name'];
export const PROPOSED_FIX_NAMES = PROPOSED_FIXES.map((f) => f.name) as unknown as readonly [ProposedFixName, ...ProposedFixName[]];
