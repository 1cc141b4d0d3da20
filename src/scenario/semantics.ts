// Checks that span the document: pod and container references, duplicate pods, one action per
// step and one kind per assertion. They read the raw parsed YAML defensively (anything of the
// wrong shape is zod's to report), so they run even when the schema found other problems.
import { normalizePodRef } from '../model/pod.js';
import { parseDuration } from '../model/time.js';
import { clip, suggest, type Draft, type PathSeg } from './issues.js';
import { ACTIONS, ASSERTIONS, NODE_ACTIONS } from './schema.js';
import { NODE_OBJECT_ACTION_NAMES } from './schema-node-actions.js';
import { checkNodes, nodeNames } from './semantics-nodes.js';
import { DEFAULT_PRIORITY_LEVELS, MAX_HASH_BITS, requiredEntropyBits } from '../model/apf-levels.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A pod as declared in `pods` or `staticPods`. */
interface Decl {
  key: string;
  path: PathSeg[];
  only?: 'kubelet' | 'apiserver';
  isStatic: boolean;
  containers: Set<string>;
}

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Where an entry lives: the kubelet, the apiserver, or both. */
function places(d: Decl): string[] {
  return d.only ? [d.only] : ['kubelet', 'apiserver'];
}

export function crossCheck(doc: unknown): Draft[] {
  const out: Draft[] = [];
  const spec = obj(obj(doc)?.spec);
  if (!spec) return out;
  const kubelet = obj(spec.kubelet);
  const nodeName = nodeNames(spec)[0]; // static pods are the default node's
  const runtime = kubelet?.runtime === 'none' ? 'none' : 'simulated';
  const byKey = declarePods(spec, nodeName, out);
  const refs = referenceChecks(byKey, nodeName, out);
  checkTimeline(spec, runtime, refs, afterUntilCheck(spec, out), out);
  checkExpect(spec, refs, afterUntilCheck(spec, out), out);
  checkPriorityLevels(spec, out);
  checkNodes(spec, out);
  return out;
}

/** spec.apiserver.apf.priorityLevels: a level's hand fits its queues, and its shuffle sharding
 *  needs no more than 60 bits of the flow's hash (upstream's validation of a
 *  PriorityLevelConfiguration, and shufflesharding.go's RequiredEntropyBits). */
function checkPriorityLevels(spec: Obj, out: Draft[]): void {
  const apf = obj(obj(spec.apiserver)?.apf);
  const levels = obj(apf?.priorityLevels);
  if (!levels) return;
  const nodeHigh = typeof apf?.nodeHigh === 'boolean' ? apf.nodeHigh : obj(spec.kubelet)?.statusManager !== 'classic';
  if (!nodeHigh && levels['node-high'] !== undefined) {
    out.push({ code: 'INVALID_VALUE', message: "there is no node-high level without nodeHigh (classic's v1.20 apiserver has none); set `nodeHigh: true` or drop it", path: ['spec', 'apiserver', 'apf', 'priorityLevels', 'node-high'], atKey: true });
  }
  for (const [name, raw] of Object.entries(levels)) {
    const l = obj(raw);
    const d = DEFAULT_PRIORITY_LEVELS.find((x) => x.name === name);
    if (!l || !d) continue; // the schema's to report
    const queues = typeof l.queues === 'number' ? l.queues : d.queues;
    const hand = typeof l.handSize === 'number' ? l.handSize : d.handSize;
    const path: PathSeg[] = ['spec', 'apiserver', 'apf', 'priorityLevels', name, typeof l.handSize === 'number' ? 'handSize' : 'queues'];
    if (queues > 0 && hand > queues) out.push({ code: 'INVALID_VALUE', message: `handSize ${hand} is more than the level's ${queues} queues; expected handSize <= queues`, path });
    else if (queues > 0 && requiredEntropyBits(queues, hand) > MAX_HASH_BITS) {
      out.push({ code: 'INVALID_VALUE', message: `${queues} queues with handSize ${hand} need ${requiredEntropyBits(queues, hand)} bits of the flow's hash; expected at most ${MAX_HASH_BITS} (fewer queues or a smaller hand)`, path });
    }
  }
}

/** The pods of `pods` and `staticPods` by key ("ns/name"), with their containers; checks names. */
function declarePods(spec: Obj, nodeName: string, out: Draft[]): Map<string, Decl[]> {
  const byKey = new Map<string, Decl[]>();
  for (const where of ['pods', 'staticPods'] as const) {
    list(spec[where]).forEach((entry, i) => {
      const path: PathSeg[] = ['spec', where, i];
      const m = obj(entry);
      const meta = obj(m?.metadata);
      const name = str(meta?.name);
      const isStatic = where === 'staticPods';
      const x = obj(m?.['x-kss']);
      const only = x?.only === 'kubelet' || x?.only === 'apiserver' ? x.only : undefined;
      if (isStatic && x?.only !== undefined)
        out.push({ code: 'INVALID_VALUE', message: 'a static pod lives on the kubelet by definition; `only` does not apply', path: [...path, 'x-kss', 'only'], atKey: true });

      const containers = new Set<string>();
      for (const key of CONTAINER_LISTS) {
        list(obj(m?.spec)?.[key]).forEach((c, j) => {
          const cname = str(obj(c)?.name);
          if (cname === undefined) return;
          if (containers.has(cname))
            out.push({ code: 'INVALID_VALUE', message: `container name "${cname}" is used twice in this pod`, path: [...path, 'spec', key, j, 'name'], got: JSON.stringify(cname) });
          containers.add(cname);
        });
      }
      for (const cname of Object.keys(obj(x?.containers) ?? {}))
        if (!containers.has(cname))
          out.push({
            code: 'UNKNOWN_CONTAINER',
            message: `the pod has no container "${cname}"${suggest(cname, containers)}`,
            path: [...path, 'x-kss', 'containers', cname],
            atKey: true,
            got: JSON.stringify(cname),
          });

      if (name === undefined) return;
      const replicas = typeof x?.replicas === 'number' && Number.isInteger(x.replicas) && x.replicas > 0 ? x.replicas : undefined;
      if (isStatic && x?.replicas !== undefined)
        out.push({ code: 'INVALID_VALUE', message: 'a static pod is one file on one node; `replicas` applies to spec.pods only', path: [...path, 'x-kss', 'replicas'], atKey: true });
      // x-kss.replicas: N generates name-0 … name-(N-1) from this one entry.
      const names = replicas === undefined || isStatic ? [name] : Array.from({ length: replicas }, (_, r) => `${name}-${r}`);
      for (const n of names) {
        const key = `${str(meta?.namespace) ?? 'default'}/${isStatic ? `${n}-${nodeName}` : n}`;
        const d: Decl = { key, path, only, isStatic, containers };
        const same = byKey.get(key);
        const twin = same?.find((e) => places(e).some((p) => places(d).includes(p)));
        if (twin)
          out.push({
            code: 'DUPLICATE_POD',
            message:
              `pod ${key} is already declared at ${twin.path[1]}[${twin.path[2]}]; two entries may share a name only ` +
              'when one is `x-kss.only: kubelet` and the other `x-kss.only: apiserver`',
            path: [...path, 'metadata', 'name'],
            got: JSON.stringify(key),
          });
        if (same) same.push(d);
        else byKey.set(key, [d]);
      }
    });
  }
  return byKey;
}

interface Refs {
  /** Check a pod reference; returns the entries it names. */
  ref: (v: unknown, path: PathSeg[]) => Decl[];
  /** Check a container name against the pods a reference named (`warnOnly`: a warning, not an error). */
  containerOf: (pods: Decl[], v: unknown, path: PathSeg[], warnOnly?: string) => void;
}

function referenceChecks(byKey: Map<string, Decl[]>, nodeName: string, out: Draft[]): Refs {
  let misses = 0;
  const ref = (v: unknown, path: PathSeg[]): Decl[] => {
    const s = str(v);
    if (s === undefined || s.split('/').length > 2) return [];
    const key = normalizePodRef(s);
    const found = byKey.get(key) ?? [];
    if (found.length === 0) {
      // Suggestions for the first few unknown names only: each one compares against every pod.
      const keys = ++misses <= 20 ? new Set(byKey.keys()) : new Set<string>();
      const staticName = `${key}-${nodeName}`;
      const hint = byKey.has(staticName)
        ? `; static pods are named with their node: did you mean "${staticName.replace(/^default\//, '')}"?`
        : suggest(key, keys).replace(/"default\//, '"');
      out.push({ code: 'UNKNOWN_POD', message: `no pod ${key} in spec.pods or spec.staticPods${hint}`, path, got: JSON.stringify(s) });
    }
    return found;
  };

  const containerOf = (pods: Decl[], v: unknown, path: PathSeg[], warnOnly?: string) => {
    const c = str(v);
    if (c === undefined || pods.length === 0 || pods.some((d) => d.containers.has(c))) return;
    const known = new Set(pods.flatMap((d) => [...d.containers]));
    const message = `pod ${pods[0].key} has no container ${clip(c)}${suggest(c, known)}`;
    if (warnOnly === undefined) out.push({ code: 'UNKNOWN_CONTAINER', message, path, got: clip(c) });
    else out.push({ code: 'UNKNOWN_CONTAINER', message: `${message}\n${warnOnly}`, path, got: clip(c), severity: 'warning' });
  };

  return { ref, containerOf };
}

type AfterUntil = (at: unknown, path: PathSeg[], what: string) => void;

/** A step or a timed assertion after the end of the run would never happen. */
function afterUntilCheck(spec: Obj, out: Draft[]): AfterUntil {
  const untilMs = spec.until === undefined ? 600_000 : typeof spec.until === 'string' ? parseDuration(spec.until) : undefined;
  const untilText = spec.until === undefined ? '600s (the default)' : typeof spec.until === 'string' ? spec.until : '';
  const afterUntil = (at: unknown, path: PathSeg[], what: string) => {
    const ms = typeof at === 'string' ? parseDuration(at) : undefined;
    if (untilMs !== undefined && ms !== undefined && ms > untilMs)
      out.push({ code: 'AFTER_UNTIL', message: `${what} at ${at} is after the end of the run (spec.until: ${untilText}), so it would never happen: move it or raise spec.until`, path, got: JSON.stringify(at) });
  };
  return afterUntil;
}

/** The status manager's own API calls that name a container: upstream looks the container up in the
 *  cached status and logs and ignores one it does not have (SetContainerReadiness /
 *  SetContainerStartup, status_manager.go; TestSetContainerReadiness pins it), so naming a container
 *  the pod lacks is legal: a warning, saying what will happen. Node actions keep the error. */
const STATUS_MANAGER_CALLS: Record<string, string | undefined> = {
  setContainerReadiness: 'the status manager will log "Container readiness changed for unknown container" and change nothing',
  setContainerStartup: 'the status manager will log "Container startup changed for unknown container" and change nothing',
};

/** Each timeline step: exactly one action, its pod and container references, and the action's
 *  own conditions (node actions need a runtime, mirrors a static pod, create a manifest). */
function checkTimeline(spec: Obj, runtime: string, { ref, containerOf }: Refs, afterUntil: AfterUntil, out: Draft[]): void {
  list(spec.timeline).forEach((entry, i) => {
    const s = obj(entry);
    if (!s) return;
    const path: PathSeg[] = ['spec', 'timeline', i];
    afterUntil(s.at, [...path, 'at'], 'this step');
    const keys = Object.keys(s).filter((k) => k !== 'at');
    const actions = keys.filter((k) => k in ACTIONS);
    exactlyOne(out, path, keys, actions, 'a step', 'action', 'setPodStatus');
    for (const a of actions) {
      const f = obj(s[a]);
      const ap = [...path, a];
      if (NODE_ACTIONS.has(a) && runtime === 'none')
        out.push({ code: 'INVALID_VALUE', message: `\`${a}\` acts on the node's runtime, so it needs spec.kubelet.runtime: simulated`, path: ap, atKey: true });
      if (NODE_OBJECT_ACTION_NAMES.has(a) && spec.nodeLifecycle == null)
        out.push({ code: 'INVALID_VALUE', message: `\`${a}\` acts on the Node object, which exists only with the node lifecycle: add \`nodeLifecycle: {}\` to spec`, path: ap, atKey: true });
      if (!f) continue;
      const pods = 'pod' in f ? ref(f.pod, [...ap, 'pod']) : [];
      if ('container' in f) containerOf(pods, f.container, [...ap, 'container'], STATUS_MANAGER_CALLS[a]);
      // an ephemeral container a step adds is known to the steps after it
      const added = a === 'addEphemeralContainer' ? str(obj(f.container)?.name) : undefined;
      if (added !== undefined) for (const d of pods) d.containers.add(added);
      list(f.keep).forEach((k, j) => ref(k, [...ap, 'keep', j]));
      if ((a === 'createMirror' || a === 'deleteMirror') && pods.length > 0 && !pods.some((d) => d.isStatic))
        out.push({ code: 'INVALID_VALUE', message: `pod ${pods[0].key} is not a static pod, so it has no mirror`, path: [...ap, 'pod'] });
      if ((a === 'removeStaticPod' || a === 'addStaticPod') && pods.length > 0 && !pods.some((d) => d.isStatic))
        out.push({ code: 'INVALID_VALUE', message: `pod ${pods[0].key} is not a static pod, so it has no manifest in the kubelet's manifest directory`, path: [...ap, 'pod'] });
      if ((a === 'create' || a === 'recreate') && pods.length > 0 && !pods.some((d) => !d.isStatic && d.only !== 'kubelet'))
        out.push({ code: 'INVALID_VALUE', message: `pod ${pods[0].key} has no manifest for the apiserver (static or \`only: kubelet\`)`, path: [...ap, 'pod'] });
    }
  });
}

/** Each assertion: exactly one kind, and its pod reference. */
function checkExpect(spec: Obj, { ref }: Refs, afterUntil: AfterUntil, out: Draft[]): void {
  list(spec.expect).forEach((entry, i) => {
    const e = obj(entry);
    if (!e) return;
    const path: PathSeg[] = ['spec', 'expect', i];
    const keys = Object.keys(e);
    const kinds = keys.filter((k) => k in ASSERTIONS);
    exactlyOne(out, path, keys, kinds, 'an assertion', 'kind', 'apiserver');
    for (const k of kinds) {
      const f = obj(e[k]);
      if (f && 'pod' in f) ref(f.pod, [...path, k, 'pod']);
      if (f && 'at' in f) afterUntil(f.at, [...path, k, 'at'], 'this assertion');
    }
  });
}

/** A step needs exactly one action, an assertion exactly one kind. Unknown keys count as an
 *  attempt (zod reports them), so they do not also make the map look empty. */
function exactlyOne(out: Draft[], path: PathSeg[], keys: string[], known: string[], what: string, noun: string, example: string) {
  if (keys.length === 0) out.push({ code: 'MISSING_FIELD', message: `${what} needs one ${noun}, e.g. "${example}"`, path, expected: `one ${noun}` });
  for (const extra of known.slice(1))
    out.push({
      code: 'INVALID_VALUE',
      message: `${what} has exactly one ${noun}; this one has "${known[0]}" and "${extra}": split it in two`,
      path: [...path, extra],
      atKey: true,
    });
}
