// The classic DES kernel workload: 1000 processes, each sleeping a seeded uniform 500-1500 ms in a
// loop until 1000 s of virtual time (1,000,499 events: the same workload, seeds and schedule as
// before the timing wheel, so the numbers compare).
//
// Measured two ways on the same kernel: as generator processes (`yield rng.int(500, 1500)`, the
// code this case always ran) and through the callback path (`engine.callAfter`), which is how a
// plain sleep loop or a timer runs without a generator. Each: the first run in the process (cold,
// what this case reported before) and the median of five more. Beside them, SimPy's figure for the
// same workload, measured in the same bench run when python3 has it.
import { Engine, Rng, type Proc } from '../engine/index.js';
import { simpyTimeouts } from './simpy.js';
import type { BenchResult } from './types.js';

const PROCS = 1000;
const UNTIL_MS = 1_000_000;

function generators(): Engine {
  const engine = new Engine(new Rng('1'));
  for (let i = 0; i < PROCS; i++) {
    const rng = engine.rng.fork(`p${i}`);
    engine.spawn(`p${i}`, (function* (): Proc<void> {
      for (;;) yield rng.int(500, 1500);
    })());
  }
  return engine;
}

function callbacks(): Engine {
  const engine = new Engine(new Rng('1'));
  for (let i = 0; i < PROCS; i++) {
    const rng = engine.rng.fork(`p${i}`);
    const tick = (): void => engine.callAfter(rng.int(500, 1500), tick);
    engine.call(0, tick);
  }
  return engine;
}

interface Series {
  events: number;
  firstMs: number;
  medianMs: number;
  medianCpuMs: number;
}

function measure(build: () => Engine, runs = 6): Series {
  const walls: number[] = [];
  const cpus: number[] = [];
  let events = 0;
  for (let k = 0; k < runs; k++) {
    const engine = build();
    const c0 = process.cpuUsage();
    const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
    engine.run({ untilMs: UNTIL_MS });
    walls.push(performance.now() - t0); // wall-clock-ok: a benchmark measures wall time
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
    if (k > 0 && engine.events !== events) throw new Error(`engine-timeouts: run ${k} made ${engine.events} events, not ${events}`);
    events = engine.events;
  }
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  return { events, firstMs: walls[0], medianMs: median(walls.slice(1)), medianCpuMs: median(cpus.slice(1)) };
}

const rate = (events: number, ms: number) => Math.round(events / (ms / 1000));

export function engineTimeouts(): BenchResult {
  const gen = measure(generators);
  const cb = measure(callbacks);
  if (gen.events !== cb.events) throw new Error(`engine-timeouts: generators made ${gen.events} events, callbacks ${cb.events}`);
  const simpy = simpyTimeouts(PROCS, UNTIL_MS);
  const best = rate(cb.events, cb.medianMs);
  return {
    name: 'engine-timeouts',
    events: cb.events,
    wallMs: cb.medianMs,
    virtualMs: UNTIL_MS,
    callbacks: { eventsPerSec: best, firstRunEventsPerSec: rate(cb.events, cb.firstMs), cpuEventsPerSec: rate(cb.events, cb.medianCpuMs) },
    generators: {
      eventsPerSec: rate(gen.events, gen.medianMs),
      firstRunEventsPerSec: rate(gen.events, gen.firstMs),
      cpuEventsPerSec: rate(gen.events, gen.medianCpuMs),
    },
    simpy: simpy.ok
      ? {
          version: simpy.version,
          events: simpy.events,
          eventsPerSec: simpy.eventsPerSec,
          ratioCallbacks: Math.round((best / simpy.eventsPerSec) * 100) / 100,
          ratioGenerators: Math.round((rate(gen.events, gen.medianMs) / simpy.eventsPerSec) * 100) / 100,
        }
      : { absent: simpy.why },
  };
}
