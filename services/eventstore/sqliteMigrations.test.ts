/**
 * Numbered migrations of the SQL adapters (issue 29). The fixture
 * fixtures/schema-1.db was made by the code from before the migrations
 * (commit e6b76f0: SCHEMA_VERSION = 1, the seat tokens' CREATE ... IF NOT
 * EXISTS) with openSqliteEventStore and openSqliteSeatTokens on one file:
 * tables t-before-migrations (3 events, a snapshot at 2, a status) and
 * t-second (1 event), and one seat token, 'A' x 43, for seat 0.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteSeatTokens } from '../tokens/sqliteSeatTokens.js';
import { openSqliteEventStore } from './sqliteEventStore.js';
import { migrate, type Migration } from './sqliteMigrations.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/schema-1.db', import.meta.url));
const FIXTURE_TOKEN = 'A'.repeat(43);
const directory = mkdtempSync(join(tmpdir(), 'suitors-migrations-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function copyOfFixture(name: string): string {
  const path = join(directory, name);
  copyFileSync(FIXTURE, path);
  return path;
}

function recordedSteps(path: string): { adapter: string; step: number; name: string }[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT adapter, step, name FROM schema_migrations ORDER BY adapter, step').all() as {
      adapter: string;
      step: number;
      name: string;
    }[];
  } finally {
    db.close();
  }
}

/** Every row of each table a file holds, by table, for comparing before and after. */
function contents(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = ['events', 'tables', 'snapshots', 'seat_tokens'];
    return Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()]));
  } finally {
    db.close();
  }
}

async function openBoth(path: string) {
  const store = openSqliteEventStore(path);
  const tokens = openSqliteSeatTokens(path);
  return { store, tokens, close: () => Promise.all([tokens.close(), store.close()]) };
}

describe('a file made before the migrations', () => {
  it('opens, records the steps of both adapters, and keeps its events, status, snapshot and seat token', async () => {
    const path = copyOfFixture('before.db');
    const before = contents(path);
    const { store, tokens, close } = await openBoth(path);
    expect(await store.read('t-before-migrations')).toMatchObject([
      { seq: 1, type: 'table.created', data: { game: 'sevenSuitors', seats: 4 } },
      { seq: 2, type: 'seat.joined', data: { seat: 0, name: 'Ada' } },
      { seq: 3, type: 'seat.joined', data: { seat: 1, name: 'Brook' } },
    ]);
    expect(await store.listTables()).toEqual([
      {
        tableId: 't-before-migrations',
        version: 3,
        lastEventAt: '2026-12-01T22:00:00.000Z',
        status: { game: 'sevenSuitors', phase: 'waiting' },
      },
      { tableId: 't-second', version: 1, lastEventAt: '2026-12-01T22:00:00.000Z', status: null },
    ]);
    expect(await store.loadSnapshot('t-before-migrations')).toEqual({ version: 2, snapshot: { phase: 'waiting', seats: ['Ada'] } });
    expect(await tokens.resolve(FIXTURE_TOKEN)).toEqual({ tableId: 't-before-migrations', seat: 0 });
    // It takes new writes where its log left off.
    expect(await store.append('t-second', [{ type: 'seat.joined', at: '2026-12-01T23:00:00.000Z', data: { seat: 0 } }], 1)).toBe(2);
    await close();

    expect(recordedSteps(path)).toEqual([
      { adapter: 'event store', step: 1, name: 'events, tables and snapshots' },
      { adapter: 'event store', step: 2, name: 'retired tables: the record each keeps' },
      { adapter: 'seat tokens', step: 1, name: 'seat_tokens and its index by seat' },
    ]);
    // What it held is still there as it was; the append and its table's row are all that changed.
    const after = contents(path);
    expect(after.events.slice(0, before.events.length)).toEqual(before.events);
    expect(after.snapshots).toEqual(before.snapshots);
    expect(after.seat_tokens).toEqual(before.seat_tokens);
    expect(after.tables[0]).toEqual(before.tables[0]);
  });

  it('is migrated once: opening it again runs no step and changes nothing', async () => {
    const path = copyOfFixture('twice.db');
    await (await openBoth(path)).close();
    const once = { steps: recordedSteps(path), contents: contents(path) };
    await (await openBoth(path)).close();
    expect({ steps: recordedSteps(path), contents: contents(path) }).toEqual(once);
  });
});

describe('migrate', () => {
  const steps = (count: number): Migration[] =>
    Array.from({ length: count }, (_, index) => ({
      step: index + 1,
      name: `step ${index + 1}`,
      sql: `CREATE TABLE step_${index + 1} (n INTEGER); INSERT INTO step_${index + 1} VALUES (${index + 1});`,
    }));

  it('runs the steps not yet recorded, in order, and only those', () => {
    const db = new Database(':memory:');
    expect(migrate(db, ':memory:', { adapter: 'test', migrations: steps(2) })).toEqual([1, 2]);
    expect(migrate(db, ':memory:', { adapter: 'test', migrations: steps(2) })).toEqual([]);
    expect(migrate(db, ':memory:', { adapter: 'test', migrations: steps(4) })).toEqual([3, 4]);
    // Another adapter's steps are its own, in the same file.
    expect(migrate(db, ':memory:', { adapter: 'other', migrations: [] })).toEqual([]);
    expect(db.prepare('SELECT adapter, step FROM schema_migrations ORDER BY step').all()).toEqual(
      [1, 2, 3, 4].map((step) => ({ adapter: 'test', step })),
    );
    db.close();
  });

  it('undoes a step that fails, with the steps before it kept, and says which failed', () => {
    const db = new Database(':memory:');
    migrate(db, ':memory:', { adapter: 'test', migrations: steps(1) });
    const failing: Migration = { step: 2, name: 'a broken step', sql: 'CREATE TABLE half (n INTEGER); SELECT * FROM no_such_table;' };
    expect(() => migrate(db, ':memory:', { adapter: 'test', migrations: [...steps(1), failing] })).toThrow(/no such table: no_such_table/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").all()).toEqual([]);
    expect(db.prepare('SELECT step FROM schema_migrations').pluck().all()).toEqual([1]);
    db.close();
  });

  it('refuses a file a newer version of the code has migrated further, and a list misnumbered', () => {
    const db = new Database(':memory:');
    migrate(db, 'suitors.db', { adapter: 'test', migrations: steps(3) });
    expect(() => migrate(db, 'suitors.db', { adapter: 'test', migrations: steps(2) })).toThrow(
      'suitors.db has test schema step 3; this code knows steps 1 to 2 (upgrade the service to open it)',
    );
    expect(() => migrate(db, 'suitors.db', { adapter: 'test', migrations: [steps(2)[1]] })).toThrow(
      'the test migrations must be numbered 1, 2, 3 ... in order; step 1 is numbered 2',
    );
    db.close();
  });

  it('keeps user_version at the event store last step, so code from before the migrations refuses a newer file', async () => {
    const path = join(directory, 'newer.db');
    await openSqliteEventStore(path).close();
    const db = new Database(path);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.pragma('user_version = 3');
    db.close();
    expect(() => openSqliteEventStore(path)).toThrow(/has event store schema version 3; this code reads versions up to 2/);
  });
});
