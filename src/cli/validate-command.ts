// `kss validate <scenario...>`: load each scenario and say whether it is valid. A folder is
// searched as `kss test` searches it (recursively, skipping fixtures/, bad/ and goldens).
// Prints `ok <file>` (stdout, after any warnings on stderr) or the rendered issues (stderr); exit 0 all valid, 2 any invalid
// or missing.
import { loadScenarioFile } from '../scenario/index.js';
import { renderLoadIssues } from '../testing/load.js';
import { discoverScenarios } from '../testing/discover.js';
import { makeChalk } from '../report/pretty.js';
import { EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';

export interface ValidateArgs {
  scenarios: string[];
}

export function validateCommand(args: ValidateArgs, io: CliIO): number {
  const c = makeChalk(io.color);
  let bad = 0;
  // One path at a time, so files come out in the order given (each folder's files sorted).
  for (const p of args.scenarios) {
    const found = discoverScenarios([p], io.cwd);
    if (found.missing.length > 0) {
      io.stderr(`${p}: error NOT_FOUND: no such file or folder\n`);
      bad++;
      continue;
    }
    if (found.files.length === 0) {
      io.stderr(`${p}: error NO_SCENARIOS: no scenario files (*.yaml, *.yml) in this folder\n`);
      bad++;
      continue;
    }
    for (const f of found.files) {
      const loaded = loadScenarioFile(f.abs);
      if (loaded.ok) {
        // Warnings do not make a scenario invalid: shown, and the file is still ok.
        if (loaded.warnings?.length) io.stderr(renderLoadIssues(loaded, f.abs, f.display) + '\n');
        io.stdout(`${c.green('ok')} ${f.display}\n`);
      } else {
        io.stderr(renderLoadIssues(loaded, f.abs, f.display) + '\n');
        bad++;
      }
    }
  }
  if (bad > 0) io.stderr(`${bad} invalid\n`);
  return bad > 0 ? EXIT_USAGE : EXIT_PASS;
}
