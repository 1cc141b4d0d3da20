// The kss command line. `main(argv, io)` is testable in-process; bin.ts wires it to the process.
import yargs from 'yargs';
import { EXIT_USAGE, type CliIO } from './io.js';
import { normalizeArgv, numberOption, type CommandName } from './options.js';
import { diffArgs, diffOptions, exploreArgsOf, exploreBuilder, inspectArgs, inspectOptions, replayOptions, runArgs, runOptions, testArgs, testOptions } from './commands.js';

// Each command's modules are imported when it runs (the option tables above are all `--help`
// and the parse need): a cold `kss --help` loads yargs and these few files only.
/** `--version`, unknown commands, repeated options: settled before yargs (options.ts). */
async function preflight(rawArgv: string[], io: CliIO): Promise<string[] | number> {
  if (rawArgv.length === 1 && (rawArgv[0] === '--version' || rawArgv[0] === '-V')) {
    io.stdout(`${(await import('../world/run.js')).TOOL_VERSION}\n`);
    return 0;
  }
  const norm = normalizeArgv(rawArgv);
  if (norm.ok) return norm.argv;
  io.stderr(`${norm.message}\nrun 'kss --help' for usage\n`);
  return EXIT_USAGE;
}

type Parsed = Record<string, unknown>;
type Handler = (a: Parsed, io: CliIO) => Promise<number>;
const as = <F extends (x: never) => unknown>(a: Parsed) => a as Parameters<F>[0];

/** Each command's handler, its modules imported only when it runs; yargs only parses and checks. */
const HANDLERS: Record<CommandName, Handler> = {
  run: async (a, io) => (await import('./run-command.js')).runCommand(runArgs(as<typeof runArgs>(a)), io),
  test: async (a, io) => {
    const t = as<typeof testArgs>(a);
    if (t.sweep !== undefined) return (await import('./sweep-command.js')).sweepCommand({ sweep: t.sweep, paths: (t.paths as string[] | undefined) ?? [], seed: t.seed, maxEvents: t['max-events'] }, io);
    return (await import('./test-command.js')).testCommand(testArgs(t), io);
  },
  replay: async (a, io) => (await import('./replay-command.js')).replayCommandRun({ trace: a.trace as string, scenario: a.scenario as string | undefined, maxEvents: a['max-events'] as number | undefined }, io),
  validate: async (a, io) => (await import('./validate-command.js')).validateCommand({ scenarios: a.scenarios as string[] }, io),
  inspect: async (a, io) => (await import('./inspect-command.js')).inspectCommand(inspectArgs(as<typeof inspectArgs>(a)), io),
  diff: async (a, io) => (await import('./diff-command.js')).diffCommand(diffArgs(as<typeof diffArgs>(a)), io),
  schema: async (a, io) => (await import('./schema-command.js')).schemaCommand({ output: a.output as string | undefined }, io),
  explore: async (a, io) => (await import('./explore-command.js')).exploreCommand(exploreArgsOf(a), io),
  fixes: async (a, io) => (await import('./fixes-command.js')).fixesCommand({ format: a.format as 'table' | 'json' }, io),
};

/** yargs renders the whole help text after it has run a command, to cache it for a help shown
 *  later from a handler: about 35 ms of every cold start (string widths of every cell), for a
 *  text kss never shows then (help goes out before any command runs, usage errors print only
 *  their message). The cache is skipped; help itself is rendered when asked for, as before. */
function skipHelpCache(parser: unknown): void {
  const internal = (parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

export async function main(rawArgv: string[], io: CliIO): Promise<number> {
  const argv = await preflight(rawArgv, io);
  if (typeof argv === 'number') return argv;
  let usageError: string | undefined;
  const parser = yargs(argv)
    .scriptName('kss')
    .usage('kss <command> [options]\n\nkubelet status simulator: a deterministic simulator of how the kubelet keeps pod status in sync with the apiserver.')
    .command('run <scenario>', 'run one scenario and show its timeline and verdict', runOptions)
    .command('test [paths..]', 'run scenarios as a regression suite: expectations, invariants and golden traces (default path: scenarios/)', testOptions)
    .command('replay <trace> [scenario]', 'run a trace file\'s scenario again and require a byte-identical trace', replayOptions)
    .command('validate <scenarios..>', 'check scenario files without running them', (y) => y.positional('scenarios', { type: 'string', array: true, demandOption: true, describe: 'scenario files or folders' }))
    .command('inspect <scenario>', 'the world at an instant, as YAML: cache entries, versions sent, status channel, pod workers, runtime, apiserver objects, requests in flight, faults', inspectOptions)
    .command('diff <inputs..>', 'two runs side by side: a scenario under both generations (or --seeds A,B), or two trace files', diffOptions)
    .command('schema', 'print the JSON Schema of the scenario format', (y) => y.option('output', { alias: 'o', type: 'string', describe: 'write it to FILE (whole or not at all)' }))
    .command('explore <scenario> [dirs..]', 'search a scenario\'s faults for invariant violations and shrink each find (kss explore merge DIR... folds shard results)', exploreBuilder(numberOption))
    .command('fixes', 'list the upstream fixes a scenario can take back out (spec.kubelet.revertFixes)', (y) => y.option('format', { choices: ['table', 'json'] as const, default: 'table' as const, describe: 'output format' }))
    .epilogue('kss --version prints the version. Each option is given once; --tag alone repeats.')
    .demandCommand(1, 'name a command: run, test, replay, validate, schema, inspect, diff, explore, fixes')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((msg, err) => {
      usageError = msg ?? err?.message ?? 'usage error';
    });
  skipHelpCache(parser);
  let helpOut = '';
  const parsed = await parser.parseAsync(argv, {}, (_err, _argv, output) => {
    helpOut = output;
  });
  if (usageError !== undefined) {
    io.stderr(`${usageError}\nrun 'kss --help' for usage\n`);
    return EXIT_USAGE;
  }
  if (helpOut) {
    io.stdout(helpOut + '\n');
    return 0;
  }
  const handler = HANDLERS[String(parsed._[0]) as CommandName];
  if (handler === undefined) {
    io.stderr(`name a command: ${Object.keys(HANDLERS).join(', ')}\nrun 'kss --help' for usage\n`);
    return EXIT_USAGE;
  }
  return handler(parsed, io);
}
