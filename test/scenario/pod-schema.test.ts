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

describe('a real Pod manifest, as kubectl get -o yaml prints it', () => {
  it('loads: the fields kss ignores are accepted and null fields are unset', async () => {
    const { loadScenario } = await import('../../src/scenario/index.js');
    const text = `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: real }
spec:
  pods:
    - apiVersion: v1
      kind: Pod
      metadata:
        name: web-7d4b9c
        namespace: default
        creationTimestamp: null
        generateName: web-
        labels: { app: web, pod-template-hash: 7d4b9c }
        ownerReferences:
          - { apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: 0b6e, controller: true, blockOwnerDeletion: true }
        managedFields:
          - manager: kube-controller-manager
            operation: Update
            apiVersion: v1
            time: "2026-01-01T00:00:00Z"
            fieldsType: FieldsV1
            fieldsV1: { "f:metadata": { "f:labels": { ".": {} } } }
        resourceVersion: "12345"
      spec:
        containers:
          - name: web
            image: nginx:1.27
            imagePullPolicy: IfNotPresent
            ports: [{ containerPort: 80, protocol: TCP }]
            resources: { requests: { cpu: 100m, memory: 64Mi }, limits: { memory: 128Mi } }
            readinessProbe: { httpGet: { path: /, port: 80 }, periodSeconds: 5 }
            volumeMounts: [{ name: kube-api-access, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true }]
            terminationMessagePolicy: File
        dnsPolicy: ClusterFirst
        enableServiceLinks: true
        preemptionPolicy: PreemptLowerPriority
        priority: 0
        schedulerName: default-scheduler
        securityContext: {}
        serviceAccountName: default
        tolerations: [{ key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300 }]
        volumes:
          - name: kube-api-access
            projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: token } }] }
      status:
        phase: Pending
        qosClass: Burstable
        conditions: [{ type: PodScheduled, status: "True", lastProbeTime: null, lastTransitionTime: "2026-01-01T00:00:00Z" }]
`;
    const r = loadScenario(text, 'real.yaml');
    if (!r.ok) throw new Error(r.issues.map((i) => `${i.line}:${i.col} ${i.code} ${i.path} ${i.message}`).join('\n'));
    const pod = r.scenario.pods[0].pod as unknown as { metadata: Record<string, unknown>; status: { conditions: Record<string, unknown>[] } };
    expect(pod.metadata.ownerReferences).toHaveLength(1);
    expect('creationTimestamp' in pod.metadata).toBe(false);
    expect('lastProbeTime' in pod.status.conditions[0]).toBe(false);
  });
});
