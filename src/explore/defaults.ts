// The search's defaults, in a module of their own with no imports: the command line's option
// table (cli/commands.ts) names them without loading the explorer.
export const DEFAULT_RUNS = 1000;
