import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVARIANT_NAMES, loadScenario, loadScenarioFile, scenarioJsonSchema, type Scenario } from '../../src/scenario/index.js';

const HEADER = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\nspec:\n';

/** Load a scenario whose `spec:` body is given (indented two spaces), and insist it is valid. */
function load(specBody: string): Scenario {
  const r = loadScenario(HEADER + specBody, 't.yaml');
  if (!r.ok) throw new Error(JSON.stringify(r.issues, null, 2));
  return r.scenario;
}

const POD = `
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main }] }
`;

describe('loadScenario: defaults', () => {
  it('fills every default of a minimal scenario', () => {
    const text = `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata:\n  name: minimal\n`;
    const r = loadScenario(text, 'min.yaml');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.scenario;
    expect(s).toMatchObject({
      file: 'min.yaml',
      sha256: createHash('sha256').update(text).digest('hex'),
      name: 'minimal',
      tags: [],
      seed: 1,
      epoch: '2026-01-01T00:00:00Z',
      untilMs: 600_000,
      pods: [],
      staticPods: [],
      timeline: [],
      expect: [],
    });
    expect(s.description).toBeUndefined();
    expect(s.kubelet).toEqual({
      nodeName: 'node-a',
      statusManager: 'current',
      syncPeriodMs: 10_000,
      statusChannelCapacity: 1000,
      runtime: 'simulated',
      plegRelistPeriodMs: 1000,
      apiQPS: 50,
      apiBurst: 100,
      requestTimeoutMs: 10_000,
      deletionSafety: { podResourcesReclaimed: true, podCouldHaveRunningContainers: false },
      featureGates: { PodDisruptionConditions: true, PodReadyToStartContainersCondition: true, SidecarContainers: true, ChangeContainerStatusOnKubeletRestart: true, RecursiveReadOnlyMounts: true },
      explicitFeatureGates: {},
      revertFixes: [],
      proposedFixes: [],
    });
    const r15 = { minMs: 1, maxMs: 5 };
    expect(s.apiserver.latency).toEqual({ get: r15, patch: r15, delete: r15, create: r15 });
    expect(s.invariants).toEqual([...INVARIANT_NAMES]);
  });

  it('gives a pod the apiserver defaults and strips x-kss', () => {
    const s = load(`
  kubelet: { nodeName: node-b }
  pods:
    - metadata: { name: web, labels: { app: web } }
      spec:
        containers: [{ name: main, image: nginx, ports: [{ containerPort: 80 }] }]
        priorityClassName: high
      x-kss: { containers: { main: [{ run: 5s, exit: 3, term: ignore, reason: Crash }] } }
`);
    const [p] = s.pods;
    expect(p.key).toBe('default/web');
    expect(p.pod).toEqual({
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'main', image: 'nginx', ports: [{ containerPort: 80 }] }],
        priorityClassName: 'high',
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        nodeName: 'node-b',
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
    expect(p).toMatchObject({ createAtMs: 0, static: false, pos: { line: 9, col: 7 } });
    expect(p.only).toBeUndefined();
    expect(p.containers).toEqual({ main: [{ runMs: 5000, exit: 3, term: 'ignore', reason: 'Crash' }] });
  });

  it('defaults unlisted containers: running forever, plain init containers completing', () => {
    const s = load(`
  pods:
    - metadata: { name: web }
      spec:
        initContainers: [{ name: init }, { name: proxy, restartPolicy: Always }]
        containers: [{ name: main }]
      x-kss: { createAt: never, only: kubelet }
`);
    expect(s.pods[0]).toMatchObject({ createAtMs: 'never', only: 'kubelet' });
    expect(s.pods[0].containers).toEqual({
      init: [{ runMs: 0, exit: 0, term: 0 }],
      proxy: [{ runMs: 'forever', exit: 0, term: 0 }],
      main: [{ runMs: 'forever', exit: 0, term: 0 }],
    });
  });

  it('computes the QoS class, and keeps a given status exactly', () => {
    const s = load(`
  pods:
    - metadata: { name: burst }
      spec: { containers: [{ name: a, resources: { requests: { cpu: 100m } } }] }
    - metadata: { name: guar }
      spec:
        containers:
          - { name: a, resources: { limits: { cpu: 500m, memory: 1Gi } } }
          - { name: b, resources: { requests: { cpu: "0.5", memory: 1Gi }, limits: { cpu: 500m, memory: 1024Mi } } }
    - metadata: { name: given }
      spec: { containers: [{ name: a }] }
      status: { phase: Running, conditions: [{ type: Ready, status: "True" }] }
`);
    expect(s.pods.map((p) => p.pod.status)).toEqual([
      { phase: 'Pending', qosClass: 'Burstable' },
      { phase: 'Pending', qosClass: 'Guaranteed' },
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    ]);
  });

  it('resolves featureGates per generation, explicit values winning', () => {
    const classic = load(`  kubelet: { statusManager: classic, featureGates: { SidecarContainers: true } }\n`);
    expect(classic.kubelet.featureGates).toEqual({ PodDisruptionConditions: false, PodReadyToStartContainersCondition: false, SidecarContainers: true, ChangeContainerStatusOnKubeletRestart: true, RecursiveReadOnlyMounts: false });
    const current = load(`  kubelet: { featureGates: { PodDisruptionConditions: false } }\n`);
    expect(current.kubelet.featureGates).toEqual({ PodDisruptionConditions: false, PodReadyToStartContainersCondition: true, SidecarContainers: true, ChangeContainerStatusOnKubeletRestart: true, RecursiveReadOnlyMounts: true });
  });

  it('sets latency for all verbs from one range, or per verb with the rest defaulted', () => {
    const one = load(`  apiserver: { latency: 2ms..10ms }\n`).apiserver.latency;
    expect(one).toEqual({ get: { minMs: 2, maxMs: 10 }, patch: { minMs: 2, maxMs: 10 }, delete: { minMs: 2, maxMs: 10 }, create: { minMs: 2, maxMs: 10 } });
    const per = load(`  apiserver:\n    latency: { patch: 2ms..8ms, get: 3ms }\n`).apiserver.latency;
    expect(per).toEqual({ get: { minMs: 3, maxMs: 3 }, patch: { minMs: 2, maxMs: 8 }, delete: { minMs: 1, maxMs: 5 }, create: { minMs: 1, maxMs: 5 } });
  });

  it('reads the rest of spec: seed, epoch, until, invariants', () => {
    const s = load(`  seed: 42\n  epoch: 2030-06-01T12:00:00+02:00\n  until: 1m30s\n  invariants: [write-matches-uid, status-converges]\n`);
    expect(s).toMatchObject({ seed: 42, epoch: '2030-06-01T10:00:00Z', untilMs: 90_000, invariants: ['write-matches-uid', 'status-converges'] });
    expect(load(`  invariants: none\n`).invariants).toEqual([]);
  });
});

describe('loadScenario: static pods', () => {
  const text = `
  kubelet: { nodeName: node-b }
  staticPods:
    - metadata: { name: etcd, namespace: kube-system, annotations: { team: db } }
      spec: { containers: [{ name: etcd }] }
  timeline:
    - at: 1s
      createMirror: { pod: kube-system/etcd-node-b }
`;
  it('suffixes the name with the node and marks the pod as file-sourced', () => {
    const s = load(text);
    const [sp] = s.staticPods;
    expect(sp.key).toBe('kube-system/etcd-node-b');
    expect(sp.static).toBe(true);
    const meta = sp.pod.metadata!;
    expect(meta.name).toBe('etcd-node-b');
    expect(meta.uid).toMatch(/^[0-9a-f]{32}$/);
    expect(meta.annotations).toEqual({ team: 'db', 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': meta.uid });
    expect(sp.pod.spec!.nodeName).toBe('node-b');
    expect(s.timeline[0]).toMatchObject({ action: 'createMirror', pod: 'kube-system/etcd-node-b' });
  });

  it('hashes the manifest deterministically', () => {
    const uid = (t: string) => load(t).staticPods[0].pod.metadata!.uid;
    expect(uid(text)).toBe(uid(text));
    expect(uid(text)).not.toBe(uid(text.replace('name: etcd }', 'name: etcd, image: etcd:3 }')));
  });
});

describe('loadScenario: timeline and expect', () => {
  it('normalizes pod references and keeps steps in file order', () => {
    const s = load(`${POD}    - metadata: { name: api, namespace: prod }
      spec: { containers: [{ name: main }] }
  timeline:
    - at: 5s
      delete: { pod: web, gracePeriodSeconds: 0 }
    - at: 1s
      terminatePod: { pod: prod/api }
    - at: 0
      removeOrphanedStatuses: { keep: [web, prod/api] }
`);
    expect(s.timeline).toEqual([
      { action: 'delete', pod: 'default/web', gracePeriodSeconds: 0, atMs: 5000, index: 0, pos: { line: 13, col: 7 } },
      { action: 'terminatePod', pod: 'prod/api', atMs: 1000, index: 1, pos: { line: 15, col: 7 } },
      { action: 'removeOrphanedStatuses', keep: ['default/web', 'prod/api'], atMs: 0, index: 2, pos: { line: 17, col: 7 } },
    ]);
  });

  it('maps every kind of step field to the typed action', () => {
    const s = load(`${POD}  timeline:
    - { at: 1s, partition: }
    - { at: 1s, repair: {} }
    - { at: 1s, restartApiserver: }
    - { at: 1s, restartKubelet: { downFor: 3s } }
    - { at: 1s, fail: { verbs: [patch, get], code: timeout, for: 2s } }
    - { at: 1s, fail: { verbs: [delete], code: 409, count: 2 } }
    - { at: 1s, syncBatch: }
    - { at: 1s, syncBatch: { all: false } }
    - { at: 1s, latency: { delete: 5ms..9ms } }
    - { at: 1s, exit: { pod: web, container: main, code: 1, reason: Error } }
    - { at: 1s, setContainerReadiness: { pod: web, container: main, ready: true } }
    - { at: 1s, setDeletionSafety: { podCouldHaveRunningContainers: true } }
    - { at: 1s, setApiStatusVersion: { pod: web, version: 3 } }
`);
    const actions = s.timeline.map(({ atMs: _a, index: _i, pos: _p, ...a }) => a);
    expect(actions).toEqual([
      { action: 'partition' },
      { action: 'repair' },
      { action: 'restartApiserver', downForMs: 0 },
      { action: 'restartKubelet', downForMs: 3000 },
      { action: 'fail', verbs: ['patch', 'get'], code: 'timeout', forMs: 2000 },
      { action: 'fail', verbs: ['delete'], code: 409, count: 2 },
      { action: 'syncBatch', all: true },
      { action: 'syncBatch', all: false },
      { action: 'latency', latency: { get: { minMs: 1, maxMs: 5 }, patch: { minMs: 1, maxMs: 5 }, delete: { minMs: 5, maxMs: 9 }, create: { minMs: 1, maxMs: 5 } } },
      { action: 'exit', pod: 'default/web', container: 'main', code: 1, reason: 'Error' },
      { action: 'setContainerReadiness', pod: 'default/web', container: 'main', ready: true },
      { action: 'setDeletionSafety', podCouldHaveRunningContainers: true },
      { action: 'setApiStatusVersion', pod: 'default/web', version: 3 },
    ]);
  });

  it('resolves @ times in statuses of pods, steps and assertions, leaving operators alone', () => {
    const s = load(`
  epoch: 2026-03-01T00:00:00Z
  pods:
    - metadata: { name: web, deletionTimestamp: "@30s" }
      spec: { containers: [{ name: main }] }
      status: { phase: Running, startTime: "@-1m" }
  timeline:
    - at: 2s
      setPodStatus: { pod: web, status: { conditions: [{ type: Ready, status: "True", lastTransitionTime: "@1.250s" }] } }
  expect:
    - apiserver: { pod: web, at: 3s, status: { startTime: { $ne: "@2s" }, conditions: { $len: 1 }, reason: { $exists: false } } }
    - converged: { within: 20s }
    - requests: { pod: web, verbs: [get, patch], from: 1s, to: 2s }
`);
    expect(s.pods[0].pod.metadata!.deletionTimestamp).toBe('2026-03-01T00:00:30Z');
    expect(s.pods[0].pod.status).toEqual({ phase: 'Running', startTime: '2026-02-28T23:59:00Z' });
    const step = s.timeline[0];
    expect(step.action === 'setPodStatus' && step.status.conditions![0].lastTransitionTime).toBe('2026-03-01T00:00:01.250Z');
    expect(s.expect).toEqual([
      {
        kind: 'apiserver',
        pod: 'default/web',
        atMs: 3000,
        status: { startTime: { $ne: '2026-03-01T00:00:02Z' }, conditions: { $len: 1 }, reason: { $exists: false } },
        index: 0,
        pos: { line: 16, col: 7 },
      },
      { kind: 'converged', withinMs: 20_000, index: 1, pos: { line: 17, col: 7 } },
      { kind: 'requests', pod: 'default/web', verbs: ['get', 'patch'], fromMs: 1000, toMs: 2000, index: 2, pos: { line: 18, col: 7 } },
    ]);
  });

  it('accepts twin pods when one lives only in the kubelet and one only in the apiserver', () => {
    const s = load(`
  pods:
    - metadata: { name: web, uid: old }
      spec: { containers: [{ name: main }] }
      x-kss: { only: kubelet }
    - metadata: { name: web, uid: new }
      spec: { containers: [{ name: main }] }
      x-kss: { only: apiserver }
`);
    expect(s.pods.map((p) => [p.key, p.only, p.pod.metadata!.uid])).toEqual([
      ['default/web', 'kubelet', 'old'],
      ['default/web', 'apiserver', 'new'],
    ]);
  });
});

describe('loadScenarioFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kss-scenario-'));

  it('reads a file and hashes its bytes', () => {
    const text = HEADER + POD;
    const path = join(dir, 'ok.yaml');
    writeFileSync(path, text);
    const r = loadScenarioFile(path);
    expect(r.ok && r.scenario.file).toBe(path);
    expect(r.ok && r.scenario.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('reports a missing file as FILE_NOT_FOUND', () => {
    const path = join(dir, 'nope.yaml');
    const r = loadScenarioFile(path);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ code: 'FILE_NOT_FOUND', message: `cannot read ${path}: no such file`, file: path, line: 0, col: 0, path: '' }]);
  });
});

describe('scenarioJsonSchema', () => {
  it('describes the format for editors, with loose pod manifests', () => {
    const s = scenarioJsonSchema() as { type: string; required: string[]; properties: Record<string, any> };
    expect(s.type).toBe('object');
    expect(s.required).toEqual(['apiVersion', 'kind', 'metadata']);
    const spec = s.properties.spec.anyOf[0];
    expect(Object.keys(spec.properties)).toContain('timeline');
    const pod = spec.properties.pods.anyOf[0].items;
    expect(pod.additionalProperties).toEqual({});
    expect(pod.properties['x-kss'].additionalProperties).toBe(false);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
