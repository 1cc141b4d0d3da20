// The kubelet's event recorder (client-go tools/record: EventBroadcaster.StartRecordingToSink),
// reduced to what costs apiserver requests: every event the kubelet records for a container
// start — Pulled, Created, Started (kuberuntime_container.go startContainer, images/image_manager.go
// EnsureImageExists) and, with `podInfraContainer` (the docker-era kubelet of 2015), the same three
// for the pod's infra container when its sandbox is made — is POSTed by one sink goroutine, one at
// a time, through the event client: the kubelet's own API client (`sharedClient`, as in 2015) or
// one of its own with eventRecordQPS / eventBurst. A failed POST is dropped (upstream retries a few
// times with a sleep; not modelled). Off unless spec.kubelet.events is given.
import { Deferred, type Engine, type Proc } from '../../engine/index.js';
import type { KubeClient } from '../../model/client.js';

export interface KubeletEvent {
  namespace: string;
  pod: string;
  reason: 'Pulled' | 'Created' | 'Started';
  container: string;
}

export class EventRecorder {
  private readonly queue: KubeletEvent[] = [];
  private head = 0;
  private wake: Deferred<void> | null = null;

  constructor(private readonly client: KubeClient, private readonly engine: Engine) {}

  /** Record the three events of a container start. */
  containerStarted(namespace: string, pod: string, container: string): void {
    for (const reason of ['Pulled', 'Created', 'Started'] as const) this.queue.push({ namespace, pod, reason, container });
    const w = this.wake;
    this.wake = null;
    w?.resolve(this.engine, undefined);
  }

  /** The sink goroutine (recordToSink): post each event in order. */
  *sink(): Proc<void> {
    const client = this.client;
    if (client.createEvent === undefined) return;
    for (;;) {
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
        this.wake = new Deferred<void>();
        yield* this.wake.wait();
        continue;
      }
      const e = this.queue[this.head++]!;
      yield* client.createEvent(e.namespace, e.pod, e.reason, e.container);
    }
  }
}
