// The views from the command line: kss run --format mermaid, --html, --trace-format, --pod, --only.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kss, REPO } from './helpers.js';

const SCN = 'scenarios/invariants/terminal-phase-sticky-broken.yaml';

describe('kss run views', () => {
  it('--format mermaid prints a sequence diagram, --pod and --to select', async () => {
    const r = await kss(['run', 'scenarios/getting-started.yaml', '--format', 'mermaid', '--pod', 'job', '--to', '6s'], REPO);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('sequenceDiagram');
    expect(r.out).toContain('PATCH job');
    expect(r.out).not.toMatch(/\bweb\b/);
    expect(r.out).not.toMatch(/ 2\d\.\d{3}s /);
  });

  it('--html writes one self-contained page (nothing fetched), --trace-format chrome and shiviz write their formats', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kss-views-'));
    const html = join(dir, 'out.html');
    const r = await kss(['run', SCN, '--html', html, '--trace', join(dir, 't.json'), '--trace-format', 'chrome'], REPO);
    expect(r.code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page).toContain("default-src 'none'");
    await kss(['run', SCN, '--html', html, '--pod', 'web'], REPO);
    expect(readFileSync(html, 'utf8')).toMatch(/"meta":\{[^}]*"pod":"default\/web"/);
    const doc = JSON.parse(readFileSync(join(dir, 't.json'), 'utf8'));
    expect(doc.traceEvents.length).toBeGreaterThan(10);
    const s = await kss(['run', SCN, '--trace', join(dir, 't.log'), '--trace-format', 'shiviz'], REPO);
    expect(s.code).toBe(0);
    expect(readFileSync(join(dir, 't.log'), 'utf8').split('\n')[0]).toBe('(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)');
  });

  it('--only and --pod filter the timeline; violations are explained inline; decisions carry their reason', async () => {
    const r = await kss(['run', SCN, '--only', 'status'], REPO);
    const lines = r.out.split('\n\n')[0].split('\n');
    expect(lines.every((l) => / status\.| invariant\.violation |↳/.test(l))).toBe(true);
    expect(r.out).toMatch(/invariant\.violation .*\n\s+↳ Let W1 be the kubelet's PATCH/);
    expect(r.out).toMatch(/status\.sync .* — syncing v\d: newer than the version sent/);
  });

  it('a failed expectation is marked at its instant with its explanation', async () => {
    const r = await kss(['run', SCN, '--seed', '1', '--until', '8s'], REPO);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/✗ expect\[\d\] .*\n\s+↳ Let W1 be .* so expect\[\d\] \(\w+\) failed/);
  });

  it('bad --from, --only: exit 2 with the option named', async () => {
    const a = await kss(['run', SCN, '--format', 'mermaid', '--from', 'soon'], REPO);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/BAD_DURATION at --from/);
    const b = await kss(['run', SCN, '--only', 'status,nope'], REPO);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/BAD_OPTION at --only/);
  });
});
