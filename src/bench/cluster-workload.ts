// The mixed workload of a cluster bench (issue 11's cluster-100x100): per node, of every 100 pods,
// 20 Jobs (Never and OnFailure; created through the hour, run and complete, some fail), 20 crash
// loops (Always, exiting every 30..60 s, so they spend the hour in back-off) and 60 long runners
// with a readiness probe whose answer flips every few minutes (timeline `ready` steps). Written
// with `x-kss.replicas` generators, so the pod list is a few lines per node; only the readiness
// steps grow with the pods. Deterministic: every period comes from an index, none from an RNG.
//
// nodes = 1 is a scenario of today's format (the single default kubelet, no nodeName); nodes > 1
// adds `spec.nodes` and binds each node's pods with `spec.nodeName` (names prefixed `nK-`).

/** The mix per 100 pods of a node. */
export const CLUSTER_MIX = { jobs: 20, crashLoops: 20, runners: 60 } as const;

/** Entries (x-kss.replicas generators) per kind; each gets a share of the kind's pods. */
const ENTRIES = { jobs: 10, crashLoops: 4, runners: 6 } as const;

/** `total` pods split over at most `entries` generators: the replica counts, none of them 0. */
function split(total: number, entries: number): number[] {
  const k = Math.min(entries, total);
  return Array.from({ length: k }, (_, i) => Math.floor(total / k) + (i < total % k ? 1 : 0));
}

/** One node's pod entries: its Jobs, crash loops and long runners. */
function podEntries(prefix: string, nodeName: string | undefined, podsPerNode: number, hours: number): string[] {
  const jobs = Math.round((podsPerNode * CLUSTER_MIX.jobs) / 100);
  const crashLoops = Math.round((podsPerNode * CLUSTER_MIX.crashLoops) / 100);
  const bind = nodeName === undefined ? '' : `nodeName: ${nodeName}, `;
  const lines: string[] = [];
  const until = hours * 3600;
  split(jobs, ENTRIES.jobs).forEach((n, j) => {
    const createAt = Math.floor((j * until * 0.8) / ENTRIES.jobs);
    const run = 20 + ((j * 37) % 160);
    // OnFailure: a failed first attempt, then success; Never: every fifth fails for good.
    const policy = j % 2 === 0 ? 'Never' : 'OnFailure';
    const attempts = policy === 'OnFailure' ? `[{ run: 15s, exit: 1 }, { run: ${run}s, exit: 0 }]` : `[{ run: ${run}s, exit: ${j % 5 === 4 ? 1 : 0} }]`;
    lines.push(`    - { metadata: { name: ${prefix}job-${j} }, spec: { ${bind}restartPolicy: ${policy}, containers: [{ name: main, image: busybox }] }, x-kss: { replicas: ${n}, createAt: ${createAt}s, containers: { main: ${attempts} } } }`);
  });
  split(crashLoops, ENTRIES.crashLoops).forEach((n, j) => {
    lines.push(`    - { metadata: { name: ${prefix}crash-${j} }, spec: { ${bind}containers: [{ name: main, image: busybox }] }, x-kss: { replicas: ${n}, containers: { main: [{ run: ${30 + j * 10}s, exit: 1 }] } } }`);
  });
  split(podsPerNode - jobs - crashLoops, ENTRIES.runners).forEach((n, j) => {
    lines.push(`    - { metadata: { name: ${prefix}web-${j} }, spec: { ${bind}containers: [{ name: main, image: nginx, readinessProbe: { httpGet: { path: /healthz, port: 8080 }, periodSeconds: 10 } }] }, x-kss: { replicas: ${n}, containers: { main: [{ run: forever, ready: true }] } } }`);
  });
  return lines;
}

/** One node's readiness flips: each long runner's answer turns every 2..6 minutes. */
function readinessSteps(prefix: string, podsPerNode: number, hours: number): string[] {
  const jobs = Math.round((podsPerNode * CLUSTER_MIX.jobs) / 100);
  const crashLoops = Math.round((podsPerNode * CLUSTER_MIX.crashLoops) / 100);
  const until = hours * 3600;
  const lines: string[] = [];
  let pod = 0;
  split(podsPerNode - jobs - crashLoops, ENTRIES.runners).forEach((n, j) => {
    for (let r = 0; r < n; r++, pod++) {
      const period = 120 + ((pod * 53) % 240);
      let value = false;
      for (let t = 30 + ((pod * 17) % 90); t < until; t += period) {
        lines.push(`    - { at: ${t}s, ready: { pod: ${prefix}web-${j}-${r}, container: main, value: ${value} } }`);
        value = !value;
      }
    }
  });
  return lines;
}

/** The scenario text: `nodes` nodes of `podsPerNode` mixed pods for `hours` virtual hours. */
export function clusterScenario(nodes: number, podsPerNode: number, hours: number): string {
  const lines = [
    'apiVersion: kss/v1alpha1',
    'kind: Scenario',
    `metadata: { name: bench-cluster-${nodes}x${podsPerNode} }`,
    'spec:',
    `  until: ${hours}h`,
    '  invariants: none',
    '  kubelet: { statusManager: current, runtime: simulated }',
  ];
  const names = nodes === 1 ? [undefined] : Array.from({ length: nodes }, (_, k) => `node-${k}`);
  if (nodes > 1) {
    lines.push('  nodes:');
    for (const n of names) lines.push(`    - { name: ${n} }`);
  }
  const prefix = (k: number) => (nodes === 1 ? '' : `n${k}-`);
  lines.push('  pods:');
  names.forEach((n, k) => lines.push(...podEntries(prefix(k), n, podsPerNode, hours)));
  lines.push('  timeline:');
  // Node by node: the world orders the steps by time (file order breaks ties at one instant).
  names.forEach((_, k) => lines.push(...readinessSteps(prefix(k), podsPerNode, hours)));
  return lines.join('\n') + '\n';
}
