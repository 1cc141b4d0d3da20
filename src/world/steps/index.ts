// The timeline's step table: the one place where every action's handler is registered. Each
// handler lives beside the part of the world it acts on; test/world/steps.test.ts checks that the
// table, the loader's schema (scenario/schema.ts ACTIONS) and the docs name the same actions.
import type { Step } from '../../scenario/types.js';
import { apiserverSteps } from './apiserver-steps.js';
import { faultSteps } from './fault-steps.js';
import { sourceSteps } from './source-steps.js';
import type { StepContext, StepHandler, StepHandlers, StepName } from './context.js';
import { kubeletSteps } from './kubelet-steps.js';
import { networkSteps } from './network-steps.js';
import { nodeSteps } from './node-steps.js';
import { nodeObjectSteps } from './node-object-steps.js';
import { statusSteps } from './status-steps.js';

export { StepError, type StepContext } from './context.js';
export { mirrorOf } from './apiserver-steps.js';

/** The parts of the table, by the part of the world they act on (each action in exactly one). */
export const STEP_GROUPS = { apiserver: apiserverSteps, network: networkSteps, node: nodeSteps, nodeObject: nodeObjectSteps, kubelet: kubeletSteps, status: statusSteps, faults: faultSteps, source: sourceSteps } as const;

export const STEP_HANDLERS: StepHandlers<StepName> = { ...apiserverSteps, ...networkSteps, ...nodeSteps, ...nodeObjectSteps, ...kubeletSteps, ...statusSteps, ...faultSteps, ...sourceSteps };

/** Run one step's handler (the table is consulted once per timeline step: not a hot path). */
export function applyStep(w: StepContext, step: Step): void {
  (STEP_HANDLERS[step.action] as StepHandler<StepName>)(w, step as never);
}
