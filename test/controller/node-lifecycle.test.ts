// The node lifecycle: tolerations as the DefaultTolerationSeconds admission plugin leaves them, and
// the controller end to end (heartbeats stop ⇒ Ready=Unknown ⇒ pods NotReady ⇒ taint ⇒ eviction).
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';
import { DEFAULT_TOLERATION_SECONDS, TAINT_NODE_UNREACHABLE, toleratesTaint, tolerationsWithDefaults } from '../../src/model/node.js';

const unreachable = { key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' as const, timeAdded: '' };

describe('tolerations', () => {
  it('matches as Toleration.ToleratesTaint does', () => {
    expect(toleratesTaint({ operator: 'Exists' }, unreachable)).toBe(true);
    expect(toleratesTaint({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoSchedule' }, unreachable)).toBe(false);
    expect(toleratesTaint({ key: 'other', operator: 'Exists' }, unreachable)).toBe(false);
    expect(toleratesTaint({ key: TAINT_NODE_UNREACHABLE, value: 'x' }, unreachable)).toBe(false);
    expect(toleratesTaint({ key: TAINT_NODE_UNREACHABLE }, unreachable)).toBe(true);
  });

  it('adds the 300 s defaults only where the pod does not tolerate the taint already', () => {
    const d = tolerationsWithDefaults({ spec: { containers: [] } });
    expect(d.map((t) => [t.key, t.tolerationSeconds])).toEqual([
      ['node.kubernetes.io/not-ready', DEFAULT_TOLERATION_SECONDS],
      [TAINT_NODE_UNREACHABLE, DEFAULT_TOLERATION_SECONDS],
    ]);
    const own = tolerationsWithDefaults({ spec: { containers: [], tolerations: [{ operator: 'Exists' }] } });
    expect(own).toEqual([{ operator: 'Exists' }]);
  });
});

function scenario(tolerationSeconds: string, healthyNodes = 2): string {
  return `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: nl }
spec:
  until: 200s
  invariants: none
  nodeLifecycle: { healthyNodes: ${healthyNodes} }
  pods:
    - metadata: { name: web }
      spec:
        tolerations: [{ key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute${tolerationSeconds} }]
        containers: [{ name: main, image: nginx }]
  timeline:
    - { at: 10s, partition: {} }
`;
}

function run(text: string) {
  const l = loadScenario(text, '<test>');
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario, { seed: 1 }).trace;
}

describe('the node lifecycle controller', () => {
  it('marks the node Unknown 40 s after the last heartbeat, the pod NotReady, taints the node and evicts after tolerationSeconds', () => {
    const trace = run(scenario(', tolerationSeconds: 20'));
    const at = (type: string) => trace.filter((r) => r.type === type).map((r) => r.t);
    expect(at('controller.mark-not-ready')).toEqual([50_000]);
    expect(trace.find((r) => r.type === 'node.status' && r.actor === 'controller')?.t).toBe(50_000);
    expect(at('node.taint')).toEqual([55_100]);
    expect(at('controller.evict')).toEqual([75_100]);
    expect(trace.some((r) => r.type === 'api.delete' && r.actor === 'controller' && r.t === 75_100)).toBe(true);
  });

  it('never evicts a pod that tolerates the taint forever', () => {
    const trace = run(scenario(''));
    expect(trace.filter((r) => r.type === 'node.taint')).toHaveLength(1);
    expect(trace.filter((r) => r.type === 'controller.evict')).toHaveLength(0);
  });

  it('takes no action against the last node standing (master disruption mode)', () => {
    const trace = run(scenario(', tolerationSeconds: 1', 0));
    expect(trace.filter((r) => r.type === 'node.taint')).toHaveLength(0);
    expect(trace.filter((r) => r.type === 'controller.evict')).toHaveLength(0);
    expect(trace.filter((r) => r.type === 'controller.mark-not-ready')).toHaveLength(1);
  });

  it('is off unless the scenario asks for it: no heartbeat without spec.nodeLifecycle', () => {
    const trace = run(scenario('').replace('  nodeLifecycle: { healthyNodes: 2 }\n', ''));
    expect(trace.filter((r) => String(r.type).startsWith('node.') || String(r.type).startsWith('controller.'))).toHaveLength(0);
  });
});
