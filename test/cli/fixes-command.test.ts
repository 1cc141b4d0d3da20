// `kss fixes` and `spec.kubelet.revertFixes` in the loader.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/index.js';
import { FIXES } from '../../src/model/fixes.js';
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

  it('--format json is the registry', async () => {
    const r = await kss(['fixes', '--format', 'json'], REPO);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(FIXES)));
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
