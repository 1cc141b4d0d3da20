// Issue 13 §4: the status manager decides "restartable init container" by restartPolicy Always
// alone (podutil.IsRestartableInitContainer has no gate, v1.28+), in the current generation; classic
// (v1.20) has no container restartPolicy.
import { describe, expect, it } from 'vitest';
import type { Container, Pod, PodStatus } from '../../../src/model/index.js';
import {
  checkContainerStateTransition,
  generateContainersReadyCondition,
  generatePodInitializedCondition,
  hasPodInitialized,
  isRestartableInitContainer,
  isRestartableInitContainerUngated,
} from '../../../src/kubelet/status/index.js';

const side: Container = { name: 'side', image: 'envoy', restartPolicy: 'Always' } as Container;
const spec = { restartPolicy: 'Never', initContainers: [side], containers: [{ name: 'main', image: 'busybox' }] } as Pod['spec'];
const off = { SidecarContainers: false };

describe('restartable init containers, no gate', () => {
  it('restartPolicy Always decides, in current only; the node keeps the gated test', () => {
    expect(isRestartableInitContainerUngated(side, 'current')).toBe(true);
    expect(isRestartableInitContainerUngated(side, 'classic')).toBe(false);
    expect(isRestartableInitContainerUngated({ name: 'i', image: 'x' }, 'current')).toBe(false);
    expect(isRestartableInitContainer(side, 'current', off)).toBe(false);
    expect(isRestartableInitContainer(side, 'current')).toBe(true);
  });

  it('checkContainerStateTransition lets a sidecar restart with the gate off (current), not in classic', () => {
    const old: PodStatus = { initContainerStatuses: [{ name: 'side', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 1 } } }] };
    const next: PodStatus = { initContainerStatuses: [{ name: 'side', ready: false, restartCount: 1, image: '', imageID: '', state: { running: {} } }] };
    expect(checkContainerStateTransition(old, next, spec, 'current', off)).toBeUndefined();
    expect(checkContainerStateTransition(old, next, spec, 'classic', off)?.message).toBe('terminated container side attempted illegal transition to non-terminated state');
  });

  it('GenerateContainersReadyCondition counts an unready sidecar with the gate off', () => {
    const statuses = [
      { name: 'side', ready: false, restartCount: 0, image: '', imageID: '' },
      { name: 'main', ready: true, restartCount: 0, image: '', imageID: '' },
    ];
    expect(generateContainersReadyCondition(spec, statuses, 'Running', 'current', off)).toEqual({
      type: 'ContainersReady',
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [side]',
    });
    expect(generateContainersReadyCondition(spec, statuses, 'Running', 'classic', off).status).toBe('True');
  });

  it('GeneratePodInitializedCondition takes a started sidecar as initialized with the gate off', () => {
    const statuses = [{ name: 'side', ready: false, started: true, restartCount: 0, image: '', imageID: '' }];
    expect(generatePodInitializedCondition(spec, statuses, 'Pending', 'current', off).status).toBe('True');
    expect(generatePodInitializedCondition(spec, statuses, 'Pending', 'classic', off).status).toBe('False');
  });

  it('hasPodInitialized: a running, started last sidecar proves initialization with the gate off', () => {
    const pod: Pod = {
      metadata: { name: 'p', namespace: 'default', uid: 'u' },
      spec,
      status: {
        initContainerStatuses: [{ name: 'side', ready: false, started: true, restartCount: 0, image: '', imageID: '', state: { running: {} } }],
        containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'PodInitializing' } } }],
      },
    };
    expect(hasPodInitialized(pod, 'current', off)).toBe(true);
  });
});
