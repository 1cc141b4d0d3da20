// Trace bytes do not depend on the working folder or on how the scenario's path is spelled: the
// header names the scenario by file name and sha256. `kss replay` finds the scenario beside the
// trace, here, under here by sha256, or as named on its command line.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kss, scratchWith } from './helpers.js';

describe('trace bytes', () => {
  it('are the same from any folder and for any spelling of the path', async () => {
    const dir = scratchWith('failing');
    const abs = join(dir, 'failing/wrong-phase.yaml');
    await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'a.jsonl'], dir);
    await kss(['run', './failing/../failing/wrong-phase.yaml', '--trace', 'b.jsonl'], dir);
    await kss(['run', 'wrong-phase.yaml', '--trace', '../c.jsonl'], join(dir, 'failing'));
    await kss(['run', abs, '--trace', join(dir, 'd.jsonl')], '/');
    const bytes = ['a', 'b', 'c', 'd'].map((n) => readFileSync(join(dir, `${n}.jsonl`), 'utf8'));
    expect(bytes[0].length).toBeGreaterThan(100);
    for (const b of bytes) expect(b).toBe(bytes[0]);
    const header = JSON.parse(bytes[0].split('\n')[0]);
    expect(header.file).toBe('wrong-phase.yaml');
    expect(bytes[0]).not.toContain(dir);
  });

  it('kss replay finds the scenario beside the trace, under the working folder by sha256, or by argument', async () => {
    const dir = scratchWith('failing');
    mkdirSync(join(dir, 'elsewhere'));
    await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'failing/beside.jsonl'], dir);
    await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'elsewhere/far.jsonl'], dir);
    const beside = await kss(['replay', join(dir, 'failing/beside.jsonl')], '/');
    expect(beside.out).toMatch(/^IDENTICAL/);
    const bySha = await kss(['replay', 'elsewhere/far.jsonl'], dir);
    expect(bySha.out).toMatch(/^IDENTICAL/);
    const lost = await kss(['replay', 'far.jsonl'], join(dir, 'elsewhere'));
    expect(lost.code).toBe(2);
    expect(lost.err).toMatch(/SCENARIO_MISSING: .* name it: kss replay far.jsonl <scenario.yaml>/);
    const named = await kss(['replay', 'far.jsonl', '../failing/wrong-phase.yaml'], join(dir, 'elsewhere'));
    expect(named.out).toMatch(/^IDENTICAL/);
    expect(named.code).toBe(0);
  });
});
