// Image pulls (image-puller.ts): the pull policy's defaults, and serial against parallel pulls
// through whole runs.
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario } from '../../../src/index.js';
import { pullPolicyOf } from '../../../src/kubelet/node/image-puller.js';

describe('pullPolicyOf (SetDefaults_Container)', () => {
  it('Always for an untagged or :latest image, IfNotPresent for a tag or a digest; a given policy wins', () => {
    expect(pullPolicyOf({ name: 'c', image: 'nginx' })).toBe('Always');
    expect(pullPolicyOf({ name: 'c', image: 'nginx:latest' })).toBe('Always');
    expect(pullPolicyOf({ name: 'c', image: 'localhost:5000/app' })).toBe('Always');
    expect(pullPolicyOf({ name: 'c', image: 'nginx:1.27' })).toBe('IfNotPresent');
    expect(pullPolicyOf({ name: 'c', image: 'nginx@sha256:abc' })).toBe('IfNotPresent');
    expect(pullPolicyOf({ name: 'c', image: 'nginx', imagePullPolicy: 'Never' })).toBe('Never');
  });
});

describe('serial and parallel pulls', () => {
  const body = (serialize: boolean) => `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  until: 30s\n  kubelet: { serializeImagePulls: ${serialize} }\n  pods:\n${['a', 'b', 'c']
    .map((n) => `    - metadata: { name: ${n} }\n      spec: { containers: [{ name: main, image: "registry.example/${n}:1" }] }\n      x-kss: { createAt: ${n === 'a' ? 0 : n === 'b' ? 1 : 2}s, containers: { main: [{ run: forever, pull: 4s }] } }\n`)
    .join('')}`;
  const starts = (serialize: boolean) => {
    const loaded = loadScenario(body(serialize));
    if (!loaded.ok) throw new Error(loaded.issues[0].message);
    return runScenario(loaded.scenario, { keepTrace: true }).trace.filter((e) => e.type === 'runtime.start').map((e) => [e.pod, Math.floor(e.t / 1000)]);
  };
  it('serial (the default): each pull waits for the ones before it', () => {
    expect(starts(true)).toEqual([['default/a', 4], ['default/b', 8], ['default/c', 12]]);
  });
  it('parallel: each pull takes its own time only', () => {
    expect(starts(false)).toEqual([['default/a', 4], ['default/b', 5], ['default/c', 6]]);
  });
});
