/**
 * How many tables of players fit under this process's open-files limit: each
 * seat's socket is a file descriptor in the players' process and another in
 * the gateway's, which inherits the limit.
 */
import { readFileSync } from 'node:fs';

/** The soft limit on open files of this process (children inherit it); null where there is no /proc. */
export function openFilesLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (match === null) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}

/** File descriptors each process needs besides its sockets (the SQLite file, pipes, the HTTP requests of setup). */
const SPARE_FDS = 256;

/**
 * How many of `tables` tables of `seats` sockets fit under the open-files
 * limit (the client holds a descriptor per socket, and so does the gateway);
 * when fewer than asked, `log` is told why and what to do.
 */
export function tablesWithinOpenFiles(tables: number, seats: number, log: (line: string) => void): number {
  const limit = openFilesLimit();
  if (limit === null || tables * seats + SPARE_FDS <= limit) return tables;
  const fitting = Math.max(1, Math.floor((limit - SPARE_FDS) / seats));
  log(
    `note: the open-files limit (ulimit -n) is ${limit}; ${tables} tables need ${tables * seats} sockets in this process and as many in the gateway. ` +
      `Running ${fitting} tables instead; for ${tables}, raise it first (e.g. \`ulimit -n ${tables * seats + 1024}\`).`,
  );
  return fitting;
}
