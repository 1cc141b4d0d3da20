// status-converges and deletion-completes, and the quiet they are judged by. The fake kubelet
// never syncs anything by itself: a test writes to the apiserver what the status manager would.
import { describe, expect, it } from 'vitest';
import { ANNOTATION_CONFIG_MIRROR, type Pod, type PodStatus } from '../../src/model/pod.js';
import { harness, pod } from './harness.js';

const RUNNING: PodStatus = { phase: 'Running', qosClass: 'BestEffort', conditions: [{ type: 'Ready', status: 'True' }] };

describe('status-converges', () => {
  it('reports a cached status that never reaches the apiserver, 2 × syncPeriod into quiet', () => {
    const h = harness({ tickMs: 10_000 });
    const p = h.create(pod('p'));
    h.check(['status-converges']);
    h.at(1000, () => h.kubelet!.statusManager.set(p, RUNNING));
    h.run(60_000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', invariant: 'status-converges', t: 30_000, message: expect.stringContaining('differs from the cached status (version 1') })]);
  });

  it('holds when the apiserver got the cached status; equality is the kubelet\'s (times of conditions do not count)', () => {
    const h = harness({ tickMs: 10_000 });
    const p = h.create(pod('p'));
    h.check(['status-converges']);
    h.at(1000, () => h.kubelet!.statusManager.set(p, RUNNING));
    h.at(1005, () => h.apiserver.patchStatus('default', 'p', { metadata: { uid: p.metadata!.uid }, status: { ...RUNNING, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z' }] } }, 'kubelet'));
    h.run(60_000);
    expect(h.violations()).toEqual([]);
  });

  it('judges again when a write undoes a converged status', () => {
    const h = harness({ tickMs: 10_000 });
    const p = h.create(pod('p'));
    h.check(['status-converges']);
    h.at(1000, () => h.kubelet!.statusManager.set(p, RUNNING));
    h.at(1005, () => h.apiserver.patchStatus('default', 'p', { status: RUNNING }, 'kubelet'));
    h.at(40_000, () => h.apiserver.patchStatus('default', 'p', { status: { phase: 'Pending' } }, 'kubelet'));
    h.run(60_000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 40_000 })]);
  });

  it('waits while a fault is in force, for the timeline to end, and for a recent status to settle', () => {
    const h = harness({ tickMs: 10_000, lastScheduledMs: 15_000 });
    const p = h.create(pod('p'));
    h.check(['status-converges']);
    h.at(1000, () => h.kubelet!.statusManager.set(p, RUNNING));
    h.at(2000, () => h.tracer.emit({ type: 'fault.begin', actor: 'network', fault: 'partition' }));
    h.at(50_000, () => h.tracer.emit({ type: 'fault.end', actor: 'network', fault: 'partition' }));
    h.at(55_000, () => h.kubelet!.statusManager.set(p, { ...RUNNING, message: 'newer' }));
    h.run(200_000);
    // quiet from 50s; the last status.set at 55s makes the entry due at 75s.
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 80_000 })]);
  });

  it('does not judge a deadline past the end of the run, nor while the kubelet is down', () => {
    const h = harness({ tickMs: 10_000 });
    const p = h.create(pod('p'));
    const q = h.create(pod('q'));
    h.check(['status-converges']);
    h.at(1000, () => h.kubelet!.statusManager.set(p, RUNNING));
    h.at(2000, () => h.restartKubelet(true));
    h.at(100_000, () => {
      h.startKubelet();
      h.kubelet!.podManager.add(q);
      h.kubelet!.statusManager.set(q, RUNNING);
    });
    h.run(115_000);
    expect(h.violations()).toEqual([]);
  });

  it('skips entries with nothing to converge to (object gone or replaced)', () => {
    const h = harness({ tickMs: 10_000 });
    const p = h.create(pod('p'));
    const q = h.create(pod('q'));
    h.check(['status-converges']);
    h.at(1000, () => {
      h.kubelet!.statusManager.set(p, RUNNING);
      h.kubelet!.statusManager.set(q, RUNNING);
    });
    h.at(2000, () => h.apiserver.delete('default', 'p', { gracePeriodSeconds: 0 }, 'user'));
    h.at(2000, () => h.apiserver.recreate(pod('q'), 'user'));
    h.run(60_000);
    expect(h.violations()).toEqual([]);
  });
});

describe('deletion-completes', () => {
  it('reports a gracefully deleted pod still there 2 × syncPeriod after its grace deadline', () => {
    const h = harness({ tickMs: 10_000 });
    h.create(pod('p', { grace: 5 }));
    h.check(['deletion-completes']);
    h.at(1000, () => h.apiserver.delete('default', 'p', {}, 'user'));
    h.run(60_000);
    // deadline 6s, due 26s, judged at the next instant with an event (30s).
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', invariant: 'deletion-completes', t: 30_000, message: expect.stringContaining('after its deletionTimestamp 2026-01-01T00:00:06Z') })]);
  });

  it('judges a deadline that falls after the last event at the end of the run', () => {
    const h = harness();
    h.create(pod('p', { grace: 5 }));
    h.check(['deletion-completes']);
    h.at(1000, () => h.apiserver.delete('default', 'p', {}, 'user'));
    h.at(2000, () => {});
    h.at(50_000, () => {});
    h.run(60_000);
    // The 26s deadline passes with no event; the next one (50s) judges it.
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 50_000 })]);
  });

  it('judges a run that went idle at its until (the clock stays at the last event)', () => {
    const h = harness();
    h.create(pod('p', { grace: 5 }));
    h.check(['deletion-completes']);
    h.at(1000, () => h.apiserver.delete('default', 'p', {}, 'user'));
    h.at(2000, () => {});
    h.run(60_000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 2000, message: expect.stringContaining('still in the apiserver 54000ms after its deletionTimestamp') })]);
  });

  it('judges at the end of a run that reaches until a deadline no event reached', () => {
    const h = harness();
    h.create(pod('p', { grace: 5 }));
    h.check(['deletion-completes']);
    h.at(1000, () => h.apiserver.delete('default', 'p', {}, 'user'));
    h.at(90_000, () => {}); // still queued at until: the run ends at until, not idle
    h.run(60_000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 60_000 })]);
  });

  it('holds when the kubelet deletes the pod in time (one held by finalizers: sends its final DELETE); ignores pods of other nodes', () => {
    const h = harness({ tickMs: 10_000, foreignKeys: ['default/elsewhere'] });
    const p = h.create(pod('p', { grace: 5 }));
    h.create(pod('other-node', { nodeName: 'node-b' }));
    h.create(pod('elsewhere'));
    h.create({ ...pod('held'), metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/keep'] } });
    h.check(['deletion-completes']);
    h.at(1000, () => {
      for (const n of ['p', 'other-node', 'elsewhere', 'held']) h.apiserver.delete('default', n, {}, 'user');
    });
    h.at(7000, () => h.apiserver.delete('default', 'p', { gracePeriodSeconds: 0, uid: p.metadata!.uid }, 'kubelet'));
    h.at(7000, () => h.apiserver.delete('default', 'held', { gracePeriodSeconds: 0 }, 'kubelet'));
    h.run(120_000);
    expect(h.violations()).toEqual([]);
    expect(h.apiserver.peek('default', 'held')).toBeDefined(); // the finalizer keeps it
  });

  it('reports a pod held by finalizers that the kubelet never sends its final DELETE for', () => {
    const h = harness({ tickMs: 10_000 });
    h.create({ ...pod('held'), metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/keep'] } });
    h.check(['deletion-completes']);
    h.at(1000, () => h.apiserver.delete('default', 'held', {}, 'user'));
    h.run(120_000);
    expect(h.violations().map((v) => v.pod)).toEqual(['default/held']);
  });

  it('with runtime: none, counts a pod only once the status manager has it (current: finished)', () => {
    const h = harness({ tickMs: 10_000, runtime: false });
    const p = h.create(pod('p', { grace: 5 }));
    const q = h.create(pod('q', { grace: 5 }));
    const r = h.create(pod('r', { grace: 5 }));
    h.create(pod('m', { grace: 5, annotations: { [ANNOTATION_CONFIG_MIRROR]: 'hash' } }));
    h.check(['deletion-completes']);
    h.at(1000, () => {
      for (const n of ['p', 'q', 'r', 'm']) h.apiserver.delete('default', n, {}, 'user');
      h.kubelet!.statusManager.set(q, RUNNING); // not finished: the kubelet may not delete it yet
      h.kubelet!.statusManager.set(r, { phase: 'Succeeded' }, true); // TerminatePod ran
    });
    h.run(60_000);
    void p;
    expect(h.violations().map((v) => v.pod)).toEqual(['default/r']);
  });

  it('waits for quiet: a fault during the grace period pushes the deadline', () => {
    const h = harness({ tickMs: 10_000 });
    h.create(pod('p', { grace: 5 }));
    h.check(['deletion-completes']);
    h.at(1000, () => h.apiserver.delete('default', 'p', {}, 'user'));
    h.at(2000, () => h.tracer.emit({ type: 'fault.begin', actor: 'network', fault: 'fail', id: 1 }));
    h.at(2000, () => h.tracer.emit({ type: 'fault.begin', actor: 'network', fault: 'fail', id: 2 }));
    h.at(40_000, () => h.tracer.emit({ type: 'fault.end', actor: 'network', fault: 'fail', id: 1 }));
    h.at(45_000, () => h.tracer.emit({ type: 'fault.end', actor: 'network', fault: 'fail', id: 2 }));
    h.run(120_000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 70_000 })]);
  });
});

// Keep the helper's type in use for readers of the fixtures above.
export type { Pod };
