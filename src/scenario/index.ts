// The scenario loader's public face.
import { z } from 'zod';
import { scenarioSchema } from './schema.js';

export { loadScenario, loadScenarioFile, type LoadResult } from './load.js';
export { loadScenarioFileCached, type ScenarioCache } from './load-cache.js';
export { renderIssues } from './render.js';
export type { Issue } from './issues.js';
export type * from './types.js';
export { INVARIANT_NAMES } from './types.js';

/** JSON Schema of the scenario format (what a file may say, before defaults), for editors. */
export function scenarioJsonSchema(): object {
  return {
    ...z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://kss.dev/schema/scenario-v1alpha1.json',
  };
}
