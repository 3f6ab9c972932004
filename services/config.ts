/**
 * Where the embedded service keeps its data, from the environment: the one
 * place the default is written down.
 */
import { join } from 'node:path';

export const DEFAULT_DATABASE = join('data', 'suitors.db');

/** The SQLite file of the embedded event store (SUITORS_DB, else ./data/suitors.db). */
export function databasePath(override?: string): string {
  return override ?? process.env.SUITORS_DB ?? DEFAULT_DATABASE;
}
