/**
 * Projection checkpoints in a SQLite file (the service's own file, or one of
 * their own), on a connection of their own: one row per projection holding
 * its state and positions as one JSON value, so a save is one statement,
 * atomic by itself.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { withFileNamed } from '../eventstore/sqliteFile.js';
import { migrate, type SchemaSteps } from '../eventstore/sqliteMigrations.js';
import { parseCheckpoint, type ProjectionCheckpoints } from './checkpoints.js';

const PROJECTION_CHECKPOINT_STEPS: SchemaSteps = {
  adapter: 'projections',
  migrations: [
    {
      step: 1,
      name: 'projection checkpoints',
      sql: `
        CREATE TABLE IF NOT EXISTS projection_checkpoints (
          name TEXT PRIMARY KEY,
          checkpoint TEXT NOT NULL,
          saved_at TEXT NOT NULL
        ) WITHOUT ROWID;
      `,
    },
  ],
};

export function openSqliteCheckpoints(path: string, busyTimeoutMs = 5000): ProjectionCheckpoints {
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  const db = withFileNamed(path, () => new Database(path, { timeout: busyTimeoutMs }));
  try {
    db.pragma('journal_mode = WAL');
    // A checkpoint lost with the machine is only a rebuild from an older one: no fsync wait on every save.
    db.pragma('synchronous = NORMAL');
    withFileNamed(path, () => migrate(db, path, PROJECTION_CHECKPOINT_STEPS));
  } catch (error) {
    db.close();
    throw error;
  }
  const find = db.prepare('SELECT checkpoint FROM projection_checkpoints WHERE name = ?').pluck();
  const put = db.prepare('INSERT OR REPLACE INTO projection_checkpoints (name, checkpoint, saved_at) VALUES (?, ?, ?)');
  let closed = false;
  const checkOpen = () => {
    if (closed) throw new Error(`the projection checkpoints of ${path} are closed`);
  };
  return {
    async load(name) {
      checkOpen();
      const json = withFileNamed(path, () => find.get(name) as string | undefined);
      return json === undefined ? null : parseCheckpoint(json, `${path} (projection ${name})`);
    },
    async save(name, checkpoint) {
      checkOpen();
      const json = JSON.stringify(checkpoint);
      withFileNamed(path, () => put.run(name, json, new Date().toISOString()));
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
