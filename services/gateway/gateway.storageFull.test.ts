/**
 * A full disk is an answer, not a crash (issue 26, item 4). The store is a
 * real SQLite file whose writing connection may not grow it (the
 * SUITORS_DB_MAX_MB cap, SQLite's max_page_count), so SQLite itself fails
 * the write with SQLITE_FULL, as on a full disk: every write is 507 with a
 * message that says so and changes nothing, the log says it once, the
 * metrics show it, nothing acknowledged is lost, and once space is freed in
 * the file writes succeed again.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalStorage } from '../storage/storage.js';
import { StorageFullNotices } from '../storageFull.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { liftedRateLimits } from './limits.js';

const service = servicesClosedAfterEach();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A SQLite file holding `ballastKiB` of other data, which the test frees to make room. */
function fileWithBallast(ballastKiB: number): string {
  const directory = mkdtempSync(join(tmpdir(), 'suitors-full-'));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, 'suitors.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE ballast (filler BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO ballast (filler) VALUES (randomblob(1024))');
  for (let row = 0; row < ballastKiB; row++) insert.run();
  db.close();
  return path;
}

function keptLog() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('a full storage', () => {
  it('answers 507 "storage is full; nothing was written", logs it once, shows it in the metrics, loses nothing, and recovers once space is freed', async () => {
    const path = fileWithBallast(256);
    const { logger, lines } = keptLog();
    const storageFull = new StorageFullNotices(logger);
    // A cap of 1 byte holds the file at the size it has: every page a write needs beyond it is refused.
    const storage = openLocalStorage({ kind: 'sqlite', path, maxBytes: 1, onCommit: () => storageFull.wrote() });
    cleanups.push(() => storage.close());
    const { store } = storage;
    const started = service({
      store,
      logger,
      storageFull,
      limits: { ...liftedRateLimits(), seatingTablesPerClient: 100_000, seatingTablesPerNetwork: 100_000, seatingTablesInAll: 100_000 },
    });
    const { app } = started;
    const create = () => app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors' } });

    // Tables fill the pages the file has; then a write needs one more.
    const made: { tableId: string; version: number }[] = [];
    let refused = await create();
    for (let attempt = 0; refused.statusCode === 201 && attempt < 5_000; attempt++) {
      made.push(refused.json());
      refused = await create();
    }
    expect(refused.statusCode, refused.body).toBe(507);
    expect(refused.json()).toEqual({
      error: 'storageFull',
      message: "the service's storage is full; nothing was written; try again later",
    });
    expect(refused.headers['retry-after']).toBe('60');
    expect(made.length).toBeGreaterThan(0);

    // A seat's event is smaller than a new table's, so it may still find room in a page the table's did not: seats are
    // taken at the tables made before until one is refused the same way; that table is as it was.
    const join = (tableId: string) => app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ada' } });
    let seatsTaken = 0;
    let first = made[0];
    let before = await store.read(first.tableId);
    let joined = await join(first.tableId);
    while (joined.statusCode === 201 && seatsTaken + 1 < made.length) {
      made[seatsTaken] = { tableId: first.tableId, version: joined.json().version };
      first = made[++seatsTaken];
      before = await store.read(first.tableId);
      joined = await join(first.tableId);
    }
    expect(joined.statusCode, joined.body).toBe(507);
    expect(joined.json().error).toBe('storageFull');
    for (let again = 0; again < 20; again++) expect((await create()).statusCode).toBe(507);
    expect(await store.read(first.tableId)).toEqual(before);
    expect((await started.host.snapshot(first.tableId)).snapshot.context.occupants[0]).toBeNull();

    // One line for 22 refusals, not 22 (one more if seats found room between them: the storage had room again); and
    // the metrics say so.
    const fullLines = lines.filter((line) => line.msg.includes('storage is full'));
    expect(fullLines).toHaveLength(seatsTaken > 0 ? 2 : 1);
    expect(fullLines[0]).toMatchObject({ level: 50, refusedSinceLastLine: 1 });
    expect(lines.filter((line) => line.level >= 50 && !line.msg.includes('storage is full'))).toEqual([]);
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^suitors_storage_full 1$/m);
    expect(metrics).toMatch(/^suitors_storage_full_refusals_total 22$/m);

    // Nothing acknowledged is lost: every table answered 201 is in the file at the version it was answered with.
    const listed = new Map((await store.listTables()).map((table) => [table.tableId, table.version]));
    for (const { tableId, version } of made) expect(listed.get(tableId), tableId).toBe(version);
    expect(listed.size).toBe(made.length);

    // Space returns (the operator frees some): writes succeed again, and the log and the metrics say so.
    const other = new Database(path);
    other.exec('DELETE FROM ballast');
    other.close();
    const again = await create();
    expect(again.statusCode, again.body).toBe(201);
    const seated = await app.inject({ method: 'POST', url: `/api/tables/${first.tableId}/seats/0`, payload: { name: 'Ada' } });
    expect(seated.statusCode, seated.body).toBe(201);
    // Once now, and once after the seats that still found room, if any did.
    expect(lines.filter((line) => line.msg.includes('has room again'))).toHaveLength(seatsTaken > 0 ? 2 : 1);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/^suitors_storage_full 0$/m);
  });
});
