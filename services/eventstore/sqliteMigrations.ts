/**
 * Numbered schema steps for the SQL adapters that share the service's
 * SQLite file (the event store, the seat tokens). Each adapter lists its
 * steps; opening a file runs, in order and in one immediate transaction, the
 * steps `schema_migrations` does not record for that adapter, and records
 * them. A file already at the last step is left as it is, and a file that
 * records a step this code does not know was written by newer code: it is
 * refused rather than misread.
 *
 * Files made before there were migrations (issue 29) have no
 * `schema_migrations`: their schema is each adapter's step 1, whose SQL
 * says IF NOT EXISTS, so running it on them changes nothing but the record.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  /** 1, 2, 3 ...: the order the steps run in, and what the record keeps. */
  readonly step: number;
  /** What the step does, in a few words (kept in the record for whoever reads the file). */
  readonly name: string;
  readonly sql: string;
}

export interface SchemaSteps {
  /** Whose steps these are, as recorded (`event store`, `seat tokens`). */
  readonly adapter: string;
  readonly migrations: readonly Migration[];
}

const RECORD = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    adapter TEXT NOT NULL,
    step INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (adapter, step)
  ) WITHOUT ROWID
`;

/** Brings `db` (the file at `path`) to the last of `steps`; resolves to the steps it ran (none: already there). */
export function migrate(db: Database.Database, path: string, { adapter, migrations }: SchemaSteps): number[] {
  checkNumbering(adapter, migrations);
  const last = migrations.length;
  // Immediate, so two processes opening one file at once do not both run a step: the second waits, then finds it recorded.
  return db
    .transaction(() => {
      db.exec(RECORD);
      const recorded = db.prepare('SELECT step FROM schema_migrations WHERE adapter = ? ORDER BY step').pluck().all(adapter) as number[];
      const newest = recorded.at(-1) ?? 0;
      if (newest > last) {
        throw new Error(
          `${path} has ${adapter} schema step ${newest}; this code knows steps 1 to ${last} (upgrade the service to open it)`,
        );
      }
      const record = db.prepare('INSERT INTO schema_migrations (adapter, step, name, applied_at) VALUES (?, ?, ?, ?)');
      const ran: number[] = [];
      for (const migration of migrations) {
        if (recorded.includes(migration.step)) continue;
        db.exec(migration.sql);
        record.run(adapter, migration.step, migration.name, new Date().toISOString());
        ran.push(migration.step);
      }
      return ran;
    })
    .immediate();
}

/** A list numbered other than 1, 2, 3 ... is a mistake in the code, not in the file: said before anything runs. */
function checkNumbering(adapter: string, migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.step !== index + 1) {
      throw new Error(`the ${adapter} migrations must be numbered 1, 2, 3 ... in order; step ${index + 1} is numbered ${migration.step}`);
    }
  });
}
