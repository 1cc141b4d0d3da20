import { describe, expect, it } from 'vitest';
import type { Container, ContainerStatus, Pod, PodSpec } from '../../../src/model/pod.js';
import { getPhaseClassic, getPhaseCurrent } from '../../../src/kubelet/node/phase.js';

const running = (name: string, started?: boolean): ContainerStatus => ({ name, ready: false, restartCount: 0, image: '', imageID: '', state: { running: { startedAt: '2026-01-01T00:00:00Z' } }, ...(started === undefined ? {} : { started }) });
const terminated = (name: string, exitCode: number): ContainerStatus => ({ name, ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode } } });
const waiting = (name: string, lastExit?: number): ContainerStatus => ({
  name,
  ready: false,
  restartCount: lastExit === undefined ? 0 : 1,
  image: '',
  imageID: '',
  state: { waiting: { reason: lastExit === undefined ? 'ContainerCreating' : 'CrashLoopBackOff' } },
  lastState: lastExit === undefined ? {} : { terminated: { exitCode: lastExit } },
});
const noState = (name: string): ContainerStatus => ({ name, ready: false, restartCount: 0, image: '', imageID: '', state: {} });

function spec(restartPolicy: string, containers: string[], inits: Array<string | Container> = []): PodSpec {
  return {
    restartPolicy,
    containers: containers.map((name) => ({ name })),
    initContainers: inits.map((c) => (typeof c === 'string' ? { name: c } : c)),
  };
}
const sidecar = (name: string): Container => ({ name, restartPolicy: 'Always' });

describe('getPhase, classic', () => {
  const cases: Array<[string, PodSpec, ContainerStatus[], string]> = [
    ['no status at all', spec('Always', ['a']), [], 'Pending'],
    ['a status without a state counts as unknown', spec('Always', ['a']), [noState('a')], 'Pending'],
    ['waiting to be created', spec('Always', ['a']), [waiting('a')], 'Pending'],
    ['running', spec('Always', ['a']), [running('a')], 'Running'],
    ['running and one unknown', spec('Always', ['a', 'b']), [running('a')], 'Pending'],
    ['Never, exit 0', spec('Never', ['a']), [terminated('a', 0)], 'Succeeded'],
    ['Never, exit 1', spec('Never', ['a']), [terminated('a', 1)], 'Failed'],
    ['Never, one done one running', spec('Never', ['a', 'b']), [terminated('a', 0), running('b')], 'Running'],
    ['Never, 0 and 1', spec('Never', ['a', 'b']), [terminated('a', 0), terminated('b', 1)], 'Failed'],
    ['OnFailure, exit 0', spec('OnFailure', ['a']), [terminated('a', 0)], 'Succeeded'],
    ['OnFailure, exit 1 (restarting)', spec('OnFailure', ['a']), [terminated('a', 1)], 'Running'],
    ['Always, exit 0 (restarting)', spec('Always', ['a']), [terminated('a', 0)], 'Running'],
    ['Always, crash loop (waiting with a last termination)', spec('Always', ['a']), [waiting('a', 1)], 'Running'],
    ['OnFailure, back-off after exit 1', spec('OnFailure', ['a']), [waiting('a', 1)], 'Running'],
    ['restartPolicy "" with exit 1 (neither Always nor Never)', spec('', ['a']), [terminated('a', 1)], 'Running'],
    ['init running', spec('Always', ['a'], ['i']), [running('i'), waiting('a')], 'Pending'],
    ['init missing', spec('Always', ['a'], ['i']), [waiting('a')], 'Pending'],
    ['init done, main running', spec('Always', ['a'], ['i']), [terminated('i', 0), running('a')], 'Running'],
    ['init failed, Never', spec('Never', ['a'], ['i']), [terminated('i', 1), waiting('a')], 'Failed'],
    ['init failed, OnFailure (restarting)', spec('OnFailure', ['a'], ['i']), [terminated('i', 1), waiting('a')], 'Pending'],
    ['init in back-off, Never', spec('Never', ['a'], ['i']), [waiting('i', 2), waiting('a')], 'Failed'],
    ['init in back-off, Always', spec('Always', ['a'], ['i']), [waiting('i', 2), waiting('a')], 'Pending'],
    ['init waiting without history', spec('Always', ['a'], ['i']), [waiting('i'), waiting('a')], 'Pending'],
  ];
  for (const [name, s, statuses, want] of cases) {
    it(name, () => expect(getPhaseClassic(s, statuses)).toBe(want));
  }
});

describe('getPhase, current', () => {
  const pod = (s: PodSpec, annotations?: Record<string, string>): Pod => ({ metadata: { name: 'p', namespace: 'default', annotations }, spec: s });
  const gatesOn = { SidecarContainers: true };
  const cases: Array<[string, PodSpec, ContainerStatus[], boolean, string]> = [
    ['classic cases still hold: Never exit 1', spec('Never', ['a']), [terminated('a', 1)], false, 'Failed'],
    ['classic cases still hold: Always restarting', spec('Always', ['a']), [terminated('a', 1)], false, 'Running'],
    ['podIsTerminal: Always, all exit 0 → Succeeded', spec('Always', ['a']), [terminated('a', 0)], true, 'Succeeded'],
    ['podIsTerminal: Always, one failure → Failed', spec('Always', ['a', 'b']), [terminated('a', 0), terminated('b', 137)], true, 'Failed'],
    ['podIsTerminal: OnFailure, exit 1 → Failed', spec('OnFailure', ['a']), [terminated('a', 1)], true, 'Failed'],
    ['podIsTerminal with a container running stays Running', spec('Always', ['a', 'b']), [terminated('a', 0), running('b')], true, 'Running'],
    ['sidecar started, main running', spec('Always', ['a'], [sidecar('s')]), [running('s', true), running('a')], false, 'Running'],
    ['sidecar not started yet holds the pod Pending', spec('Always', ['a'], [sidecar('s')]), [running('s', false), waiting('a')], false, 'Pending'],
    ['sidecar restarting after main started: not Pending', spec('Always', ['a'], [sidecar('s')]), [running('s', false), running('a')], false, 'Running'],
    ['sidecar waiting to start', spec('Always', ['a'], [sidecar('s')]), [waiting('s'), waiting('a')], false, 'Pending'],
    ['sidecar missing counts as unknown', spec('Never', ['a'], [sidecar('s')]), [terminated('a', 0)], false, 'Pending'],
    ['stopped sidecar is ignored: Never, main exit 0', spec('Never', ['a'], [sidecar('s')]), [terminated('s', 143), terminated('a', 0)], false, 'Succeeded'],
    ['sidecar in back-off is ignored: main exit 1, Never', spec('Never', ['a'], [sidecar('s')]), [waiting('s', 1), terminated('a', 1)], false, 'Failed'],
    ['sidecar running with mains done: Running', spec('Never', ['a'], [sidecar('s')]), [running('s', true), terminated('a', 0)], false, 'Running'],
    ['regular init before a sidecar still gates', spec('Always', ['a'], ['i', sidecar('s')]), [running('i'), waiting('s'), waiting('a')], false, 'Pending'],
    ['regular init failed under Never', spec('Never', ['a'], ['i', sidecar('s')]), [terminated('i', 1), waiting('s'), waiting('a')], false, 'Failed'],
  ];
  for (const [name, s, statuses, terminal, want] of cases) {
    it(name, () => expect(getPhaseCurrent(pod(s), statuses, terminal, gatesOn)).toBe(want));
  }

  it('a static pod is not made terminal by podIsTerminal', () => {
    const p = pod(spec('Always', ['a']), { 'kubernetes.io/config.source': 'file' });
    expect(getPhaseCurrent(p, [terminated('a', 0)], true, gatesOn)).toBe('Running');
    expect(getPhaseCurrent(p, [terminated('a', 0)], false, gatesOn)).toBe('Running');
  });

  it('with SidecarContainers off a restartPolicy Always init container is a plain init container', () => {
    const s = spec('Always', ['a'], [sidecar('s')]);
    expect(getPhaseCurrent(pod(s), [running('s', true), waiting('a')], false, { SidecarContainers: false })).toBe('Pending');
    expect(getPhaseCurrent(pod(s), [terminated('s', 0), running('a')], false, { SidecarContainers: false })).toBe('Running');
  });
});
