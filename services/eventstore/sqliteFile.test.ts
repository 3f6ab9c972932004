/**
 * A damaged SQLite file is refused at start-up, and every storage error
 * names the file (issue 13, item 7).
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteSeatTokens } from '../tokens/sqliteSeatTokens.js';
import { openSqliteEventStore } from './sqliteEventStore.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function aFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'suitors-db-'));
  folders.push(folder);
  return join(folder, 'suitors.db');
}

/** A file with tables enough to span many pages, closed (its WAL folded into the file). */
async function filledFile(): Promise<string> {
  const path = aFile();
  const store = openSqliteEventStore(path);
  for (let table = 0; table < 50; table++) {
    const events = Array.from({ length: 20 }, (_, i) => ({
      type: 'card.played',
      at: new Date().toISOString(),
      data: { seat: i % 4, card: `${i}-${table}`, padding: 'x'.repeat(200) },
    }));
    await store.append(`t-${table}`, events, 0, { game: 'sevenSuitors', phase: 'trickPlay' });
  }
  await store.close();
  return path;
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const file = openSync(path, 'r+');
  try {
    writeSync(file, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(file);
  }
}

describe('the SQLite file', () => {
  it('with damaged pages is refused when the store opens, with a message naming the file', async () => {
    const path = await filledFile();
    const size = statSync(path).size;
    // Pages in the middle of the file, past the header and the schema: the tables' b-tree pages.
    overwrite(path, Math.floor(size / 2 / 4096) * 4096, Buffer.alloc(3 * 4096, 0x5a));
    expect(() => openSqliteEventStore(path)).toThrow(
      new RegExp(
        `^SQLite database ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(PRAGMA quick_check: .+\\); the service will not start on it`,
      ),
    );
  });

  it('that is not a database at all is refused, naming the file, by the store and by the seat tokens', () => {
    const path = aFile();
    const file = openSync(path, 'w');
    writeSync(file, Buffer.alloc(8192, 0x41));
    closeSync(file);
    expect(() => openSqliteEventStore(path)).toThrow(`SQLite database ${path}: file is not a database`);
    expect(() => openSqliteSeatTokens(path)).toThrow(`SQLite database ${path}: file is not a database`);
  });

  it('that is sound opens, and its storage errors name it', async () => {
    const path = await filledFile();
    const store = openSqliteEventStore(path);
    try {
      expect(await store.version('t-1')).toBe(20);
      // Another connection holds the write lock past the store's wait: the append fails, naming the file.
      const locked = openSqliteEventStore(path, { busyTimeoutMs: 10 });
      const Database = (await import('better-sqlite3')).default;
      const holder = new Database(path);
      holder.exec('BEGIN IMMEDIATE');
      try {
        await expect(locked.append('t-new', [{ type: 'table.created', at: new Date().toISOString(), data: {} }], 0)).rejects.toThrow(
          `SQLite database ${path}: database is locked`,
        );
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
        await locked.close();
      }
    } finally {
      await store.close();
    }
  });
});
