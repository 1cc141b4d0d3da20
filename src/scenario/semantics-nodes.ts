// The checks of spec.nodes (scenario-format.md "Many nodes"): node names are unique; every node a
// pod is bound to (spec.nodeName), a step acts on (`node:`, restartKubelet `nodes:`) or an
// assertion counts (`node:`) is a node of the scenario — else UNKNOWN_NODE with the closest name.
// (`x-kss.only: apiserver` pods may name any node: they are on one the scenario does not run.)
// Without spec.nodes the scenario has one node (spec.kubelet.nodeName, default node-a): `node:`
// must name it, and a pod's nodeName may name any other node, as before (the kubelet never sees
// such a pod).
import { suggest, type Draft, type PathSeg } from './issues.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The scenario's node names, the default node first. */
export function nodeNames(spec: Obj): string[] {
  const nodes = list(spec.nodes);
  if (nodes.length === 0 || !Array.isArray(spec.nodes)) return [str(obj(spec.kubelet)?.nodeName) ?? 'node-a'];
  return nodes.map((n) => str(obj(n)?.name)).filter((n): n is string => n !== undefined);
}

export function checkNodes(spec: Obj, out: Draft[]): void {
  const names = nodeNames(spec);
  const known = new Set(names);
  const many = Array.isArray(spec.nodes);
  if (many) {
    if (str(obj(spec.kubelet)?.nodeName) !== undefined)
      out.push({ code: 'INVALID_VALUE', message: 'with spec.nodes the nodes are named there (the first is the default node): drop spec.kubelet.nodeName', path: ['spec', 'kubelet', 'nodeName'], atKey: true });
    const seen = new Set<string>();
    list(spec.nodes).forEach((n, i) => {
      const name = str(obj(n)?.name);
      if (name === undefined) return;
      if (seen.has(name)) out.push({ code: 'DUPLICATE_NODE', message: `node ${name} is already in spec.nodes; node names are unique`, path: ['spec', 'nodes', i, 'name'], got: JSON.stringify(name) });
      seen.add(name);
    });
  }
  const check = (v: unknown, path: PathSeg[]) => {
    const s = str(v);
    if (s === undefined || known.has(s)) return;
    const where = many ? 'spec.nodes' : `this scenario (its one node is ${names[0]}; list more in spec.nodes)`;
    out.push({ code: 'UNKNOWN_NODE', message: `no node ${JSON.stringify(s)} in ${where}${suggest(s, known)}`, path, got: JSON.stringify(s) });
  };
  // A pod bound to a node the cluster lacks: with spec.nodes an error (no kubelet would ever run it).
  // (`only: apiserver` pods are another node's by definition: any name goes.)
  if (many) list(spec.pods).forEach((p, i) => obj(obj(p)?.['x-kss'])?.only !== 'apiserver' && check(obj(obj(p)?.spec)?.nodeName, ['spec', 'pods', i, 'spec', 'nodeName']));
  let bound: Map<string, string> | undefined;
  list(spec.timeline).forEach((entry, i) => {
    const s = obj(entry);
    for (const [a, v] of Object.entries(s ?? {})) {
      const f = obj(v);
      if (a === 'at' || !f) continue;
      check(f.node, ['spec', 'timeline', i, a, 'node']);
      list(f.nodes).forEach((n, j) => check(n, ['spec', 'timeline', i, a, 'nodes', j]));
      const node = str(f.node);
      const pod = str(f.pod);
      if (node === undefined || pod === undefined || !known.has(node)) continue;
      const on = (bound ??= boundNodes(spec, names[0])).get(pod.includes('/') ? pod : `default/${pod}`);
      if (on !== undefined && on !== node)
        out.push({ code: 'INVALID_VALUE', message: `pod ${pod} is bound to node ${on} (its spec.nodeName), not ${node}: drop \`node\` (a pod step acts on the pod's node) or name ${on}`, path: ['spec', 'timeline', i, a, 'node'], got: JSON.stringify(node) });
    }
  });
  list(spec.expect).forEach((entry, i) => {
    for (const [k, v] of Object.entries(obj(entry) ?? {})) check(obj(v)?.node, ['spec', 'expect', i, k, 'node']);
  });
}

/** Each pod of spec.pods (replicas expanded) by "ns/name" → the node it is bound to. */
function boundNodes(spec: Obj, defaultNode: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of list(spec.pods)) {
    const m = obj(p);
    const meta = obj(m?.metadata);
    const name = str(meta?.name);
    if (name === undefined) continue;
    const node = str(obj(m?.spec)?.nodeName) ?? defaultNode;
    const ns = str(meta?.namespace) ?? 'default';
    const n = obj(m?.['x-kss'])?.replicas;
    if (typeof n === 'number' && Number.isInteger(n) && n > 0) for (let r = 0; r < n; r++) out.set(`${ns}/${name}-${r}`, node);
    else out.set(`${ns}/${name}`, node);
  }
  return out;
}
