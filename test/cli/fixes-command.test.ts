// `kss fixes` and `spec.kubelet.revertFixes` / `proposedFixes` in the loader.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/index.js';
import { FIXES, PROPOSED_FIXES } from '../../src/model/fixes.js';
import { kss, REPO } from './helpers.js';

describe('kss fixes', () => {
  it('lists every fix with its PR, generations and bugs', async () => {
    const r = await kss(['fixes'], REPO);
    expect(r.code).toBe(0);
    for (const f of FIXES) {
      const line = r.out.split('\n').find((l) => l.startsWith(f.name + ' '));
      expect(line, f.name).toBeDefined();
      for (const pr of f.prs) expect(line).toContain(`#${pr}`);
      expect(line).toContain(f.generations.join(','));
      expect(line).toContain(f.bugs.join(','));
    }
  });

  it('lists the proposed fixes below, with their PR, state and bugs', async () => {
    const r = await kss(['fixes'], REPO);
    const lines = r.out.split('\n');
    const from = lines.findIndex((l) => l.startsWith('proposed upstream, never merged'));
    expect(from).toBeGreaterThan(FIXES.length);
    for (const f of PROPOSED_FIXES) {
      const at = lines.findIndex((l, i) => i > from && l.startsWith(f.name + ' '));
      expect(at, f.name).toBeGreaterThan(from);
      for (const pr of f.prs) expect(lines[at]).toContain(`#${pr}`);
      expect(lines[at]).toContain(f.bugs.join(','));
      expect(lines[at + 1]).toContain(`state: ${f.state}`);
    }
  });

  it('--format json is the registry: the merged fixes, then the proposed ones, each with its kind', async () => {
    const r = await kss(['fixes', '--format', 'json'], REPO);
    expect(r.code).toBe(0);
    const all = [...FIXES.map((f) => ({ kind: 'merged', ...f })), ...PROPOSED_FIXES.map((f) => ({ kind: 'proposed', ...f }))];
    expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(all)));
  });
});

describe('spec.kubelet.revertFixes', () => {
  const doc = (fixes: string) => `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\nspec:\n  kubelet: { revertFixes: ${fixes} }\n`;

  it('defaults to none, and keeps the names given (each once)', () => {
    const none = loadScenario('apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\n');
    expect(none.ok && none.scenario.kubelet.revertFixes).toEqual([]);
    const two = loadScenario(doc('[noopPatches, noTerminalReadyFalse, noopPatches]'));
    expect(two.ok && two.scenario.kubelet.revertFixes).toEqual(['noopPatches', 'noTerminalReadyFalse']);
  });

  it('refuses an unknown name at its place, with the closest name suggested', () => {
    const r = loadScenario(doc('[noopPatch]'), 'x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]).toMatchObject({ path: 'spec.kubelet.revertFixes[0]', line: 5, col: 28 });
    expect(r.issues[0].message).toContain('did you mean "noopPatches"?');
  });
});

describe('spec.kubelet.proposedFixes', () => {
  const doc = (fixes: string) => `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\nspec:\n  kubelet: { proposedFixes: ${fixes} }\n`;

  it('defaults to none, and keeps the names given (each once)', () => {
    const none = loadScenario('apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: x }\n');
    expect(none.ok && none.scenario.kubelet.proposedFixes).toEqual([]);
    const one = loadScenario(doc('[keepEvictedContentUntilFinished, keepEvictedContentUntilFinished]'));
    expect(one.ok && one.scenario.kubelet.proposedFixes).toEqual(['keepEvictedContentUntilFinished']);
  });

  it('refuses a merged fix\'s name (those are reverted, not applied), at its place', () => {
    const r = loadScenario(doc('[noopPatches]'), 'x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]).toMatchObject({ path: 'spec.kubelet.proposedFixes[0]', line: 5, col: 30 });
  });
});
