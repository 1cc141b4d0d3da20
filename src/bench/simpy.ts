// SimPy's figure for the engine-timeouts workload, measured in the same bench run when a python3
// with SimPy is on the machine: SimPy 3+ (`import simpy`), or SimPy 2 (`SimPy.Simulation`, which
// Debian packages as python3-simpy). The same workload: P processes, each sleeping a uniform
// integer 500-1500 ms in a loop, until T ms; events = the timeouts processed.
import { execFileSync } from 'node:child_process';

const SCRIPT = String.raw`
import json, random, sys, time
P, T = int(sys.argv[1]), int(sys.argv[2])
count = 0
try:
    import simpy
    version = 'simpy ' + getattr(simpy, '__version__', '?')
    def proc(env, rnd):
        global count
        while True:
            count += 1
            yield env.timeout(500 + int(rnd.random() * 1001))
    env = simpy.Environment()
    for i in range(P):
        env.process(proc(env, random.Random(i)))
    run = lambda: env.run(until=T)
except ImportError:
    import SimPy
    from SimPy.Simulation import Process, hold, initialize, activate, simulate
    version = 'SimPy ' + getattr(SimPy, '__version__', '?')
    class Proc(Process):
        def go(self, rnd):
            global count
            while True:
                count += 1
                yield hold, self, 500 + int(rnd.random() * 1001)
    initialize()
    for i in range(P):
        p = Proc()
        activate(p, p.go(random.Random(i)))
    run = lambda: simulate(until=T)
t0 = time.perf_counter()
run()
wall = time.perf_counter() - t0
print(json.dumps({'version': version, 'events': count, 'wallMs': wall * 1000}))
`;

export type SimpyFigure =
  | { ok: true; version: string; events: number; wallMs: number; eventsPerSec: number }
  | { ok: false; why: string };

const PROBE = 'import importlib.util as u, sys; sys.exit(0 if (u.find_spec("simpy") or u.find_spec("SimPy")) else 1)';

/** The first python3 on PATH with SimPy, else Debian's /usr/bin/python3 (where python3-simpy lives). */
function findPython(): string | undefined {
  for (const py of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(py, ['-c', PROBE], { stdio: 'ignore', timeout: 20_000 });
      return py;
    } catch {
      // not this one
    }
  }
  return undefined;
}

export function simpyTimeouts(procs: number, untilMs: number): SimpyFigure {
  const py = findPython();
  if (py === undefined) return { ok: false, why: 'no python3 with simpy (or SimPy) on this machine: SimPy not measured' };
  try {
    const out = execFileSync(py, ['-c', SCRIPT, String(procs), String(untilMs)], { encoding: 'utf8', timeout: 300_000 });
    const r = JSON.parse(out) as { version: string; events: number; wallMs: number };
    return { ok: true, version: r.version, events: r.events, wallMs: Math.round(r.wallMs), eventsPerSec: Math.round(r.events / (r.wallMs / 1000)) };
  } catch (e) {
    return { ok: false, why: `SimPy run failed: ${(e as Error).message.split('\n')[0]}` };
  }
}
