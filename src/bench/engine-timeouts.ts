// The classic DES kernel workload: 1000 processes, each sleeping a seeded uniform 500-1500 ms in a
// loop until 1000 s of virtual time.
import { Engine, Rng, type Proc } from '../engine/index.js';
import type { BenchResult } from './types.js';

export function engineTimeouts(): BenchResult {
  const engine = new Engine(new Rng('1'));
  const untilMs = 1_000_000;
  for (let i = 0; i < 1000; i++) {
    const rng = engine.rng.fork(`p${i}`);
    engine.spawn(`p${i}`, (function* (): Proc<void> {
      for (;;) yield rng.int(500, 1500);
    })());
  }
  const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  engine.run({ untilMs });
  const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
  return { name: 'engine-timeouts', events: engine.events, wallMs, virtualMs: untilMs };
}
