// One request on the wire to an apiserver under load (ApiServer.load: spec.apiserver.serviceTime
// or apf). The Call of network-client.ts, with flow control and service time between the request
// reaching the apiserver and its answer leaving it:
//   - sent at ts; the client gives up at the deadline (ts + requestTimeout) whatever happens, and a
//     request still waiting in a flow control queue then leaves it (its context is cancelled);
//   - at serverAt (ts + ⌊L/2⌋) it reaches the apiserver end: lost in a partition, answered by an
//     injected fault, answered 503 while the apiserver is down, else admitted by flow control —
//     queued, executed, or refused with a 429 and a Retry-After;
//   - an executed request takes effect at the end of its service time, even if its client has
//     gone; each answer arrives L - ⌊L/2⌋ after it leaves, unless the kubelet is dead or the link
//     partitioned then (given up at the deadline).
import type { ApiResult } from '../model/client.js';
import type { Admission, RequestDigest } from '../apiserver/index.js';
import type { Network, WireVerb } from './network.js';
import { PendingAnswer } from './pending-answer.js';

/** What a loaded call needs of its client (NetworkClient). */
export interface LoadedClient {
  readonly network: Network;
  readonly group: string;
  serve(verb: WireVerb, namespace: string, name: string, arg: unknown): ApiResult<unknown>;
  digest(verb: WireVerb, namespace: string): RequestDigest;
}

export class LoadedCall extends PendingAnswer {
  private admission: Admission | null = null;

  constructor(
    private readonly client: LoadedClient,
    private readonly verb: WireVerb,
    private readonly key: string,
    private readonly namespace: string,
    private readonly name: string,
    private readonly arg: unknown,
    /** api.error's fields for a 429: verb, and pod or node. */
    private readonly label: Record<string, unknown>,
    private readonly serverAt: number,
    private readonly answerAt: number,
    deadline: number,
  ) {
    super(client.network.engine);
    const net = client.network;
    net.engine.at(serverAt, () => this.arrive());
    net.engine.at(deadline, () => {
      this.admission?.cancel();
      if (!net.isClosed(client.group)) this.resolve(null);
    });
  }

  private arrive(): void {
    const net = this.client.network;
    const r = net.reach(this.verb, this.key);
    if (r === null) return; // lost: given up at the deadline
    if (r !== 'through') return this.answer(r);
    const api = net.apiserver;
    if (api.down || api.load === null) return this.answer(this.serve());
    this.admission = api.load.admit(this.client.digest(this.verb, this.namespace), { actor: 'kubelet', fields: this.label }, {
      execute: (serviceMs, done) => {
        if (serviceMs <= 0) {
          const res = this.serve();
          done();
          this.answer(res);
          return;
        }
        net.engine.after(serviceMs, () => {
          const res = this.serve();
          done();
          this.answer(res);
        });
      },
      reject: (res) => this.answer(res),
    });
  }

  private serve(): ApiResult<unknown> {
    return this.client.serve(this.verb, this.namespace, this.name, this.arg);
  }

  /** The answer leaves the apiserver now. */
  private answer(res: ApiResult<unknown>): void {
    const net = this.client.network;
    net.engine.after(this.answerAt - this.serverAt, () => {
      if (net.isClosed(this.client.group) || net.partitioned) return; // lost: given up at the deadline
      this.resolve(res);
    });
  }
}
