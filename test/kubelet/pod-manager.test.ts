// The pod manager (pkg/kubelet/pod basicManager), spec §5.8.
import { describe, expect, it } from 'vitest';
import { PodManager } from '../../src/kubelet/pod-manager.js';
import type { Pod } from '../../src/model/index.js';

function pod(uid: string, name: string, ns = 'default', annotations?: Record<string, string>): Pod {
  return { metadata: { uid, name, namespace: ns, ...(annotations ? { annotations } : {}) }, spec: { containers: [] } };
}
const STATIC = { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': 'h1' };
const MIRROR = { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.mirror': 'h1' };

describe('PodManager', () => {
  it('indexes regular pods by UID and full name; mirror pods separately', () => {
    const pm = new PodManager();
    const a = pod('a', 'web');
    const m = pod('m', 'etcd-node', 'kube-system', MIRROR);
    pm.addPod(a);
    pm.addPod(m);
    expect(pm.getPodByUID('a')).toBe(a);
    expect(pm.getPodByFullName('web_default')).toBe(a);
    expect(pm.getPodByName('default', 'web')).toBe(a);
    expect(pm.getPodByUID('m')).toBeUndefined(); // podByUID holds non-mirror pods only
    expect(pm.getPodByFullName('etcd-node_kube-system')).toBeUndefined();
    expect(pm.getMirrorPodByUID('m')).toBe(m);
    expect(pm.getPods()).toEqual([a]);
    expect(pm.getMirrorPods()).toEqual([m]);
  });

  it.each([
    ['static first, then mirror', true],
    ['mirror first, then static', false],
  ])('records the translation whichever arrives second (%s)', (_d, staticFirst) => {
    const pm = new PodManager();
    const s = pod('s', 'etcd', 'kube-system', STATIC);
    const m = pod('m', 'etcd', 'kube-system', MIRROR);
    if (staticFirst) {
      pm.addPod(s);
      pm.addPod(m);
    } else {
      pm.addPod(m);
      pm.addPod(s);
    }
    expect(pm.translatePodUID('m')).toBe('s');
    expect(pm.translatePodUID('s')).toBe('s');
    expect(pm.translatePodUID('other')).toBe('other');
    expect(pm.translatePodUID('')).toBe('');
    expect(pm.getMirrorPodByPod(s)).toBe(m);
    expect(pm.getPodByMirrorPod(m)).toBe(s);
    const { podToMirror, mirrorToPod } = pm.getUIDTranslations();
    expect([...podToMirror]).toEqual([['s', 'm']]);
    expect([...mirrorToPod]).toEqual([['m', 's']]);
    expect(pm.isMirrorPodOf(m, s)).toBe(true);
  });

  it('GetUIDTranslations has "" for every static pod without a mirror, nothing for regular pods', () => {
    const pm = new PodManager([pod('s1', 'a', 'ns', STATIC), pod('s2', 'b', 'ns', STATIC), pod('r', 'c', 'ns'), pod('m2', 'b', 'ns', MIRROR)]);
    const { podToMirror, mirrorToPod } = pm.getUIDTranslations();
    expect(Object.fromEntries(podToMirror)).toEqual({ s1: '', s2: 'm2' });
    expect(Object.fromEntries(mirrorToPod)).toEqual({ m2: 's2' });
  });

  it('deleting the mirror removes its translation; deleting the static pod does not', () => {
    const pm = new PodManager();
    const s = pod('s', 'etcd', 'kube-system', STATIC);
    const m = pod('m', 'etcd', 'kube-system', MIRROR);
    pm.addPod(s);
    pm.addPod(m);
    pm.removePod(s);
    expect(pm.getPodByUID('s')).toBeUndefined();
    expect(pm.translatePodUID('m')).toBe('s'); // the translation survives the static pod
    expect(Object.fromEntries(pm.getUIDTranslations().mirrorToPod)).toEqual({ m: 's' });
    expect(pm.getOrphanedMirrorPodNames()).toEqual(['etcd_kube-system']);
    pm.deletePod(m);
    expect(pm.translatePodUID('m')).toBe('m');
    expect(pm.getMirrorPodByUID('m')).toBeUndefined();
    expect(pm.getOrphanedMirrorPodNames()).toEqual([]);
  });

  it('a recreated mirror pod gets a new translation; the old UID no longer translates', () => {
    const pm = new PodManager([pod('s', 'etcd', 'kube-system', STATIC), pod('m1', 'etcd', 'kube-system', MIRROR)]);
    pm.removePod(pod('m1', 'etcd', 'kube-system', MIRROR));
    pm.addPod(pod('m2', 'etcd', 'kube-system', MIRROR));
    expect(pm.translatePodUID('m1')).toBe('m1');
    expect(pm.translatePodUID('m2')).toBe('s');
    expect(Object.fromEntries(pm.getUIDTranslations().podToMirror)).toEqual({ s: 'm2' });
  });

  it('GetMirrorPodByPod works for any pod with the full name, not only static ones', () => {
    const pm = new PodManager([pod('r', 'x', 'ns'), pod('m', 'x', 'ns', MIRROR)]);
    expect(pm.getMirrorPodByPod(pod('r', 'x', 'ns'))?.metadata?.uid).toBe('m');
    expect(pm.translatePodUID('m')).toBe('r');
    // A regular pod is not static: GetUIDTranslations has no "" entry for it, only the translation.
    expect(Object.fromEntries(pm.getUIDTranslations().podToMirror)).toEqual({ r: 'm' });
  });

  it('UpdatePod replaces by UID and full name; SetPods replaces everything', () => {
    const pm = new PodManager([pod('a', 'web')]);
    const a2 = { ...pod('a', 'web'), status: { phase: 'Running' } };
    pm.updatePod(a2);
    expect(pm.getPodByUID('a')).toBe(a2);
    expect(pm.getPodByFullName('web_default')).toBe(a2);
    pm.setPods([pod('b', 'db')]);
    expect(pm.getPods().map((p) => p.metadata?.uid)).toEqual(['b']);
    expect(pm.getPodByUID('a')).toBeUndefined();
  });

  it('lists are sorted by UID, not insertion order', () => {
    const pm = new PodManager([pod('z', 'z'), pod('a', 'a'), pod('m', 'm')]);
    expect(pm.getPods().map((p) => p.metadata?.uid)).toEqual(['a', 'm', 'z']);
  });

  it('stores pods by reference (a later mutation is visible, as with upstream pointers)', () => {
    const pm = new PodManager();
    const p = pod('a', 'web');
    pm.addPod(p);
    (p as { status?: object }).status = { phase: 'Failed' };
    expect(pm.getPodByUID('a')?.status?.phase).toBe('Failed');
  });

  it('isMirrorPodOf needs the same name, namespace and hash', () => {
    const pm = new PodManager();
    const s = pod('s', 'etcd', 'kube-system', STATIC);
    expect(pm.isMirrorPodOf(pod('m', 'etcd', 'kube-system', MIRROR), s)).toBe(true);
    expect(pm.isMirrorPodOf(pod('m', 'etcd', 'kube-system', { ...MIRROR, 'kubernetes.io/config.mirror': 'h2' }), s)).toBe(false);
    expect(pm.isMirrorPodOf(pod('m', 'etcd', 'default', MIRROR), s)).toBe(false);
  });
});
