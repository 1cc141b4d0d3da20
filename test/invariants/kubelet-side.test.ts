// The invariants that read the kubelet's side (write-matches-uid, version-monotonic,
// no-terminal-while-running): the real apiserver and tracer, a fake status manager and runtime.
import { describe, expect, it } from 'vitest';
import { ANNOTATION_CONFIG_MIRROR, ANNOTATION_CONFIG_SOURCE } from '../../src/model/pod.js';
import { harness, pod } from './harness.js';

describe('write-matches-uid', () => {
  it('reports a status patch that lands on the object recreated after the kubelet read it (BZ-09)', () => {
    const h = harness();
    const a = h.create(pod('web-0'));
    h.check(['write-matches-uid']);
    h.at(1000, () => h.apiserver.get('default', 'web-0', 'kubelet'));
    h.at(1010, () => h.apiserver.recreate(pod('web-0'), 'user'));
    // The buggy generation: no UID precondition in the patch.
    h.at(1020, () => h.apiserver.patchStatus('default', 'web-0', { status: { phase: 'Failed' } }, 'kubelet'));
    h.run(5000);
    const b = h.apiserver.peek('default', 'web-0')!;
    expect(h.violations()).toEqual([
      expect.objectContaining({ pod: 'default/web-0', invariant: 'write-matches-uid', t: 1020, message: expect.stringContaining(`landed on uid ${b.metadata!.uid}, but its GET of default/web-0 returned uid ${a.metadata!.uid}`) }),
    ]);
  });

  it('reports a no-op patch and a delete that land on the other incarnation', () => {
    const h = harness();
    h.create(pod('p'));
    h.create(pod('q'));
    h.check(['write-matches-uid']);
    h.at(1000, () => h.apiserver.get('default', 'p', 'kubelet'));
    h.at(1000, () => h.apiserver.get('default', 'q', 'kubelet'));
    h.at(1010, () => h.apiserver.recreate(pod('p'), 'user'));
    h.at(1010, () => h.apiserver.recreate(pod('q'), 'user'));
    h.at(1020, () => h.apiserver.patchStatus('default', 'p', { status: {} }, 'kubelet'));
    h.at(1020, () => h.apiserver.delete('default', 'q', { gracePeriodSeconds: 0 }, 'kubelet'));
    h.run(5000);
    expect(h.violations().map((r) => [r.pod, String(r.message).split("'s ")[1].split(' ')[0]])).toEqual([
      ['default/p', 'patch'],
      ['default/q', 'delete'],
    ]);
  });

  it('holds when the UID precondition refuses the write, or the write lands where the GET pointed', () => {
    const h = harness();
    const a = h.create(pod('p'));
    const q = h.create(pod('q'));
    h.check(['write-matches-uid']);
    h.at(1000, () => h.apiserver.get('default', 'p', 'kubelet'));
    h.at(1010, () => h.apiserver.recreate(pod('p'), 'user'));
    h.at(1020, () => h.apiserver.patchStatus('default', 'p', { metadata: { uid: a.metadata!.uid }, status: { phase: 'Failed' } }, 'kubelet')); // 409
    h.at(2000, () => h.apiserver.get('default', 'q', 'kubelet'));
    h.at(2010, () => h.apiserver.patchStatus('default', 'q', { metadata: { uid: q.metadata!.uid }, status: { phase: 'Running' } }, 'kubelet'));
    h.at(2020, () => h.apiserver.delete('default', 'q', { gracePeriodSeconds: 0, uid: q.metadata!.uid }, 'kubelet'));
    // Writes of other actors, and kubelet writes with no GET before them, are not judged.
    h.at(3000, () => h.apiserver.externalPatch('default', 'p', { phase: 'Running' }, 'controller'));
    h.run(5000);
    expect(h.violations()).toEqual([]);
  });

  it('leaves the mirror client\'s deletes of mirror pods alone', () => {
    const h = harness();
    const mirror = (n: number) => pod('etcd-node-a', { annotations: { [ANNOTATION_CONFIG_MIRROR]: `hash${n}` } });
    h.create(mirror(1));
    h.check(['write-matches-uid']);
    h.at(1000, () => h.apiserver.get('default', 'etcd-node-a', 'kubelet'));
    h.at(1010, () => h.apiserver.delete('default', 'etcd-node-a', { gracePeriodSeconds: 0 }, 'user'));
    h.at(1020, () => h.apiserver.create(mirror(2), 'kubelet'));
    h.at(1030, () => h.apiserver.delete('default', 'etcd-node-a', { gracePeriodSeconds: 0 }, 'kubelet'));
    h.run(5000);
    expect(h.violations()).toEqual([]);
  });
});

describe('version-monotonic', () => {
  it('reports a cache entry whose version goes down without the entry being removed', () => {
    const h = harness();
    const p = h.create(pod('p'));
    h.check(['version-monotonic']);
    h.at(1000, () => h.kubelet!.statusManager.set(p, { phase: 'Pending' }));
    h.at(2000, () => h.kubelet!.statusManager.set(p, { phase: 'Running' }));
    h.at(3000, () => {
      h.kubelet!.statusManager.entries.get(p.metadata!.uid!)!.version = 1; // a rewind no status.set announces
      h.tracer.log('V3', 'Sync pod status', 'default/p'); // ...next to some other record about the pod
    });
    h.run(5000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', invariant: 'version-monotonic', t: 3000, message: expect.stringContaining('cache entry version went 2 → 1') })]);
  });

  it('reports a status.set whose version is lower than the last one of the entry', () => {
    const h = harness();
    const p = h.create(pod('p'));
    h.check(['version-monotonic']);
    h.at(1000, () => {
      h.tracer.emit({ type: 'status.set', actor: 'kubelet', pod: 'default/p', uid: p.metadata!.uid, version: 5 });
      h.tracer.emit({ type: 'status.set', actor: 'kubelet', pod: 'default/p', uid: p.metadata!.uid, version: 3 });
    });
    h.run(5000);
    expect(h.violations().map((r) => r.message)).toEqual([expect.stringContaining('status.set version 3 after version 5')]);
  });

  it('reports an apiStatusVersion that goes down', () => {
    const h = harness();
    const p = h.create(pod('p'));
    h.check(['version-monotonic']);
    const uid = p.metadata!.uid!;
    h.at(1000, () => {
      h.kubelet!.statusManager.set(p, { phase: 'Running' });
      h.kubelet!.statusManager.set(p, { phase: 'Running', message: 'x' });
      h.kubelet!.statusManager.api.set(uid, 2);
    });
    h.at(2000, () => {
      h.kubelet!.statusManager.api.set(uid, 1);
      h.tracer.log('V3', 'Status for pod updated successfully', 'default/p');
    });
    h.run(5000);
    expect(h.violations().map((r) => r.message)).toEqual([expect.stringContaining('apiStatusVersion went 2 → 1')]);
  });

  it('holds across a removed entry, a kubelet restart and the setApiStatusVersion step', () => {
    const h = harness();
    const p = h.create(pod('p'));
    const uid = p.metadata!.uid!;
    h.check(['version-monotonic']);
    h.at(1000, () => {
      for (let i = 0; i < 4; i++) h.kubelet!.statusManager.set(p, { phase: 'Running', message: String(i) });
      h.kubelet!.statusManager.api.set(uid, 4);
    });
    // RemoveOrphanedStatuses, then the pod is seen again: a fresh entry.
    h.at(2000, () => {
      h.kubelet!.statusManager.entries.delete(uid);
      h.kubelet!.statusManager.api.delete(uid);
    });
    h.at(3000, () => h.kubelet!.statusManager.set(p, { phase: 'Running' }));
    // Removed and re-added within one instant: status.set version 1 says the entry is fresh.
    h.at(4000, () => {
      h.kubelet!.statusManager.set(p, { phase: 'Running', message: 'again' });
      h.kubelet!.statusManager.entries.delete(uid);
      h.kubelet!.statusManager.set(p, { phase: 'Succeeded' });
    });
    // A new kubelet incarnation starts from nothing.
    h.at(5000, () => {
      h.kubelet!.statusManager.set(p, { phase: 'Failed' });
      h.kubelet!.statusManager.api.set(uid, 7);
    });
    h.at(6000, () => {
      h.restartKubelet();
      h.kubelet!.podManager.add(p);
      h.kubelet!.statusManager.set(p, { phase: 'Failed' });
      h.kubelet!.statusManager.api.set(uid, 1);
    });
    // The timeline overwrites apiStatusVersions (as upstream tests do).
    h.at(7000, () => {
      h.tracer.emit({ type: 'step', actor: 'timeline', pod: 'default/p', action: 'setApiStatusVersion', index: 0 });
      h.kubelet!.statusManager.api.set(uid, 0);
    });
    h.run(10_000);
    expect(h.violations()).toEqual([]);
  });
});

describe('no-terminal-while-running', () => {
  it('reports a terminal phase in the apiserver while a container runs', () => {
    const h = harness();
    const p = h.create(pod('p', { restartPolicy: 'Never' }));
    h.check(['no-terminal-while-running']);
    h.at(500, () => h.runtime!.start(p, 'main'));
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Failed' }));
    h.at(2000, () => h.kubeletPatch('p', { phase: 'Failed', message: 'again' }));
    h.run(5000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', invariant: 'no-terminal-while-running', t: 1000, message: expect.stringContaining('phase Failed in the apiserver while the runtime still runs main') })]);
  });

  it("judges the kubelet's terminal phase, not another writer's (issue 13 §3)", () => {
    const h = harness();
    const p = h.create(pod('p', { restartPolicy: 'Never' }));
    h.check(['no-terminal-while-running']);
    h.at(500, () => h.runtime!.start(p, 'main'));
    h.at(1000, () => h.patch('p', { phase: 'Failed' })); // a controller's: not the kubelet's claim
    h.at(2000, () => h.patch('p', { phase: 'Failed', message: 'again' }));
    h.at(3000, () => h.kubeletPatch('p', { phase: 'Failed', message: 'the kubelet says so too' }));
    h.run(5000);
    expect(h.violations().map((v) => v.t)).toEqual([3000]);
  });

  it('reports a container that starts in a pod the apiserver shows terminal', () => {
    const h = harness();
    const p = h.create(pod('p', { status: { phase: 'Succeeded' } }));
    h.check(['no-terminal-while-running']);
    h.at(1000, () => h.runtime!.start(p, 'main'));
    h.run(5000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/p', t: 1000 })]);
  });

  it('looks a mirror pod up under its static pod\'s UID', () => {
    const h = harness();
    const staticPod = pod('etcd-node-a', { uid: 'static-uid', annotations: { [ANNOTATION_CONFIG_SOURCE]: 'file' } });
    h.kubelet!.podManager.add(staticPod);
    h.create(pod('etcd-node-a', { annotations: { [ANNOTATION_CONFIG_MIRROR]: 'hash' } }));
    h.check(['no-terminal-while-running']);
    h.at(500, () => h.runtime!.start(staticPod, 'main'));
    h.at(1000, () => h.kubeletPatch('etcd-node-a', { phase: 'Succeeded' }));
    h.run(5000);
    expect(h.violations()).toEqual([expect.objectContaining({ pod: 'default/etcd-node-a', t: 1000 })]);
  });

  it('holds when the containers stopped before the terminal phase was written', () => {
    const h = harness();
    const p = h.create(pod('p', { restartPolicy: 'Never' }));
    const q = h.create(pod('q', { restartPolicy: 'Never' }));
    h.check(['no-terminal-while-running']);
    h.at(500, () => h.runtime!.start(p, 'main'));
    h.at(1000, () => h.runtime!.exit(p, 'main'));
    h.at(1000, () => h.kubeletPatch('p', { phase: 'Succeeded' }));
    h.at(1500, () => h.runtime!.start(q, 'main')); // another pod's container: p stays fine
    h.run(5000);
    expect(h.violations()).toEqual([]);
  });

  it('is inert with runtime: none', () => {
    const h = harness({ runtime: false });
    h.create(pod('p'));
    h.check(['no-terminal-while-running']);
    h.at(1000, () => h.patch('p', { phase: 'Failed' }));
    h.run(5000);
    expect(h.violations()).toEqual([]);
  });
});
