// pkg/kubelet/kubelet_pods.go (v1.30+, KEP-3857 recursive read-only mounts; the gate
// RecursiveReadOnlyMounts is beta and on by default in v1.31, so in the current generation): the
// container statuses list the container's volume mounts (status.volumeMounts), "immutable" once
// set. convertToAPIContainerStatuses builds them from the spec for the default (waiting) status of
// each container; convertContainerStatus carries the previous status's over (the CRI knows no
// volume names). A read-only mount says whether it is recursively read-only.
import type { Container, ContainerStatus } from '../../model/pod.js';

type VolumeMountStatus = NonNullable<ContainerStatus['volumeMounts']>[number];

/** runtimeClassSupportsRecursiveReadOnlyMounts: whether the pod's runtime handler reports RRO
 *  support in the CRI's RuntimeStatus handlers (containerd 2.0 on Linux ≥ 5.12 does). kss's
 *  containerd reports no handler features, as containerd 1.7 does: false. */
export const RUNTIME_SUPPORTS_RRO = false;

/** resolveRecursiveReadOnly: whether the mount is to be recursively read-only; an error for a mode
 *  the mount cannot have (upstream logs it and reports Disabled). */
export function resolveRecursiveReadOnly(m: NonNullable<Container['volumeMounts']>[number], runtimeSupportsRRO: boolean): { rro: boolean; err?: string } {
  const mode = m.recursiveReadOnly;
  if (mode === undefined || mode === null || mode === 'Disabled') return { rro: false };
  if (!m.readOnly) return { rro: false, err: `volume "${m.name}" requested recursive read-only mode, but it is not read-only` };
  if (m.mountPropagation && m.mountPropagation !== 'None') return { rro: false, err: `volume "${m.name}" requested recursive read-only mode, but it is not compatible with propagation "${m.mountPropagation}"` };
  if (mode === 'IfPossible') return { rro: runtimeSupportsRRO };
  if (mode === 'Enabled') return runtimeSupportsRRO ? { rro: true } : { rro: false, err: `volume "${m.name}" requested recursive read-only mode, but it is not supported by the runtime` };
  return { rro: false, err: `unknown recursive read-only mode "${mode}"` };
}

/** The status.volumeMounts of a container's default status (undefined: it mounts nothing). */
export function volumeMountStatuses(c: Container, runtimeSupportsRRO = RUNTIME_SUPPORTS_RRO): VolumeMountStatus[] | undefined {
  const mounts = c.volumeMounts;
  if (!mounts || mounts.length === 0) return undefined;
  return mounts.map((vol) => {
    const s: VolumeMountStatus = { name: vol.name, mountPath: vol.mountPath };
    if (vol.readOnly) {
      s.readOnly = true;
      s.recursiveReadOnly = resolveRecursiveReadOnly(vol, runtimeSupportsRRO).rro ? 'Enabled' : 'Disabled';
    }
    return s;
  });
}
