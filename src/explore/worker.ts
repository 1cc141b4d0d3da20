// Worker-thread entry of `kss explore -j N`: loads the scenario once from the text it is handed,
// then answers each batch of run indices with its partial result.
import { parentPort } from 'node:worker_threads';
import { loadScenario } from '../scenario/index.js';
import { faultSpace } from './faults.js';
import { newSearch, partialOf, searchOne } from './search.js';
import type { StrategyContext, StrategyName } from './strategy.js';
import type { Oracle } from './types.js';

export interface WorkerInit {
  text: string;
  file: string;
  baseSeed: number;
  oracle: Oracle;
  strategy: StrategyName;
  pct?: StrategyContext['pct'];
}
export interface WorkerBatch {
  batch: number;
  indices: number[];
}

const port = parentPort;
if (port !== null) {
  let ctx: StrategyContext | undefined;
  let oracle: Oracle = 'invariants';
  port.on('message', (msg: { init?: WorkerInit; batch?: WorkerBatch }) => {
    if (msg.init) {
      const loaded = loadScenario(msg.init.text, msg.init.file);
      if (!loaded.ok) throw new Error(`worker: the scenario ${msg.init.file} does not load`);
      ctx = { scenario: loaded.scenario, baseSeed: msg.init.baseSeed, space: faultSpace(loaded.scenario, loaded.scenario.explore), strategy: msg.init.strategy, pct: msg.init.pct };
      oracle = msg.init.oracle;
      return;
    }
    const b = msg.batch!;
    const st = newSearch(ctx!, oracle);
    for (const k of b.indices) searchOne(st, k);
    port.postMessage({ batch: b.batch, partial: partialOf(st) });
  });
}
