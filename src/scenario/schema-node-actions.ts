// The timeline actions on Node objects (spec.nodeLifecycle): a user's `kubectl taint`, `kubectl
// label` and node deletion. Spread into schema.ts ACTIONS.
import { z } from 'zod';
import { dnsSubdomain, labelValue, qualifiedName } from './schema-values.js';
import type { StepAction } from './types.js';

const act = <T extends z.ZodType>(s: T, f: (v: z.output<T>) => StepAction) => s.transform(f);
const node = dnsSubdomain.optional().meta({ description: 'the node (spec.nodes); default: the default node' });

/** A taint key: a qualified name. */
const taintKey = qualifiedName('a taint key', 'node.kubernetes.io/out-of-service');
const effect = z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

export const NODE_OBJECT_ACTIONS = {
  taintNode: act(z.strictObject({ node, key: taintKey, value: labelValue.optional(), effect }), (v) => ({ action: 'taintNode', ...v })),
  untaintNode: act(z.strictObject({ node, key: taintKey, effect: effect.optional() }), (v) => ({ action: 'untaintNode', ...v })),
  deleteNode: act(z.strictObject({ node }).nullable(), (v) => ({ action: 'deleteNode', node: v?.node })),
  labelNode: act(z.strictObject({ node, key: qualifiedName('a label key', 'disktype'), value: labelValue.nullable() }), (v) => ({ action: 'labelNode', ...v })),
};

/** The actions that need spec.nodeLifecycle (kss has Node objects only with it). */
export const NODE_OBJECT_ACTION_NAMES: ReadonlySet<string> = new Set(Object.keys(NODE_OBJECT_ACTIONS));
