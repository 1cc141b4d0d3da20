// kss run --record-choices / --choices / --ties, and kss replay of a driven trace.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kss, REPO, scratchWith } from './helpers.js';
import { replayCommand } from '../../src/cli/run-command.js';

const GS = join(REPO, 'scenarios/getting-started.yaml');
const lines = (p: string) => readFileSync(p, 'utf8').trimEnd().split('\n');

describe('kss run with choices', () => {
  it('records a log, replays it to the same trace, and kss replay replays the driven trace', async () => {
    const dir = scratchWith();
    expect((await kss(['run', GS, '--format', 'json', '--trace', 'plain.jsonl', '--record-choices', 'c.jsonl'], dir)).code).toBe(0);
    const log = lines(join(dir, 'c.jsonl'));
    expect(JSON.parse(log[0])).toMatchObject({ type: 'choices', scenario: 'getting-started', seed: 7, variant: 'current', ties: false });
    expect(JSON.parse(log[1])).toEqual({ i: 0, label: 'apiserver/uid', kind: 'hex', arity: 4294967296, value: expect.any(Number) });
    expect(JSON.parse(log[0]).count).toBe(log.length - 1);

    expect((await kss(['run', GS, '--format', 'json', '--trace', 'driven.jsonl', '--choices', 'c.jsonl'], dir)).code).toBe(0);
    const plain = lines(join(dir, 'plain.jsonl'));
    const driven = lines(join(dir, 'driven.jsonl'));
    expect(driven.slice(1)).toEqual(plain.slice(1));
    expect(JSON.parse(plain[0]).choices).toBeUndefined();
    expect(JSON.parse(driven[0]).choices).toEqual({ source: 'c.jsonl', replay: log.length - 1, used: log.length - 1, divergences: 0, ties: false, choices: log.length - 1 });

    const rep = await kss(['replay', 'driven.jsonl', GS], dir); // (the header names the scenario by file name: here it is elsewhere)
    expect(rep.out).toMatch(/^IDENTICAL/);
    expect(rep.code).toBe(0);
  });

  it('a JSON array of bare values drives the run: all zeros is the simplest run (shortest latencies, sorted orders)', async () => {
    const dir = scratchWith();
    await kss(['run', GS, '--format', 'json', '--record-choices', 'c.jsonl'], dir);
    const n = lines(join(dir, 'c.jsonl')).length - 1;
    writeFileSync(join(dir, 'zeros.json'), JSON.stringify(new Array(n).fill(0)));
    const r = await kss(['run', GS, '--choices', 'zeros.json', '--ties', '--trace', 'z.jsonl', '--record-choices', 'z-choices.jsonl'], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(lines(join(dir, 'z.jsonl'))[0]).choices).toMatchObject({ source: 'zeros.json', replay: n, ties: true });
    const used = lines(join(dir, 'z-choices.jsonl')).slice(1).map((l) => JSON.parse(l) as { value: number });
    expect(used.slice(0, n).every((e) => e.value === 0)).toBe(true); // past the prefix, the seed decides
    const driven = { source: 'c.json', ties: true, replay: 1, used: 1, divergences: 0, choices: 1 };
    expect(replayCommand({ scenario: { file: 's.yaml' }, seed: 3, variant: 'classic', driven } as unknown as Parameters<typeof replayCommand>[0])).toMatch(/kss run s\.yaml --seed 3 --status-manager classic --choices c\.json --ties$/);
  });

  it('a bad choices file: a positioned error and exit 2', async () => {
    const dir = scratchWith();
    writeFileSync(join(dir, 'bad.jsonl'), '{"value":1}\n{"value":"x"}\n');
    const r = await kss(['run', GS, '--choices', 'bad.jsonl'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^bad\.jsonl:2:1: error BAD_CHOICES at line 2\.value\n {2}expected a finite number, got "x"/);
    writeFileSync(join(dir, 'bad2.json'), '{"ties": "sometimes", "choices": []}');
    const r2 = await kss(['run', GS, '--choices', 'bad2.json'], dir);
    expect(r2.code).toBe(2);
    expect(r2.err).toMatch(/BAD_CHOICES at ties\n {2}expected true, false or "random", got "sometimes"/);
    const r3 = await kss(['run', GS, '--choices', 'missing.json'], dir);
    expect(r3.code).toBe(2);
    expect(r3.err).toMatch(/NOT_FOUND at --choices/);
  });
});
