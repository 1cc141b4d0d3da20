// `kss test --sweep FIELD=V1,V2,...`: each scenario once per value, as a table.
import { describe, expect, it } from 'vitest';
import { parseSweep } from '../../src/testing/sweep.js';
import { kss, REPO } from './helpers.js';

const BZ16 = 'scenarios/zoo/bz-16-full-channel-drops-updates';

describe('kss test --sweep', () => {
  it('runs each scenario once per value and shows where the bug lives', async () => {
    const r = await kss(['test', BZ16, '--sweep', 'spec.kubelet.statusChannelCapacity=1,2,8'], REPO);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('sweep of spec.kubelet.statusChannelCapacity');
    expect(lines[1]).toMatch(/^scenario\s+=1\s+=2\s+=8$/);
    // broken.yaml asserts two dropped requests: true with a channel of 2 only (1 drops three, 8 none).
    expect(lines.find((l) => l.startsWith('bz-16-broken'))).toMatch(/^bz-16-broken\s+FAIL\s+pass\s+FAIL$/);
    // the current generation has a one-slot wake-up whatever the capacity says: nothing changes.
    expect(lines.find((l) => l.startsWith('bz-16-fixed'))).toMatch(/^bz-16-fixed\s+pass\s+pass\s+pass$/);
    expect(r.out).toContain('6 run(s): 4 passed, 2 failed');
    expect(r.code).toBe(1);
  });

  it('names the violated invariants in a cell', async () => {
    const r = await kss(['test', 'scenarios/zoo/bz-24-noop-patches-after-restart/fixed.yaml', '--sweep', 'spec.kubelet.revertFixes=[],[noopPatches]'], REPO);
    expect(r.out).toMatch(/bz-24-fixed\s+pass\s+FAIL \(write-budget\)/);
  });

  it('refuses a malformed sweep, or a value the loader refuses, with exit 2', async () => {
    expect(parseSweep('apiQPS=5')).toMatch(/inside spec/);
    expect(parseSweep('spec.kubelet.apiQPS')).toMatch(/FIELD=V1,V2/);
    const r = await kss(['test', BZ16, '--sweep', 'spec.kubelet.apiQPS=fast'], REPO);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/error INVALID_TYPE at spec\.kubelet\.apiQPS/);
  });
});
