// `kss run --format mermaid`: every scenario's diagram is accepted by Mermaid's own parser
// (mermaid.parse from the mermaid package: the sequence-diagram grammar it renders with) and stays
// under Mermaid's default maxTextSize; folding, filters and violation notes do what they say.
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from '../../src/index.js';
import { discoverScenarios } from '../../src/testing/discover.js';
import { fold, mermaidLines, MERMAID_MAX_TEXT } from '../../src/report/mermaid.js';
import type { TraceRecord } from '../../src/model/trace.js';

const REPO = join(import.meta.dirname, '..', '..');
const files = discoverScenarios(['scenarios'], REPO).files.map((f) => f.display);
type Parse = (text: string) => Promise<{ diagramType: string } | false>;
let parse: Parse;

beforeAll(async () => {
  const { default: mermaid } = await import('mermaid');
  mermaid.initialize({ startOnLoad: false });
  parse = (text) => mermaid.parse(text) as Promise<{ diagramType: string } | false>;
});

function trace(file: string): readonly TraceRecord[] {
  const loaded = loadScenarioFile(join(REPO, file));
  if (!loaded.ok) throw new Error(`${file} does not load`);
  return runScenario({ ...loaded.scenario, file }).trace;
}

describe('Mermaid sequence diagrams', () => {
  it('the parser really rejects a broken diagram', async () => {
    await expect(parse('sequenceDiagram\n  A->>: x\n  loop\n')).rejects.toThrow();
  });

  it("the README's diagram is today's output, and parses", async () => {
    const readme = (await import('node:fs')).readFileSync(join(REPO, 'README.md'), 'utf8');
    const block = /```mermaid\n([\s\S]*?)\n```/.exec(readme)![1];
    const now = mermaidLines(trace('scenarios/invariants/no-terminal-while-running-broken.yaml'), { fromMs: 10_000 }).join('\n');
    expect(block).toBe(now);
    expect(await parse(block)).toBeTruthy();
  });

  it('a violation is a red note at its instant, with the write that led to it', () => {
    const lines = mermaidLines(trace('scenarios/invariants/terminal-phase-sticky-broken.yaml'));
    const i = lines.findIndex((l) => l.includes('✗ terminal-phase-sticky'));
    expect(i).toBeGreaterThan(0);
    expect(lines[i - 1].trim()).toBe('rect rgba(255, 0, 0, 0.25)');
    expect(lines[i].replaceAll('<br/>', ' ')).toMatch(/after the kubelet's PATCH at 12\.\d+s \(rv 4\): phase went Failed → Running/);
  });

  it('a failed expectation is a red note at its instant', async () => {
    const lines = mermaidLines(trace('scenarios/getting-started.yaml'), { failed: [{ index: 3, kind: 'apiserver', line: 40, message: 'phase: expected "Succeeded", got "Running"', atMs: 4000 }] });
    const i = lines.findIndex((l) => l.includes('✗ expect[3] apiserver (line 40) failed'));
    expect(i).toBeGreaterThan(0);
    expect(lines[i]).toMatch(/: 4\.000s /);
    expect(lines[i - 1].trim()).toBe('rect rgba(255, 0, 0, 0.25)');
    expect(await parse(lines.join('\n'))).toBeTruthy();
  });

  it('faults are shaded regions; requests carry what was sent and the answer', () => {
    const lines = mermaidLines(trace('scenarios/node/partition-heals.yaml'));
    expect(lines.some((l) => l.trim().startsWith('rect rgba(255, 190, 0'))).toBe(true);
    expect(lines.some((l) => /SM->>API: [\d.]+s PATCH \S+: /.test(l))).toBe(true);
    expect(lines.some((l) => /API-->>SM: [\d.]+s 200 rv \d+/.test(l))).toBe(true);
  });

  it('repeated identical exchanges are folded into a loop', async () => {
    const lines = mermaidLines(trace('scenarios/node/crashloop-backoff.yaml'));
    expect(lines.some((l) => /^\s*loop \d+× from/.test(l))).toBe(true);
    // A crash loop's cycles fold with their back-off loop inside, its count a range when they differ.
    expect(lines.some((l) => /^ {4}loop \d+× to \d+× each time/.test(l))).toBe(true);
    const items = Array.from({ length: 5 }, (_, i) => ({ kind: 'line' as const, t: i, text: `x ${i}`, key: 'x', lanes: [] }));
    const folded = fold(items);
    expect(folded.map((x) => x.kind)).toEqual(['open', 'line', 'close']);
  });

  it('--pod, --from and --to select what is drawn', () => {
    const t = trace('scenarios/getting-started.yaml');
    const web = mermaidLines(t, { pod: 'web' }).join('\n');
    expect(web).toContain(' web');
    expect(web).not.toMatch(/\bjob\b/);
    const window = mermaidLines(t, { fromMs: 3000, toMs: 6000 });
    const times = window.flatMap((l) => [...l.matchAll(/: (\d+\.\d{3})s /g)].map((m) => Number(m[1])));
    expect(times.length).toBeGreaterThan(0);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...times)).toBeLessThanOrEqual(6);
  });

  it('a run too big for one diagram keeps under the limit and says where it was cut', async () => {
    const lines = mermaidLines(trace('scenarios/node/crashloop-backoff.yaml'), { maxChars: 1500 });
    const text = lines.join('\n');
    expect(text.length).toBeLessThan(1500);
    expect(lines[lines.length - 1]).toMatch(/cut after [\d.]+s .*--from/);
    expect(await parse(text)).toBeTruthy();
  });
});
