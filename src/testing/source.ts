// Whether a scenario path may be read, checked before anything opens it (README "Security"):
// it must be a regular file (never a folder, FIFO, socket or device: reading one could block or
// never end), readable, and — when reached through a symbolic link — inside its tree: the folder
// a walk started from, or the folder of a file named on the command line. A link that leaves the
// tree is refused, and its target is never read (a link to /proc/self/environ must not print the
// environment).
import { accessSync, constants, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, relative, isAbsolute, sep } from 'node:path';

export type SourceCode = 'FILE_NOT_FOUND' | 'FILE_IS_FOLDER' | 'NOT_REGULAR' | 'PERMISSION' | 'OUTSIDE_TREE';

export type SourceCheck = { ok: true; real: string } | { ok: false; code: SourceCode; message: string };

/** `path: error CODE: what is wrong`, as every refusal is shown. */
export function sourceErrorText(shown: string, c: { code: SourceCode; message: string }): string {
  return `${shown}: error ${c.code}: ${c.message}`;
}

/** What kind of thing a non-regular file is, in words. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Is `p` (a real path) inside `root` (a real path), or `root` itself? */
export function isInside(p: string, root: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

export function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Check `abs` for reading as a scenario. `tree`: the real path it must stay in (default: the
 *  real path of its own folder). `shown`: the path as the user sees it. */
export function checkScenarioSource(abs: string, shown: string, tree?: string): SourceCheck {
  let lst: Stats;
  try {
    lst = lstatSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES') return { ok: false, code: 'PERMISSION', message: 'permission denied (cannot look into its folder)' };
    return { ok: false, code: 'FILE_NOT_FOUND', message: 'no such file' };
  }
  let real = abs;
  if (lst.isSymbolicLink()) {
    try {
      real = realpathSync(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return { ok: false, code: 'FILE_NOT_FOUND', message: 'a symbolic link that loops' };
      return { ok: false, code: 'FILE_NOT_FOUND', message: 'a symbolic link to a file that does not exist' };
    }
    const root = tree ?? realOrSelf(dirname(abs));
    if (!isInside(real, root)) {
      return { ok: false, code: 'OUTSIDE_TREE', message: `a symbolic link that leaves its tree (${root}); kss does not follow it (copy the file in, or name its real path)` };
    }
  } else if (tree !== undefined && !isInside(realOrSelf(abs), tree)) {
    return { ok: false, code: 'OUTSIDE_TREE', message: `reached through a symbolic link that leaves its tree (${tree}); kss does not follow it` };
  }
  let st: Stats;
  try {
    st = statSync(real);
  } catch {
    return { ok: false, code: 'FILE_NOT_FOUND', message: 'no such file' };
  }
  if (st.isDirectory()) return { ok: false, code: 'FILE_IS_FOLDER', message: `is a folder, not a scenario file (to run every scenario in it: kss test ${shown})` };
  if (!st.isFile()) return { ok: false, code: 'NOT_REGULAR', message: `is ${kindOf(st)}, not a regular file: kss reads scenarios from regular files only` };
  try {
    accessSync(real, constants.R_OK);
  } catch {
    return { ok: false, code: 'PERMISSION', message: 'permission denied (the file is not readable)' };
  }
  return { ok: true, real };
}
