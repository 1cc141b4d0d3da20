// Assertions end to end: subset matching with operators, keyed lists, point-in-time evaluation,
// and scalar matchers on uid / version / apiStatusVersion.
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../src/index.js';
import { match } from '../../src/world/match.js';

function run(expectYaml: string) {
  const text = `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: m }
spec:
  until: 20s
  kubelet: { runtime: none }
  apiserver: { latency: 1ms }
  pods:
    - metadata: { name: web, uid: u1 }
      spec: { containers: [{ name: c, image: x }] }
  timeline:
    - at: 1s
      setPodStatus: { pod: web, status: { phase: Running, conditions: [{ type: Ready, status: "True" }] } }
  expect:
${expectYaml}`;
  const loaded = loadScenario(text, 'inline.yaml');
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return runScenario(loaded.scenario);
}

describe('assertions', () => {
  it('scalar matchers: absent before the first sync, equal after, $ne', () => {
    const r = run(`    - kubelet: { pod: web, at: 500ms, cached: false, version: { $exists: false }, apiStatusVersion: { $exists: false } }
    - kubelet: { pod: web, version: 1, apiStatusVersion: 1 }
    - kubelet: { pod: web, version: { $ne: 2 } }
    - apiserver: { pod: web, uid: { $ne: u2 } }
    - apiserver: { pod: web, uid: u1, status: { phase: Running, conditions: [{ type: Ready, status: "True", lastTransitionTime: "@1s" }] } }
`);
    expect(r.assertions.map((a) => [a.ok, a.message])).toEqual(r.assertions.map((a) => [true, a.message]));
  });

  it('each kind fails when it should, saying expected and got', () => {
    const r = run(`    - apiserver: { pod: web, uid: { $ne: u1 } }
    - kubelet: { pod: web, at: 500ms, cached: true }
    - apiserver: { pod: web, status: { conditions: [{ type: Ready, status: "False" }] } }
    - requests: { pod: web, verbs: [patch] }
`);
    expect(r.verdict).toBe('fail');
    expect(r.assertions.map((a) => a.ok)).toEqual([false, false, false, false]);
    expect(r.assertions[2].message).toMatch(/conditions\[type=Ready\]\.status: expected "False", got "True"/);
    expect(r.assertions[3].message).toMatch(/expected \[patch\], got \[get, patch\]/);
  });
});

describe('match', () => {
  it('subset match; keyed lists by type/name; operators', () => {
    const actual = { phase: 'Running', conditions: [{ type: 'A', status: 'True' }, { type: 'B', status: 'False' }], containerStatuses: [] };
    expect(match({ conditions: [{ type: 'B', status: 'False' }] }, actual)).toBeUndefined();
    expect(match({ conditions: [{ type: 'C' }] }, actual)?.path).toBe('conditions[type=C]');
    expect(match({ message: { $exists: false }, phase: { $ne: 'Pending' } }, actual)).toBeUndefined();
    expect(match({ conditions: { $len: 2 }, containerStatuses: { $len: 0 } }, actual)).toBeUndefined();
    expect(match({ phase: { $exists: false } }, actual)).toBeDefined();
  });
});
