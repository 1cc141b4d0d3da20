// `kss inspect <scenario> --at 12.5s [--pod P] [--seed S] [--status-manager V]`: run the scenario up
// to that instant (after every event at it) and print the world then as YAML.
import { resolve } from 'node:path';
import { parseDuration } from '../model/time.js';
import { loadScenarioFileCached, renderIssues } from '../scenario/index.js';
import type { Variant } from '../scenario/types.js';
import { runScenario } from '../world/run.js';
import { worldSnapshot } from '../world/world-snapshot.js';
import { faultsInForce, inspectYaml, requestsInFlight } from '../report/inspect.js';
import { EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import type { InspectArgs } from './args.js';

export type { InspectArgs };
import { readSource } from './run-command.js';


export function inspectCommand(a: InspectArgs, io: CliIO): number {
  const atMs = a.at === undefined ? undefined : parseDuration(a.at);
  if (atMs === undefined || atMs < 0) {
    io.stderr(`error BAD_DURATION at --at: expected the instant as a Go duration such as 12.5s or 2m, got ${a.at === undefined ? 'nothing' : JSON.stringify(a.at)}\n`);
    return EXIT_USAGE;
  }
  const seed = a.seed === undefined ? undefined : Number(a.seed);
  if (seed !== undefined && !Number.isInteger(seed)) {
    io.stderr(`--seed: expected a whole number, got ${JSON.stringify(String(a.seed))}\n`);
    return EXIT_USAGE;
  }
  const path = resolve(io.cwd, a.scenario);
  const loaded = loadScenarioFileCached(path, io.scenarioCache);
  if (!loaded.ok) {
    io.stderr(renderIssues(loaded.issues.map((i) => (i.file === path ? { ...i, file: a.scenario } : i)), readSource(path)) + '\n');
    return EXIT_USAGE;
  }
  const r = runScenario({ ...loaded.scenario, file: a.scenario }, { seed, variant: a.statusManager, untilMs: atMs });
  const pod = a.pod === undefined ? undefined : a.pod.includes('/') ? a.pod : `default/${a.pod}`;
  const snap = worldSnapshot(r.world, atMs, requestsInFlight(r.trace, atMs), faultsInForce(r.trace, atMs));
  if (pod !== undefined && !snap.pods.some((p) => p.pod === pod)) {
    io.stderr(`error UNKNOWN_POD at --pod: no pod ${pod} at ${snap.at}; known: ${snap.pods.map((p) => p.pod).join(', ') || 'none'}\n`);
    return EXIT_USAGE;
  }
  io.stdout(inspectYaml(snap, pod));
  return EXIT_PASS;
}
