// The timeline actions on Node objects (spec.nodeLifecycle): a user's `kubectl taint` and node
// deletion. Spread into schema.ts ACTIONS.
import { z } from 'zod';
import { dnsSubdomain, labelValue, Refusal, value } from './schema-values.js';
import type { StepAction } from './types.js';

const act = <T extends z.ZodType>(s: T, f: (v: z.output<T>) => StepAction) => s.transform(f);
const node = dnsSubdomain.optional().meta({ description: 'the node (spec.nodes); default: the default node' });

/** A taint key: a qualified name (an optional DNS subdomain prefix and "/", then at most 63
 *  letters, digits, "-", "_" and ".", starting and ending with a letter or digit). */
const QUALIFIED = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const taintKey = value({ type: 'string', pattern: QUALIFIED.source, description: 'a taint key: a qualified name like node.kubernetes.io/out-of-service' }, (v) => {
  if (typeof v !== 'string') return new Refusal('INVALID_TYPE', 'a string');
  const name = v.slice(v.indexOf('/') + 1);
  return QUALIFIED.test(v) && name.length <= 63 && v.length - name.length <= 254 ? v : new Refusal('INVALID_VALUE', 'a qualified name like node.kubernetes.io/out-of-service');
});
const effect = z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

export const NODE_OBJECT_ACTIONS = {
  taintNode: act(z.strictObject({ node, key: taintKey, value: labelValue.optional(), effect }), (v) => ({ action: 'taintNode', ...v })),
  untaintNode: act(z.strictObject({ node, key: taintKey, effect: effect.optional() }), (v) => ({ action: 'untaintNode', ...v })),
  deleteNode: act(z.strictObject({ node }).nullable(), (v) => ({ action: 'deleteNode', node: v?.node })),
};

/** The actions that need spec.nodeLifecycle (kss has Node objects only with it). */
export const NODE_OBJECT_ACTION_NAMES: ReadonlySet<string> = new Set(Object.keys(NODE_OBJECT_ACTIONS));
