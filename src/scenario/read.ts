// Reading a scenario file's bytes: only a regular file, at most MAX_FILE_BYTES, valid UTF-8. A
// folder, a device, a FIFO or a socket is refused before it is opened (so it never blocks), and
// each failure says which it is.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Issue } from './issues.js';
import { firstInvalidUtf8, MAX_FILE_BYTES } from './yaml.js';

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

function fileIssue(path: string, code: string, message: string): Issue {
  return { code, message, file: path, line: 0, col: 0, path: '' };
}

function kindOf(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The file's bytes as text, or the issue that stops it being read. */
export function readScenarioText(path: string): { text: string; bytes: Buffer } | { issue: Issue } {
  let fd: number | undefined;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return { issue: fileIssue(path, 'FILE_IS_FOLDER', `${path} is a folder, not a scenario file (to run every scenario in it: kss test ${path})`) };
    if (!st.isFile()) return { issue: fileIssue(path, 'FILE_NOT_REGULAR', `${path} is ${kindOf(st)}; a scenario must be a regular file`) };
    if (st.size > MAX_FILE_BYTES) return { issue: tooLarge(path, st.size) };
    fd = openSync(path, 'r');
    const fst = fstatSync(fd);
    if (!fst.isFile()) return { issue: fileIssue(path, 'FILE_NOT_REGULAR', `${path} is ${kindOf(fst)}; a scenario must be a regular file`) };
    // Read at most one byte past the limit: a file that grows while it is read is refused too.
    const buf = Buffer.alloc(Math.min(MAX_FILE_BYTES + 1, fst.size + 1));
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = readSync(fd, buf, n, buf.length - n, null);
    if (n > MAX_FILE_BYTES) return { issue: tooLarge(path, n) };
    const bytes = buf.subarray(0, n);
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) return { issue: notUtf8(path, bytes, bad) };
    return { text: bytes.toString('utf8'), bytes };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { issue: fileIssue(path, 'FILE_NOT_FOUND', `cannot read ${path}: no such file`) };
    if (code === 'EACCES' || code === 'EPERM') return { issue: fileIssue(path, 'FILE_UNREADABLE', `cannot read ${path}: permission denied`) };
    if (code === 'ELOOP') return { issue: fileIssue(path, 'FILE_UNREADABLE', `cannot read ${path}: too many levels of symbolic links`) };
    return { issue: fileIssue(path, 'FILE_UNREADABLE', `cannot read ${path}: ${code ?? (e as Error).message}`) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function tooLarge(path: string, size: number): Issue {
  return fileIssue(path, 'FILE_TOO_LARGE', `${path} is ${MB(size)}; a scenario file may be at most ${MB(MAX_FILE_BYTES)}`);
}

function notUtf8(path: string, bytes: Buffer, at: number): Issue {
  let lineStart = 0;
  let line = 1;
  for (let i = bytes.indexOf(10); i !== -1 && i < at; i = bytes.indexOf(10, i + 1)) [line, lineStart] = [line + 1, i + 1];
  const col = bytes.subarray(lineStart, at).toString('utf8').length + 1;
  const hex = `0x${bytes[at].toString(16).padStart(2, '0')}`;
  return { code: 'NOT_UTF8', message: `the file is not UTF-8: byte ${hex} at offset ${at} is not valid UTF-8 (save the file as UTF-8)`, file: path, line, col, path: '' };
}
