// The Pod schema kss checks manifests and statuses against is data generated from the pinned
// kubernetes-models package (scripts/gen-pod-schema.mjs): the committed file is what the script
// makes, and it holds what the fidelity issue's typos need.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POD_TYPES } from '../../src/scenario/k8s/pod-schema.data.js';
// @ts-expect-error: a plain .mjs script without types
import { generate } from '../../scripts/gen-pod-schema.mjs';

describe('the Pod schema data', () => {
  it('is what scripts/gen-pod-schema.mjs makes from kubernetes-models', () => {
    expect(readFileSync('src/scenario/k8s/pod-schema.data.ts', 'utf8')).toBe((generate as () => string)());
  });

  it('carries the enums, integers and fields of the v1 Pod', () => {
    expect(POD_TYPES['core.v1.PodSpec'].restartPolicy).toBe('enum:Always|Never|OnFailure');
    expect(POD_TYPES['core.v1.PodStatus'].phase).toBe('enum:Failed|Pending|Running|Succeeded|Unknown');
    expect(POD_TYPES['core.v1.ContainerStatus'].restartCount).toBe('integer');
    expect(POD_TYPES['core.v1.ContainerStatus'].lastState).toBe('core.v1.ContainerState');
    expect(POD_TYPES['meta.v1.ObjectMeta'].managedFields).toBe('[]meta.v1.ManagedFieldsEntry');
    expect(POD_TYPES['meta.v1.ObjectMeta'].ownerReferences).toBe('[]meta.v1.OwnerReference');
    expect(Object.keys(POD_TYPES).length).toBeGreaterThan(100);
  });
});
