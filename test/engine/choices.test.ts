// The choice log: a run as a function of (scenario, variant, choice sequence).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChoiceLog, DrivenRng, Rng, type ChoiceEntry } from '../../src/engine/index.js';
import { loadScenarioFile } from '../../src/scenario/index.js';
import { runScenario, traceHeader, type RunResult } from '../../src/world/run.js';
import type { ChoiceOptions } from '../../src/engine/index.js';

const REPO = join(import.meta.dirname, '..', '..');

function load(rel: string) {
  const l = loadScenarioFile(join(REPO, rel));
  if (!l.ok) throw new Error(`cannot load ${rel}`);
  return l.scenario;
}
const body = (r: RunResult) => r.trace.map((x) => JSON.stringify(x)).join('\n');
const run = (rel: string, choices?: ChoiceOptions) => runScenario(load(rel), choices ? { choices } : {});
const GS = 'scenarios/getting-started.yaml';

describe('DrivenRng', () => {
  it('undriven, draws exactly what the plain Rng draws, and records each draw with its arity', () => {
    const log = new ChoiceLog({ record: true });
    const d = new DrivenRng('5', '', log).fork('net');
    const p = new Rng('5').fork('net');
    expect(d.int(3, 9)).toBe(p.int(3, 9));
    expect(d.pick(4)).toBe(p.pick(4));
    expect(d.shuffle([1, 2, 3, 4])).toEqual(p.shuffle([1, 2, 3, 4]));
    d.skipShuffle(3);
    p.skipShuffle(3);
    expect(d.hex(12)).toBe(p.hex(12));
    expect(d.float()).toBe(p.float());
    expect(d.int(4, 4)).toBe(4); // no choice: nothing drawn, nothing recorded
    expect(log.entries!.map((e) => `${e.label}:${e.kind}/${e.arity}`)).toEqual([
      'net:int/7', 'net:pick/4', 'net:shuffle/4', 'net:shuffle/3', 'net:shuffle/2', 'net:skip/3', 'net:skip/2', 'net:hex/4294967296', 'net:hex/4294967296', 'net:float/0',
    ]);
  });

  it('value 0 is the simplest: the minimum, the first, the identity order', () => {
    const log = new ChoiceLog({ replay: [0, 0, 0, 0, 0, 0, 0] });
    const d = new DrivenRng('5', '', log);
    expect(d.int(20, 90)).toBe(20);
    expect(d.pick(5)).toBe(0);
    expect(d.shuffle(['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c', 'd']);
    expect(d.float()).toBe(0);
  });

  it('replays any number into range, null leaves a step to the seed, and counts divergences', () => {
    const log = new ChoiceLog({ record: true, replay: [12, null, { value: 1, label: 'other', kind: 'int' }] });
    const d = new DrivenRng('5', '', log);
    const natural = new Rng('5');
    expect(d.int(0, 4)).toBe(12 % 5);
    natural.int(0, 4);
    expect(d.int(0, 4)).toBe(natural.int(0, 4));
    expect(d.pick(3)).toBe(1);
    expect(log.info()).toMatchObject({ replay: 3, used: 3, divergences: 1, firstDivergence: 2, choices: 3 });
  });
});

describe('a run driven by its choices', () => {
  it('recording changes nothing; replaying the record, or any prefix of it, gives the same bytes', () => {
    const plain = run(GS);
    const rec = run(GS, { record: true });
    expect(body(rec)).toBe(body(plain));
    expect(rec.driven).toBeUndefined(); // only recorded: the header is the plain one
    expect(traceHeader(rec)).toEqual(traceHeader(plain));
    const log = rec.choices!;
    expect(log.length).toBeGreaterThan(50);
    for (const cut of [log.length, 10]) {
      const again = run(GS, { replay: log.slice(0, cut) });
      expect(body(again)).toBe(body(plain));
      expect(again.driven).toMatchObject({ replay: cut, used: cut, divergences: 0 });
      expect(traceHeader(again).choices).toMatchObject({ replay: cut });
    }
  });

  it('varying one choice changes the run; the varied run replays byte for byte', () => {
    const rec = run(GS, { record: true });
    const log = rec.choices!;
    const i = log.findIndex((e) => e.label === 'network/latency' && e.arity > 1);
    expect(i).toBeGreaterThanOrEqual(0);
    const e = log[i];
    const varied: ChoiceEntry[] = [...log.slice(0, i), { ...e, value: (e.value + 1) % e.arity }];
    const a = run(GS, { record: true, replay: varied });
    expect(body(a)).not.toBe(body(rec));
    expect(a.choices![i].value).toBe((e.value + 1) % e.arity);
    const b = run(GS, { replay: a.choices });
    expect(body(b)).toBe(body(a));
  });

  it('zeroing every latency draw gives the shortest latencies', () => {
    const rec = run(GS, { record: true });
    const zeros = rec.choices!.map((e) => (e.label.startsWith('network/') ? 0 : e.value));
    const z = run(GS, { record: true, replay: zeros });
    const lat = z.choices!.filter((e) => e.label.startsWith('network/'));
    expect(lat.length).toBeGreaterThan(0);
    expect(lat.every((e) => e.value === 0)).toBe(true);
  });

  it('ties: off by default; on, recorded in insertion order (the default run), and any order replays', () => {
    const plain = run(GS);
    const t = run(GS, { record: true, ties: true });
    expect(body(t)).toBe(body(plain));
    const ties = t.choices!.filter((e) => e.kind === 'tie');
    expect(ties.length).toBeGreaterThan(0);
    expect(ties.every((e) => e.value === 0 && e.arity >= 2)).toBe(true);
    expect(traceHeader(t).choices).toMatchObject({ ties: true });
    // Some ties order events that are independent (the trace does not change); find one that is not.
    let f: RunResult | undefined;
    for (let k = 0; k < t.choices!.length && f === undefined; k++) {
      if (t.choices![k].kind !== 'tie') continue;
      const flipped = [...t.choices!.slice(0, k), { ...t.choices![k], value: 1 }];
      const g = run(GS, { record: true, ties: true, replay: flipped });
      expect(g.choices![k]).toMatchObject({ kind: 'tie', value: 1 });
      if (body(g) !== body(plain)) f = g;
    }
    expect(f).toBeDefined();
    expect(body(run(GS, { ties: true, replay: f!.choices }))).toBe(body(f!));
    const r1 = run(GS, { ties: 'random' });
    expect(body(run(GS, { ties: 'random' }))).toBe(body(r1)); // seeded
  });
});

describe('an online driver', () => {
  it('decides the choices past the prefix, sees tie candidates, and its record replays the run', () => {
    const seen: string[][] = [];
    const d = run(GS, {
      record: true,
      ties: true,
      driver: (p) => {
        if (p.kind === 'tie') {
          seen.push(p.candidates!);
          return p.arity - 1; // the last queued first
        }
        return p.kind === 'int' ? 0 : undefined;
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((c) => c.length >= 2)).toBe(true);
    expect(d.driven).toMatchObject({ driver: true, ties: true });
    expect(d.choices!.filter((e) => e.kind === 'int').every((e) => e.value === 0)).toBe(true);
    expect(body(run(GS, { ties: true, replay: d.choices }))).toBe(body(d));
  });
});
