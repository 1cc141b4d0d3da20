// `kss schema [--output FILE]`: the JSON Schema of the scenario format, for editors and linters.
import { resolve } from 'node:path';
import { scenarioJsonSchema } from '../scenario/index.js';
import { isStdoutTarget, writeFileAtomic } from '../report/atomic.js';
import { EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';

export interface SchemaArgs {
  output?: string;
}

export function schemaText(): string {
  return JSON.stringify(scenarioJsonSchema(), null, 2) + '\n';
}

export function schemaCommand(args: SchemaArgs, io: CliIO): number {
  const text = schemaText();
  if (args.output === undefined) {
    io.stdout(text);
    return EXIT_PASS;
  }
  try {
    writeFileAtomic(isStdoutTarget(args.output) ? args.output : resolve(io.cwd, args.output), [text], io.stdout);
  } catch (err) {
    io.stderr(`error WRITE_FAILED at --output: could not write ${args.output}: ${(err as Error).message}\n`);
    return EXIT_USAGE;
  }
  return EXIT_PASS;
}
