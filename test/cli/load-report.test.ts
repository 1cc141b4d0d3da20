import { describe, expect, it } from 'vitest';
import { kss, REPO } from './helpers.js';

describe('kss run: the load report of cluster runs', () => {
  it('prints peak rate, 429s, retries and time to converge after the verdict, and as `load` in JSON', async () => {
    const text = await kss(['run', 'scenarios/cluster/mass-restart-apf-current.yaml'], REPO);
    expect(text.code).toBe(0);
    const line = text.out.trimEnd().split('\n').pop()!;
    expect(line).toMatch(/^load: 700 requests served, peak 80\/s at 10ms \(80\/s from the last step, 2m\); 138 × 429 \(system 138\), 138 retries, 0 timeouts; converged 3\.395s after the last step/);
    const json = await kss(['run', 'scenarios/cluster/mass-restart-apf-current.yaml', '--format', 'json'], REPO);
    const load = JSON.parse(json.out).load;
    expect(load).toMatchObject({ served: 700, tooManyRequests: 138, rejectedByLevel: { system: 138 }, retries: 138, lastStepMs: 120_000, convergeMs: 3395 });
  });

  it('the same restart at 5 QPS: no 429, 38 s to converge; a run that is not a cluster run has no load line', async () => {
    const r = await kss(['run', 'scenarios/cluster/mass-restart-apf-classic.yaml', '--format', 'json'], REPO);
    expect(JSON.parse(r.out).load).toMatchObject({ tooManyRequests: 0, retries: 0, peakSinceLastStep: 14, convergeMs: 38_014 });
    const plain = await kss(['run', 'scenarios/getting-started.yaml', '--format', 'json'], REPO);
    expect(JSON.parse(plain.out).load).toBeUndefined();
  });

  it('kss inspect shows flow control at an instant: seats in use, requests waiting, refused so far', async () => {
    const r = await kss(['inspect', 'scenarios/cluster/mass-restart-apf-current.yaml', '--at', '120.003s', '--pod', 'default/web-0'], REPO);
    expect(r.code).toBe(0);
    expect(r.out).toContain('apiserverLoad:\n  executing: 1\n  priorityLevels:\n    - name: system\n      seats: 1\n      seatsInUse: 1\n      waiting: 30\n');
    const plain = await kss(['inspect', 'scenarios/getting-started.yaml', '--at', '1s'], REPO);
    expect(plain.out).not.toContain('apiserverLoad');
  });
});
