// The command line before yargs sees it: one rule for every option, whatever yargs would do.
//
// - Every option may be given once; giving it twice is a usage error (exit 2), `--tag` alone
//   repeats (`--tag a --tag b`, or `--tag a,b`). Aliases count as their option (`-j 2 --jobs 3`).
// - An option that takes a value takes exactly the next word, whatever it looks like
//   (`--until -5s`, `--grep -x`), so it never swallows positionals and a value is never taken
//   for flags; an option given no value (`--seed` last) is a usage error.
// - The first word names the command; an unknown one is a usage error, even with `--help`.

export const COMMANDS = ['run', 'test', 'replay', 'validate', 'schema', 'inspect', 'diff', 'explore', 'fixes'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Options that take a value, per command (long names). */
const VALUED: Record<CommandName, readonly string[]> = {
  run: ['seed', 'until', 'status-manager', 'trace', 'format', 'max-events', 'choices', 'record-choices', 'pod', 'from', 'to', 'only', 'html', 'trace-format'],
  test: ['tag', 'grep', 'shard', 'seeds', 'seed', 'status-manager', 'jobs', 'reporter', 'output', 'timeout', 'max-events', 'sweep'],
  replay: ['max-events'],
  validate: [],
  schema: ['output'],
  inspect: ['at', 'pod', 'seed', 'status-manager'],
  diff: ['seeds', 'generations', 'status-manager', 'until', 'format'],
  fixes: ['format'],
  explore: ['runs', 'time', 'strategy', 'depth', 'max-deviations', 'seed', 'jobs', 'shard', 'shard-total', 'oracle', 'out', 'reporter'],
};

const SHORT: Record<string, string> = { j: 'jobs', o: 'output', v: 'verbose', q: 'quiet', h: 'help' };
const REPEATABLE: ReadonlySet<string> = new Set(['tag']);

export type Normalized = { ok: true; command: CommandName | undefined; argv: string[] } | { ok: false; message: string };

/** A value shown back to the user: one line, at most 80 characters. */
export function echo(v: unknown): string {
  const s = typeof v === 'string' ? v : String(v);
  const j = JSON.stringify(s.length > 80 ? s.slice(0, 77) : s);
  return s.length > 80 ? `${j.slice(0, -1)}…" (${s.length} characters)` : j;
}

/** The argument list rewritten so that every valued option reads `--name=value`. */
export function normalizeArgv(argv: readonly string[]): Normalized {
  const first = argv[0];
  if (first === undefined || first.startsWith('-')) return { ok: true, command: undefined, argv: [...argv] };
  if (!(COMMANDS as readonly string[]).includes(first)) {
    return { ok: false, message: `unknown command ${echo(first)}: the commands are ${COMMANDS.join(', ')}` };
  }
  const command = first as CommandName;
  const valued = new Set(VALUED[command]);
  const out = [first];
  const seen = new Map<string, number>();
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      inline = eq < 0 ? undefined : a.slice(eq + 1);
      if (name.startsWith('no-') && !valued.has(name)) name = name.slice(3);
    } else if (/^-[A-Za-z]/.test(a)) {
      const long = SHORT[a[1]];
      if (long === undefined || (a.length > 2 && !valued.has(long))) {
        out.push(a); // yargs names the unknown flag
        continue;
      }
      name = long;
      inline = a.length > 2 ? a.slice(a[2] === '=' ? 3 : 2) : undefined;
    } else {
      out.push(a);
      continue;
    }
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n > 1 && !REPEATABLE.has(name)) return { ok: false, message: `--${name} is given more than once: give each option once (only --tag repeats)` };
    if (!valued.has(name)) {
      out.push(a);
      continue;
    }
    if (inline === undefined) {
      if (i + 1 >= argv.length) return { ok: false, message: `--${name} needs a value` };
      inline = argv[++i];
    }
    out.push(`--${name}=${inline}`);
  }
  return { ok: true, command, argv: out };
}

/** A yargs coerce for a numeric option given as text: a finite number (a whole, safe one when
 *  `int`), at least `min`; anything else is a usage error naming the option. */
export function numberOption(name: string, opts: { int?: boolean; min?: number } = {}): (v: unknown) => number | undefined {
  return (v) => {
    if (v === undefined) return undefined;
    const s = String(v).trim();
    const what = `${opts.int ? 'a whole number' : 'a number'}${opts.min !== undefined ? ` ≥ ${opts.min}` : ''}`;
    const n = s === '' ? NaN : Number(s);
    const shapeOk = opts.int ? /^[+-]?\d+$/.test(s) : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s);
    if (!shapeOk || !Number.isFinite(n) || (opts.min !== undefined && n < opts.min)) throw new Error(`--${name}: expected ${what}, got ${echo(s)}`);
    if (opts.int && !Number.isSafeInteger(n)) throw new Error(`--${name}: ${echo(s)} is too large: whole numbers up to ${Number.MAX_SAFE_INTEGER} are exact`);
    return n;
  };
}

/** `--tag a --tag b` and `--tag a,b`: the list of tags. */
export function listOption(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  return [v]
    .flat()
    .flatMap((s) => String(s).split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
