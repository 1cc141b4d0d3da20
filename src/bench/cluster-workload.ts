// The mixed pod workload of the cluster benches (issue 11: cluster-100x100, cluster-scaling), shared
// with the per-node hot-path benches: per 100 pods on a node,
// - 20 Jobs: four groups of 5 created at 0, 1/4, 1/2 and 3/4 of the run; Never pods that succeed,
//   OnFailure pods that fail once and then succeed, Never pods that fail;
// - 20 crash loops: restartPolicy Always, each attempt runs 30..60 s and exits 1 (restart back-off);
// - 60 long runners with a readiness probe whose answer flips every 3..6 minutes (timeline `ready`
//   steps, the only part of the text that grows with pods × hours).
// Pods are written with x-kss.replicas generators. nodes = 1 is the single default kubelet (no
// spec.nodes, no nodeName: a scenario main could always load); nodes > 1 lists `spec.nodes`
// (node-0 … node-(N-1)) and binds each pod by `spec.nodeName`. Deterministic: every period comes
// from indices, no RNG.

/** The share of each kind per node (the rest of podsPerNode are long runners). */
export const CLUSTER_MIX = { jobs: 0.2, crashLoops: 0.2 } as const;

/** Split n into `parts` near-equal group sizes (the first groups take the remainder). */
function groups(n: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, g) => Math.floor(n / parts) + (g < n % parts ? 1 : 0));
}

const JOB_KINDS = [
  { policy: 'Never', attempts: '[{ run: 40s, exit: 0 }]' },
  { policy: 'OnFailure', attempts: '[{ run: 20s, exit: 1 }, { run: 30s, exit: 0 }]' },
  { policy: 'Never', attempts: '[{ run: 90s, exit: 0 }]' },
  { policy: 'Never', attempts: '[{ run: 15s, exit: 2 }]' },
] as const;

/** One node's pods (entries with replicas) and its runners' readiness steps, appended to lines. */
function nodePods(prefix: string, nodeName: string | null, podsPerNode: number, untilS: number, pods: string[], steps: string[]): void {
  const jobs = Math.round(podsPerNode * CLUSTER_MIX.jobs);
  const crash = Math.round(podsPerNode * CLUSTER_MIX.crashLoops);
  const runners = podsPerNode - jobs - crash;
  const bind = nodeName === null ? '' : `nodeName: ${nodeName}, `;
  const entry = (name: string, n: number, spec: string, xkss: string) => {
    if (n > 0) pods.push(`    - { metadata: { name: ${prefix}${name} }, spec: { ${bind}${spec} }, x-kss: { replicas: ${n}, ${xkss} } }`);
  };
  groups(jobs, 4).forEach((n, g) => {
    const kind = JOB_KINDS[g];
    const createAt = Math.floor((untilS * g) / 4);
    entry(`job${g}`, n, `restartPolicy: ${kind.policy}, containers: [{ name: main, image: busybox }]`, `createAt: ${createAt}s, containers: { main: ${kind.attempts} }`);
  });
  groups(crash, 4).forEach((n, g) => {
    entry(`crash${g}`, n, 'containers: [{ name: main, image: busybox }]', `containers: { main: [{ run: ${30 + g * 10}s, exit: 1 }] }`);
  });
  const probe = 'readinessProbe: { httpGet: { path: /healthz, port: 8080 }, periodSeconds: 10 }';
  groups(runners, 4).forEach((n, g) => {
    entry(`web${g}`, n, `containers: [{ name: main, image: nginx, ${probe} }]`, 'containers: { main: [{ run: forever, ready: true }] }');
    for (let r = 0; r < n; r++) {
      const period = 180 + ((r * 37 + g * 53) % 181); // 3..6 minutes
      let value = false;
      for (let t = 60 + ((r * 13 + g * 29) % 120); t < untilS; t += period) {
        steps.push(`    - { at: ${t}s, ready: { pod: ${prefix}web${g}-${r}, container: main, value: ${value} } }`);
        value = !value;
      }
    }
  });
}

/** The scenario text of `nodes` nodes × `podsPerNode` mixed pods for `hours` virtual hours
 *  (current generation, node lifecycle on: every kubelet renews its Lease and posts its status). */
export function clusterScenario(nodes: number, podsPerNode: number, hours: number): string {
  const untilS = Math.round(hours * 3600);
  const lines = [
    'apiVersion: kss/v1alpha1',
    'kind: Scenario',
    `metadata: { name: bench-cluster-${nodes}x${podsPerNode} }`,
    'spec:',
    `  until: ${untilS}s`,
    '  invariants: none',
    '  kubelet: { statusManager: current, runtime: simulated }',
    '  nodeLifecycle: {}',
  ];
  if (nodes > 1) {
    lines.push('  nodes:');
    for (let i = 0; i < nodes; i++) lines.push(`    - { name: node-${i} }`);
  }
  const pods: string[] = [];
  const steps: string[] = [];
  for (let i = 0; i < nodes; i++) nodePods(`n${i}-`, nodes > 1 ? `node-${i}` : null, podsPerNode, untilS, pods, steps);
  lines.push('  pods:', ...pods);
  if (steps.length > 0) lines.push('  timeline:', ...steps);
  return lines.join('\n') + '\n';
}
