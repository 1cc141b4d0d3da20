// kss diff: both generations of a scenario, two seeds, two trace files; the first divergence in
// words, the aligned timelines, the final states; exit 0 same, 1 different, 2 bad input.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kss, REPO } from './helpers.js';

describe('kss diff', () => {
  it('classic against current: where the terminal phase is held back, in words', async () => {
    const r = await kss(['diff', 'scenarios/side-by-side/terminal-phase-hold-current.yaml'], REPO);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/First divergence: at 1\.001s classic sent a PATCH of web with phase=Failed.*; current instead held the terminal phase Failed back \(mergePodStatus: a container may still run\)/);
    expect(r.out).toMatch(/^< +1\.001s sent a PATCH of web/m);
    expect(r.out).toMatch(/^> .*│ +1\.001s held the terminal phase/m);
    expect(r.out).toMatch(/Final states:\n≠ default\/web apiserver\n {4}classic: rv 3 .*\n {4}current: rv 2 /);
  });

  it('the same trace twice is the same (exit 0); two trace files of both generations differ', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-diff-'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    expect((await kss(['run', 'scenarios/node/job-succeeds.yaml', '--trace', a], REPO)).code).toBe(0);
    expect((await kss(['run', 'scenarios/node/job-succeeds.yaml', '--trace', b, '--status-manager', 'classic'], REPO)).code).toBe(0);
    const same = await kss(['diff', a, a], REPO);
    expect(same.code).toBe(0);
    expect(same.out).toContain('The two runs did the same');
    const diff = await kss(['diff', a, b], REPO);
    expect(diff.code).toBe(1);
    expect(diff.out).toMatch(/\(current, seed 1\) \(left, <\) vs .*\(classic, seed 1\)/);
  });

  it('--seeds A,B; --format mermaid and shiviz', async () => {
    const s = await kss(['diff', 'scenarios/getting-started.yaml', '--seeds', '1,2'], REPO);
    expect(s.out).toMatch(/^kss diff: seed 1 \(left, <\) vs seed 2/);
    const m = await kss(['diff', 'scenarios/side-by-side/terminal-phase-hold-current.yaml', '--format', 'mermaid'], REPO);
    expect(m.out.match(/```mermaid\nsequenceDiagram/g)).toHaveLength(2);
    const z = await kss(['diff', 'scenarios/side-by-side/terminal-phase-hold-current.yaml', '--format', 'shiviz'], REPO);
    expect(z.out).toContain('=== classic ===');
    expect(z.out).toContain('=== current ===');
  });

  it('--format html: one self-contained page with the divergence, the aligned rows and the final states', async () => {
    const h = await kss(['diff', 'scenarios/side-by-side/terminal-phase-hold-current.yaml', '--format', 'html'], REPO);
    expect(h.code).toBe(1);
    expect(h.out.startsWith('<!doctype html>')).toBe(true);
    expect(h.out).toMatch(/<p class="first">First divergence: at 1\.001s classic sent a PATCH/);
    expect(h.out).toMatch(/<tr class="only-a first-row" data-op="a">/);
    expect(h.out).toMatch(/<tr class="differs"><th>default\/web apiserver<\/th>/);
    expect(h.out).not.toMatch(/<script/);
  });

  it('--generations A,B: transitional has the terminal-phase hold-back of current (#108366)', async () => {
    const r = await kss(['diff', 'scenarios/side-by-side/terminal-phase-hold-current.yaml', '--generations', 'transitional,current'], REPO);
    expect(r.out).toMatch(/^kss diff: transitional \(left, <\) vs current/);
    expect(r.out).toContain('The two runs did the same');
    expect(r.code).toBe(0);
    expect((await kss(['diff', 'scenarios/getting-started.yaml', '--generations', 'classic'], REPO)).code).toBe(2);
  });

  it('bad input: exit 2', async () => {
    expect((await kss(['diff', 'scenarios/getting-started.yaml', '--seeds', '1'], REPO)).code).toBe(2);
    const nt = await kss(['diff', 'README.md', 'README.md'], REPO);
    expect(nt.code).toBe(2);
    expect(nt.err).toMatch(/NOT_A_TRACE at README\.md:1/);
    expect((await kss(['diff', 'a', 'b', 'c'], REPO)).code).toBe(2);
  });
});
