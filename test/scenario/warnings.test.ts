// Load-time warnings: issues that do not fail the load (issue 13 §2). A status-manager API call
// naming a container the pod does not have is legal upstream (SetContainerReadiness /
// SetContainerStartup log and ignore it), so it loads with a warning; node actions keep the error.
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario, renderIssues } from '../../src/scenario/index.js';
import { runScenario } from '../../src/index.js';
import { kss } from '../cli/helpers.js';

const text = (action: string) => `apiVersion: kss/v1alpha1
kind: Scenario
metadata:
  name: warn
spec:
  until: 5s
  kubelet: { runtime: none }
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: busybox }] }
  timeline:
    - at: 1s
      setPodStatus: { pod: web, status: { containerStatuses: [{ name: main, ready: false }] } }
    - at: 2s
      ${action}
  expect:
    - kubelet: { pod: web, version: 1 }
`; // the action is on line 15

describe('load-time warnings', () => {
  for (const [action, log] of [
    ['setContainerReadiness: { pod: web, container: mian, ready: true }', 'Container readiness changed for unknown container'],
    ['setContainerStartup: { pod: web, container: mian, started: true }', 'Container startup changed for unknown container'],
  ] as const) {
    it(`${action.split(':')[0]} naming an unknown container loads with a warning and changes nothing`, () => {
      const r = loadScenario(text(action), 'warn.yaml');
      if (!r.ok) throw new Error(renderIssues(r.issues));
      expect(r.warnings).toHaveLength(1);
      const w = r.warnings![0];
      expect(w).toMatchObject({ code: 'UNKNOWN_CONTAINER', severity: 'warning', line: 15, path: expect.stringMatching(/\.container$/) });
      expect(w.message).toContain('did you mean "main"?');
      expect(w.message).toContain(log);
      expect(renderIssues([w])).toMatch(/^warn\.yaml:15:\d+: warning UNKNOWN_CONTAINER at spec\.timeline\[1\]\.\w+\.container\n/);
      const run = runScenario(r.scenario, { seed: 1 });
      expect(run.verdict).toBe('pass');
      expect(run.trace.some((e) => e.type === 'log' && String((e as { msg?: unknown }).msg).includes(log))).toBe(true);
    });
  }

  it('a node action naming an unknown container is still an error', () => {
    const t = text('ready: { pod: web, container: mian, value: true }').replace('runtime: none', 'runtime: simulated');
    const r = loadScenario(t, 'warn.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => `${i.severity ?? 'error'} ${i.code}`)).toEqual(['error UNKNOWN_CONTAINER']);
    expect(renderIssues(r.issues)).toMatch(/: error UNKNOWN_CONTAINER at /);
  });

  it('a warning alongside an error: the load fails and lists both', () => {
    const t = text('setContainerReadiness: { pod: web, container: mian, ready: true }').replace('until: 5s', 'until: 5x');
    const r = loadScenario(t, 'warn.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.severity ?? 'error').sort()).toEqual(['error', 'warning']);
  });

  const dir = mkdtempSync(join(tmpdir(), 'kss-warn-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'warn.yaml'), text('setContainerReadiness: { pod: web, container: mian, ready: true }'));

  it('kss validate prints the warning and still says ok (exit 0)', async () => {
    const r = await kss(['validate', 'warn.yaml'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toBe('ok warn.yaml\n');
    expect(r.err).toMatch(/^warn\.yaml:15:\d+: warning UNKNOWN_CONTAINER at spec\.timeline\[1\]\.setContainerReadiness\.container\n/);
    expect(r.err).toContain('  15 |');
  });

  it('kss run prints the warning and runs (exit 0)', async () => {
    const r = await kss(['run', 'warn.yaml'], dir);
    expect(r.code).toBe(0);
    expect(r.err).toContain('warn.yaml:15:');
    expect(r.err).toContain('warning UNKNOWN_CONTAINER');
    expect(r.out).toContain('PASS');
  });
});
