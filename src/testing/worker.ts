// Worker-thread entry of `kss test`: receives case specs, answers with case results. Each spec
// carries its scenario as the plan loaded it (else the case loads it by path); it runs here, so
// the main thread only schedules and reports.
import { parentPort } from 'node:worker_threads';
import { runCase } from './case.js';
import type { CaseSpec } from './types.js';

export interface WorkerRequest {
  spec: CaseSpec;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (msg: WorkerRequest) => {
    port.postMessage({ id: msg.spec.id, result: runCase(msg.spec) });
  });
}
