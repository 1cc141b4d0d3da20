// The deletion-safety provider for `runtime: none`: answers come from spec.kubelet.deletionSafety
// and `setDeletionSafety` steps (for all pods, or one pod by UID).
import type { PodDeletionSafetyProvider } from '../model/client.js';
import type { Pod, PodStatus } from '../model/pod.js';

export interface SafetyAnswers {
  podResourcesReclaimed: boolean;
  podCouldHaveRunningContainers: boolean;
}

export class StaticDeletionSafety implements PodDeletionSafetyProvider {
  private readonly perPod = new Map<string, Partial<SafetyAnswers>>();
  constructor(private defaults: SafetyAnswers) {}

  set(answers: Partial<SafetyAnswers>, podUID?: string): void {
    if (podUID === undefined) {
      this.defaults = { ...this.defaults, ...stripUndefined(answers) };
      // A change for all pods overrides earlier per-pod answers of the same question.
      for (const [uid, a] of this.perPod) {
        const b = { ...a };
        if (answers.podResourcesReclaimed !== undefined) delete b.podResourcesReclaimed;
        if (answers.podCouldHaveRunningContainers !== undefined) delete b.podCouldHaveRunningContainers;
        this.perPod.set(uid, b);
      }
    } else {
      this.perPod.set(podUID, { ...this.perPod.get(podUID), ...stripUndefined(answers) });
    }
  }

  private answer<K extends keyof SafetyAnswers>(pod: Pod, k: K): SafetyAnswers[K] {
    const p = this.perPod.get(pod.metadata?.uid ?? '');
    return p?.[k] ?? this.defaults[k];
  }

  podResourcesAreReclaimed(pod: Pod, _status: PodStatus): boolean {
    return this.answer(pod, 'podResourcesReclaimed');
  }

  podCouldHaveRunningContainers(pod: Pod): boolean {
    return this.answer(pod, 'podCouldHaveRunningContainers');
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
