/**
 * Opening the service's SQLite file, and saying which file a storage error
 * is about. The event store and the seat tokens share one file; an operator
 * reading "database disk image is malformed" must learn which one.
 */
import Database from 'better-sqlite3';

/** `error` with the database file named in its message, when it is SQLite's own; anything else as it is. */
export function namedStorageError(path: string, error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const named = new Error(`SQLite database ${path}: ${error.message}`, { cause: error });
  named.name = 'StorageError';
  return Object.assign(named, { code: error.code });
}

/** Runs `work`, naming the file in any SQLite error it throws. */
export function withFileNamed<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw namedStorageError(path, error);
  }
}

/**
 * Refuses a damaged file before the service starts on it: `PRAGMA
 * quick_check` reads every page (a second or so per GB), where a damaged
 * page otherwise shows only when a request happens to touch it — the lobby,
 * say — and the service would look healthy while failing.
 */
export function checkIntegrity(db: Database.Database, path: string): void {
  let problems: string[];
  try {
    problems = (db.pragma('quick_check', { simple: false }) as { quick_check: string }[]).map((row) => row.quick_check);
  } catch (error) {
    // Damage bad enough stops the check itself ("database disk image is malformed").
    if (!(error instanceof Database.SqliteError) || !error.code.startsWith('SQLITE_CORRUPT')) throw error;
    problems = [error.message];
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
  throw new Error(
    `SQLite database ${path} is damaged (PRAGMA quick_check: ${shown}); the service will not start on it. ` +
      'Restore the file from a backup, or move it aside to start with an empty one.',
  );
}
