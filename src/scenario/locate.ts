// Where a path of the document is in the text: the `yaml` document's nodes, searched by path.
import type { Document, Pair, YAMLMap } from 'yaml';
import type { PathSeg } from './issues.js';
import { yamlLib } from './yaml.js';

/** Finds the source range [start, end) of the node at a path: the deepest node that exists (so
 *  a missing field points at its parent map), or the key itself when `atKey`. Each map's keys
 *  are indexed the first time it is searched, so many lookups stay linear in the document. */
export function locator(doc: Document.Parsed): (path: PathSeg[], atKey: boolean) => [number, number] | undefined {
  const { isAlias, isMap, isScalar, isSeq } = yamlLib();
  const index = new WeakMap<YAMLMap, Map<string, Pair>>();
  const pairOf = (m: YAMLMap, seg: PathSeg): Pair | undefined => {
    let keys = index.get(m);
    if (!keys) {
      keys = new Map();
      for (const p of m.items) if (isScalar(p.key) && !keys.has(String(p.key.value))) keys.set(String(p.key.value), p);
      index.set(m, keys);
    }
    return keys.get(String(seg));
  };
  return (path, atKey) => {
    let node: unknown = doc.contents;
    let key: { range?: [number, number, number] | null } | undefined;
    for (const [depth, seg] of path.entries()) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = pairOf(node, seg);
        if (!pair) break;
        key = pair.key as typeof key;
        // `key:` with nothing after it: the key is the better place to point at.
        const empty = isScalar(pair.value) && pair.value.value === null && pair.value.range?.[0] === pair.value.range?.[1];
        node = !pair.value || empty ? pair.key : pair.value;
      } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
        node = node.items[seg];
        key = undefined;
      } else break;
      if (atKey && key && depth === path.length - 1) node = key;
    }
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    return range ? [range[0], range[1]] : undefined;
  };
}
