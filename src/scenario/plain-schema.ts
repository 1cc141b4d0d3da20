// The scenario schema of the loader's fast path (load.ts fastLoad): scenarioSchema with each
// timeline step parsed by its own action's schema. Its issues are never shown: anything it refuses
// is loaded again the full way, through scenarioSchema.
import { z } from 'zod';
import { ACTIONS, scenarioSchema, specSchema, type step } from './schema.js';
import { duration } from './schema-values.js';

/** A step as `step` parses one with `at` and this action only: two keys to check, not forty. */
const stepOf = new Map<string, z.ZodType>();
function stepWith(action: keyof typeof ACTIONS): z.ZodType {
  let s = stepOf.get(action);
  if (s === undefined) stepOf.set(action, (s = z.strictObject({ at: duration, [action]: ACTIONS[action] })));
  return s;
}

/** A step with `at` and exactly one action, parsed by that action's schema; anything else is
 *  refused (its issues are found by scenarioSchema). */
const plainStep = z.unknown().transform((v, ctx) => {
  let action: keyof typeof ACTIONS | undefined;
  let keys = 0;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const k in v) {
      keys++;
      if (k !== 'at' && Object.hasOwn(ACTIONS, k)) action = k as keyof typeof ACTIONS;
    }
  }
  const r = action !== undefined && keys === 2 && Object.hasOwn(v as object, 'at') ? stepWith(action).safeParse(v) : undefined;
  if (r?.success) return r.data as z.output<typeof step>;
  ctx.addIssue({ code: 'custom', message: 'not a step with `at` and one action' });
  return z.NEVER;
});

/**
 * scenarioSchema for the loader's fast path: what it accepts (with every step of `at` and one
 * action, as crossCheck requires) it parses to the same value, but each step is checked against
 * its own action's schema instead of the forty-key step (4,000 steps: about 100 ms of a cold
 * load). Anything it refuses is loaded again the full way, so every issue comes from scenarioSchema.
 */
export const plainScenarioSchema = scenarioSchema.extend({ spec: specSchema.extend({ timeline: z.array(plainStep).nullish() }).nullish() });
