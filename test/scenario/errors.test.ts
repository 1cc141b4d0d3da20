import { describe, expect, it } from 'vitest';
import { loadScenario, type Issue } from '../../src/scenario/index.js';

/** The issues of a scenario that must not load. */
function issues(text: string): Issue[] {
  const r = loadScenario(text, 'bad.yaml');
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.issues;
}

/** code, line:col and path of each issue: what a test should pin down. */
const where = (list: Issue[]) => list.map((i) => `${i.code} ${i.line}:${i.col} ${i.path}`);

const HEAD = `apiVersion: kss/v1alpha1
kind: Scenario
metadata:
  name: bad
spec:
`; // the spec body starts on line 6

const PODS = `  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main }] }
`; // lines 6-8

describe('loadScenario: bad input', () => {
  it('YAML_SYNTAX: a broken flow map', () => {
    const list = issues(HEAD + '  kubelet: { nodeName: node-a\n  seed: 1\n');
    expect(list[0]).toMatchObject({ code: 'YAML_SYNTAX', file: 'bad.yaml', line: 7, col: 3, path: '' });
  });

  it('YAML_SYNTAX: a duplicate key', () => {
    expect(where(issues(HEAD + '  seed: 1\n  seed: 2\n'))).toEqual(['YAML_SYNTAX 7:3 ']);
  });

  it('EMPTY_FILE: nothing but comments', () => {
    expect(issues('# just a comment\n\n')).toEqual([{ code: 'EMPTY_FILE', message: 'the file holds no YAML document', file: 'bad.yaml', line: 1, col: 1, path: '' }]);
    expect(where(issues(''))).toEqual(['EMPTY_FILE 1:1 ']);
  });

  it('INVALID_TYPE: a string where a number belongs', () => {
    const [i] = issues(HEAD + '  seed: seven\n');
    expect(i).toMatchObject({ code: 'INVALID_TYPE', line: 6, col: 9, endCol: 14, path: 'spec.seed', expected: 'an integer', got: '"seven"' });
    expect(i.message).toBe('expected an integer, got "seven"');
  });

  it('INVALID_VALUE: an enum value in the wrong case', () => {
    const [i] = issues(HEAD + PODS.replace('spec: {', 'spec: { restartPolicy: always,'));
    expect(i).toMatchObject({ code: 'INVALID_VALUE', line: 8, col: 30, endCol: 36, path: 'spec.pods[0].spec.restartPolicy', expected: '"Always" | "Never" | "OnFailure"', got: '"always"' });
    expect(i.message).toBe('expected "Always" | "Never" | "OnFailure", got "always"; did you mean "Always"?');
  });

  it('UNKNOWN_KEY: points at the key and suggests the near one', () => {
    const [i] = issues(HEAD + '  kubelet:\n    syncPeriode: 5s\n');
    expect(i).toMatchObject({ code: 'UNKNOWN_KEY', line: 7, col: 5, endCol: 16, path: 'spec.kubelet.syncPeriode' });
    expect(i.message).toBe('unknown key "syncPeriode"; did you mean "syncPeriod"?');
  });

  it('UNKNOWN_KEY: in x-kss, while Pod fields kss does not model are accepted', () => {
    const text = HEAD + PODS.replace('name: main }]', 'name: main, tty: true }], hostNetwork: true') + '      x-kss: { createdAt: 1s }\n';
    expect(where(issues(text))).toEqual(['UNKNOWN_KEY 9:16 spec.pods[0].x-kss.createdAt']);
    expect(issues(text)[0].message).toContain('did you mean "createAt"?');
  });

  it('BAD_DURATION: a bare number', () => {
    const [i] = issues(HEAD + '  until: 30\n');
    expect(i).toMatchObject({ code: 'BAD_DURATION', line: 6, col: 10, endCol: 12, path: 'spec.until', got: '30' });
    expect(i.message).toContain('a bare number has no unit');
  });

  it('BAD_RANGE: the bounds the wrong way round, or malformed', () => {
    const [i] = issues(HEAD + '  apiserver:\n    latency: 10ms..1ms\n');
    expect(i).toMatchObject({ code: 'BAD_RANGE', line: 7, col: 14, endCol: 23, path: 'spec.apiserver.latency', got: '"10ms..1ms"' });
    expect(i.message).toContain('the lower bound 10ms is above the upper bound 1ms');
    expect(where(issues(HEAD + '  apiserver:\n    latency: { patch: 1ms...5ms }\n'))).toEqual(['BAD_RANGE 7:23 spec.apiserver.latency.patch']);
  });

  it('MISSING_FIELD: metadata.name, pointing at the metadata map', () => {
    const text = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata:\n  description: no name\nspec: {}\n';
    const [i] = issues(text);
    expect(i).toMatchObject({ code: 'MISSING_FIELD', line: 4, col: 3, path: 'metadata.name' });
    expect(i.message).toMatch(/^missing required field "name"/);
  });

  it('UNKNOWN_POD: a step names a pod that is not declared', () => {
    const [i] = issues(HEAD + PODS + '  timeline:\n    - at: 1s\n      terminatePod: { pod: wbe }\n');
    expect(i).toMatchObject({ code: 'UNKNOWN_POD', line: 11, col: 28, endCol: 31, path: 'spec.timeline[0].terminatePod.pod', got: '"wbe"' });
    expect(i.message).toBe('no pod default/wbe in spec.pods or spec.staticPods; did you mean "web"?');
  });

  it('UNKNOWN_POD: a static pod named without its node', () => {
    const text = HEAD + '  staticPods:\n    - metadata: { name: etcd }\n      spec: { containers: [{ name: etcd }] }\n  expect:\n    - kubelet: { pod: etcd, cached: true }\n';
    const [i] = issues(text);
    expect(where([i])).toEqual(['UNKNOWN_POD 10:23 spec.expect[0].kubelet.pod']);
    expect(i.message).toContain('did you mean "etcd-node-a"?');
  });

  it('DUPLICATE_POD: the same name twice in the same place', () => {
    const text = HEAD + PODS + '    - metadata: { name: web }\n      spec: { containers: [{ name: other }] }\n      x-kss: { only: kubelet }\n';
    const [i] = issues(text);
    expect(i).toMatchObject({ code: 'DUPLICATE_POD', line: 9, col: 25, path: 'spec.pods[1].metadata.name' });
    expect(i.message).toContain('already declared at pods[0]');
  });

  it('UNKNOWN_ACTION: with a suggestion', () => {
    const [i] = issues(HEAD + PODS + '  timeline:\n    - at: 1s\n      setPodStats: { pod: web, status: {} }\n');
    expect(i).toMatchObject({ code: 'UNKNOWN_ACTION', line: 11, col: 7, endCol: 18, path: 'spec.timeline[0].setPodStats' });
    expect(i.message).toBe('unknown action "setPodStats"; did you mean "setPodStatus"?');
  });

  it('UNKNOWN_ASSERTION, UNKNOWN_CONTAINER, BAD_TIME and a bad operator', () => {
    const text =
      HEAD +
      PODS +
      '  timeline:\n    - at: 1s\n      oom: { pod: web, container: mian }\n' + // line 11
      '  expect:\n    - kubelett: { pod: web }\n' + // line 13
      '    - apiserver: { pod: web, status: { startTime: "@5", phase: { $eq: Running } } }\n'; // line 14
    expect(where(issues(text))).toEqual([
      'UNKNOWN_CONTAINER 11:35 spec.timeline[0].oom.container',
      'UNKNOWN_ASSERTION 13:7 spec.expect[0].kubelett',
      'BAD_TIME 14:51 spec.expect[1].apiserver.status.startTime',
      'INVALID_VALUE 14:66 spec.expect[1].apiserver.status.phase.$eq',
    ]);
  });

  it('a step with two actions, or none', () => {
    const text = HEAD + PODS + '  timeline:\n    - at: 1s\n      partition: {}\n      repair: {}\n    - at: 2s\n';
    expect(where(issues(text))).toEqual(['INVALID_VALUE 12:7 spec.timeline[0].repair', 'MISSING_FIELD 13:7 spec.timeline[1]']);
  });

  it('an unknown feature gate or invariant, with suggestions', () => {
    const list = issues(HEAD + '  kubelet:\n    featureGates: { SidecarContainer: true }\n  invariants: [write-matches-uid, deletion-complete]\n');
    expect(where(list)).toEqual(['UNKNOWN_KEY 7:21 spec.kubelet.featureGates.SidecarContainer', 'INVALID_VALUE 8:35 spec.invariants[1]']);
    expect(list[0].message).toBe('unknown feature gate "SidecarContainer"; did you mean "SidecarContainers"?');
    expect(list[1].message).toBe('unknown value "deletion-complete"; did you mean "deletion-completes"?');
  });

  it('reports every issue at once, in file order', () => {
    const text = HEAD + '  until: 30\n  seed: x\n' + PODS + '  timeline:\n    - at: 1\n      delete: { pod: nope }\n';
    expect(where(issues(text))).toEqual([
      'BAD_DURATION 6:10 spec.until',
      'INVALID_TYPE 7:9 spec.seed',
      'BAD_DURATION 12:11 spec.timeline[0].at',
      'UNKNOWN_POD 13:22 spec.timeline[0].delete.pod',
    ]);
  });
});
