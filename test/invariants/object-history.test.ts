// The invariants judged on the apiserver's history (terminal-phase-sticky,
// no-illegal-container-transition, no-ready-when-terminal, transition-time-honest), driven through
// the real apiserver and tracer.
import { describe, expect, it } from 'vitest';
import { dishonestTransitionTime, illegalContainerTransition } from '../../src/invariants/object-history.js';
import type { ContainerStatus, Pod } from '../../src/model/pod.js';
import { parseRfc3339 } from '../../src/model/time.js';
import { at, harness, pod } from './harness.js';

const terminated = (name: string, exitCode: number): ContainerStatus => ({ name, image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } });
const running = (name: string): ContainerStatus => ({ name, image: 'busybox', imageID: '', ready: true, restartCount: 1, state: { running: { startedAt: at(3) } } });
const waiting = (name: string): ContainerStatus => ({ name, image: 'busybox', imageID: '', ready: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } } });

describe('terminal-phase-sticky', () => {
  it('reports a pod that leaves Succeeded, once, with the event number and the seed', () => {
    const h = harness();
    h.create(pod('p'));
    h.check(['terminal-phase-sticky']);
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Succeeded' }));
    h.at(2000, () => h.kubeletPatch('p', { phase: 'Running' }));
    h.at(3000, () => h.kubeletPatch('p', { phase: 'Failed' }));
    h.at(4000, () => h.kubeletPatch('p', { phase: 'Pending' }));
    h.run(10_000);
    const v = h.violations();
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ t: 2000, actor: 'invariant', type: 'invariant.violation', pod: 'default/p', invariant: 'terminal-phase-sticky', event: 2, seed: 7 });
    expect(String(v[0].message)).toContain('Succeeded → Running');
    // The violation follows the write that caused it.
    const patchAt2s = h.tracer.records.find((r) => r.type === 'api.patch' && r.t === 2000)!;
    expect(v[0].seq).toBeGreaterThan(patchAt2s.seq);
  });

  it('reports Failed → Succeeded', () => {
    const h = harness();
    h.create(pod('p'));
    h.check(['terminal-phase-sticky']);
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Failed' }));
    h.at(2000, () => h.kubeletPatch('p', { phase: 'Succeeded' }));
    h.run(10_000);
    expect(h.violations().map((r) => r.message)).toEqual([expect.stringContaining('Failed → Succeeded')]);
  });

  it('holds while a terminal pod keeps its phase, and for a new incarnation under the same name', () => {
    const h = harness();
    h.create(pod('p'));
    h.check(['terminal-phase-sticky']);
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Succeeded' }));
    h.at(2000, () => h.kubeletPatch('p', { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(2) }] }));
    h.at(3000, () => h.apiserver.recreate(pod('p'), 'user')); // new UID, Pending
    h.at(4000, () => h.kubeletPatch('p', { phase: 'Running' }));
    h.run(10_000);
    expect(h.violations()).toEqual([]);
  });

  it('judges every kind of writer, the kubelet included', () => {
    const h = harness();
    const p = h.create(pod('p', { status: { phase: 'Failed' } }));
    h.check(['terminal-phase-sticky']);
    h.at(1000, () => h.apiserver.patchStatus('default', 'p', { metadata: { uid: p.metadata!.uid }, status: { phase: 'Running' } }, 'kubelet'));
    h.run(10_000);
    expect(h.violations()).toHaveLength(1);
  });
});

describe('no-illegal-container-transition', () => {
  const cases: Array<[string, 'Always' | 'OnFailure' | 'Never', ContainerStatus, ContainerStatus, boolean]> = [
    ['Never: terminated(0) → running', 'Never', terminated('main', 0), running('main'), true],
    ['Never: terminated(1) → waiting', 'Never', terminated('main', 1), waiting('main'), true],
    ['OnFailure: terminated(0) → running', 'OnFailure', terminated('main', 0), running('main'), true],
    ['OnFailure: terminated(2) → waiting', 'OnFailure', terminated('main', 2), waiting('main'), false],
    ['Always: terminated(0) → running', 'Always', terminated('main', 0), running('main'), false],
    ['Never: terminated(0) → terminated(137)', 'Never', terminated('main', 0), terminated('main', 137), false],
  ];
  for (const [title, policy, from, to, broken] of cases) {
    it(`${broken ? 'reports' : 'allows'} ${title}`, () => {
      const h = harness();
      h.create(pod('p', { restartPolicy: policy, status: { phase: 'Running', containerStatuses: [running('main')] } }));
      h.check(['no-illegal-container-transition']);
      h.at(1000, () => h.kubeletPatch('p', { containerStatuses: [from] }));
      h.at(2000, () => h.kubeletPatch('p', { containerStatuses: [to] }));
      h.run(5000);
      expect(h.violations()).toHaveLength(broken ? 1 : 0);
      if (broken) expect(h.violations()[0]).toMatchObject({ pod: 'default/p', invariant: 'no-illegal-container-transition', t: 2000 });
    });
  }

  it('checks init containers, and lets a sidecar restart (current generation)', () => {
    const initContainers = [
      { name: 'setup', image: 'busybox' },
      { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
    ];
    const base = pod('p', { restartPolicy: 'Never', initContainers });
    const with_ = (setup: ContainerStatus, proxy: ContainerStatus): Pod => ({ ...base, status: { initContainerStatuses: [setup, proxy] } });
    const none = () => false;
    const isSidecar = (c: { restartPolicy?: string }) => c.restartPolicy === 'Always';
    // The sidecar restarts: fine where sidecars exist, illegal where they do not.
    expect(illegalContainerTransition(with_(terminated('setup', 0), terminated('proxy', 0)), with_(terminated('setup', 0), running('proxy')), isSidecar)).toBeUndefined();
    expect(illegalContainerTransition(with_(terminated('setup', 0), terminated('proxy', 0)), with_(terminated('setup', 0), running('proxy')), none)).toContain('init container proxy');
    // A regular init container never restarts under Never.
    expect(illegalContainerTransition(with_(terminated('setup', 0), running('proxy')), with_(waiting('setup'), running('proxy')), isSidecar)).toContain('init container setup went terminated (exit 0) → waiting (CrashLoopBackOff)');
    // A container missing from the new version is not judged.
    expect(illegalContainerTransition(with_(terminated('setup', 0), running('proxy')), { ...base, status: { initContainerStatuses: [] } }, isSidecar)).toBeUndefined();
  });
});

describe('no-illegal-container-transition: sidecars follow the generation', () => {
  for (const [variant, broken] of [['current', false], ['classic', true]] as const) {
    it(`${variant}: a restartPolicy Always init container that restarts under a Never pod is ${broken ? 'reported' : 'fine'}`, () => {
      const h = harness({ variant });
      const initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }];
      h.create(pod('p', { restartPolicy: 'Never', initContainers, status: { phase: 'Running', initContainerStatuses: [terminated('proxy', 1)] } }));
      h.check(['no-illegal-container-transition']);
      h.at(1000, () => h.kubeletPatch('p', { initContainerStatuses: [running('proxy')] }));
      h.run(5000);
      expect(h.violations()).toHaveLength(broken ? 1 : 0);
    });
  }
});

describe('no-ready-when-terminal', () => {
  it('reports a terminal phase written with Ready=True', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(0) }] } }));
    h.check(['no-ready-when-terminal']);
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Failed' })); // Ready stays True through the merge
    h.at(2000, () => h.kubeletPatch('p', { phase: 'Succeeded' }));
    h.run(5000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', invariant: 'no-ready-when-terminal', t: 1000, message: expect.stringContaining('phase Failed with Ready=True') })]);
  });

  it('holds when Ready turns False with the terminal phase; a created version is input, not judged', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(0) }] } }));
    h.create(pod('q', { status: { phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(0) }] } }));
    h.check(['no-ready-when-terminal']);
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(1) }] }));
    h.at(2000, () => h.kubeletPatch('q', { message: 'a write that leaves the input as it was' }));
    h.run(5000);
    expect(h.violations()).toEqual([]);
  });
});

describe('transition-time-honest', () => {
  const ready = (status: 'True' | 'False', ltt?: string) => ({ type: 'Ready', status, ...(ltt ? { lastTransitionTime: ltt } : {}) });

  it('reports a status flip that keeps lastTransitionTime (an external patch without a time)', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [ready('True', at(1))] } }));
    h.check(['transition-time-honest']);
    h.at(5000, () => h.kubeletPatch('p', { conditions: [ready('False')] }));
    h.run(10_000);
    expect(h.violations()).toEqual([
      expect.objectContaining({ pod: 'default/p', invariant: 'transition-time-honest', t: 5000, message: expect.stringContaining('condition Ready went True → False but lastTransitionTime stayed 2026-01-01T00:00:01Z') }),
    ]);
  });

  it('reports a lastTransitionTime that moves back, status kept or not (BZ-15)', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [ready('True', at(1))] } }));
    h.create(pod('q', { status: { phase: 'Running', conditions: [ready('True', at(1))] } }));
    h.check(['transition-time-honest']);
    h.at(5000, () => h.kubeletPatch('p', { conditions: [ready('True', at(0))] }));
    h.at(5000, () => h.patch('q', { conditions: [ready('False', at(5))] })); // the node controller (another writer)
    h.at(9000, () => h.kubeletPatch('q', { conditions: [ready('True', at(1))] })); // the stale cache re-published
    h.run(10_000);
    expect(h.violations().map((r) => [r.pod, r.message])).toEqual([
      ['default/p', expect.stringContaining('condition Ready stayed True but lastTransitionTime moved back 2026-01-01T00:00:01Z → 2026-01-01T00:00:00Z')],
      ['default/q', expect.stringContaining('condition Ready went False → True but lastTransitionTime moved back 2026-01-01T00:00:05Z → 2026-01-01T00:00:01Z')],
    ]);
  });

  it('holds for honest flips, sub-second spellings of one second, and times being set', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [ready('False')] } }));
    h.check(['transition-time-honest']);
    h.at(1000, () => h.kubeletPatch('p', { conditions: [ready('False', at(1))] })); // a time appears: not judged
    h.at(3000, () => h.kubeletPatch('p', { conditions: [ready('True', at(3))] })); // flip, new time
    h.at(4000, () => h.kubeletPatch('p', { conditions: [ready('True', at(3.4))] })); // same second, spelled with ms
    h.at(9000, () => h.kubeletPatch('p', { conditions: [ready('False', at(9)), { type: 'Initialized', status: 'True', lastTransitionTime: at(9) }] }));
    h.run(15_000);
    expect(h.violations()).toEqual([]);
  });

  it('a time that moves on while the status stays is honest only after a transition the writer saw', () => {
    const prev = pod('p', { status: { conditions: [ready('False', at(9))] } });
    const next = pod('p', { status: { conditions: [ready('False', at(11))] } });
    const abs = parseRfc3339(at(12))!;
    // False → True → False in the kubelet's cache, the True never written: honest.
    expect(dishonestTransitionTime(prev, next, abs, () => true)).toBeUndefined();
    // No transition anywhere (another writer's re-stamp, or a forced condition re-sent): reported.
    expect(dishonestTransitionTime(prev, next, abs, () => false)).toContain('stayed False but lastTransitionTime moved');
  });

  it('reports a re-stamp by a writer that saw no transition', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [ready('False', at(0))] } }));
    h.check(['transition-time-honest']);
    h.at(12_000, () => h.kubeletPatch('p', { conditions: [ready('False', at(11))] }));
    h.run(15_000);
    expect(h.violations().map((v) => v.invariant)).toEqual(['transition-time-honest']);
  });

  it('lets two transitions of one second share a time when the write lands within the next second', () => {
    const prev = pod('p', { status: { conditions: [ready('False', at(5))] } });
    const next = pod('p', { status: { conditions: [ready('True', at(5))] } });
    const abs = (s: number) => parseRfc3339(at(s))!;
    expect(dishonestTransitionTime(prev, next, abs(5.9))).toBeUndefined();
    expect(dishonestTransitionTime(prev, next, abs(6.999))).toBeUndefined();
    expect(dishonestTransitionTime(prev, next, abs(7))).toContain('went False → True');
  });
});

describe('the object-history invariants judge the kubelet, not the world (issue 13 §3)', () => {
  const ready = (status: 'True' | 'False', ltt?: string) => ({ type: 'Ready', status, ...(ltt ? { lastTransitionTime: ltt } : {}) });

  it("another writer's writes are never violations, however they change the object", () => {
    const h = harness();
    h.create(pod('t', { restartPolicy: 'Never', status: { phase: 'Running', containerStatuses: [terminated('main', 0)], conditions: [ready('True', at(5))] } }));
    h.check(['terminal-phase-sticky', 'no-illegal-container-transition', 'no-ready-when-terminal', 'transition-time-honest']);
    h.at(1000, () => h.patch('t', { phase: 'Failed' })); // terminal with Ready True
    h.at(2000, () => h.patch('t', { phase: 'Running', containerStatuses: [running('main')] })); // leaves Failed; terminated → running
    h.at(3000, () => h.patch('t', { conditions: [ready('False', at(1))] })); // a flip stamped back in time
    h.run(10_000);
    expect(h.violations()).toEqual([]);
  });

  it('transition-time-honest: an older time set by another writer is not judged; the kubelet re-publishing an older one still is (BZ-15)', () => {
    const h = harness();
    h.create(pod('p', { status: { phase: 'Running', conditions: [ready('True', at(10))] } }));
    h.check(['transition-time-honest']);
    h.at(20_000, () => h.patch('p', { conditions: [ready('False', at(5))] })); // the environment: older time
    h.at(25_000, () => h.kubeletPatch('p', { conditions: [ready('True', at(10))] })); // honest: forward, with a flip
    h.at(30_000, () => h.patch('p', { conditions: [ready('False', at(30))] }));
    h.at(35_000, () => h.kubeletPatch('p', { conditions: [ready('True', at(10))] })); // the stale cache: back in time
    h.run(40_000);
    expect(h.violations().map((v) => [v.t, v.message])).toEqual([[35_000, expect.stringContaining('went False → True but lastTransitionTime moved back')]]);
  });

  it('terminal-phase-sticky and no-illegal-container-transition: the kubelet writing back over another writer still counts', () => {
    const h = harness();
    h.create(pod('p', { restartPolicy: 'Never', status: { phase: 'Running', containerStatuses: [running('main')] } }));
    h.check(['terminal-phase-sticky', 'no-illegal-container-transition']);
    h.at(1000, () => h.patch('p', { phase: 'Failed', containerStatuses: [terminated('main', 137)] }));
    h.at(2000, () => h.kubeletPatch('p', { phase: 'Running', containerStatuses: [running('main')] }));
    h.run(5000);
    expect(h.violations().map((v) => v.invariant).sort()).toEqual(['no-illegal-container-transition', 'terminal-phase-sticky']);
  });
});
