import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AT, describeEventStoreContract, played } from './eventStore.contract.js';
import { isVersionConflict, type EventStore, type StoredEvent } from './eventStore.js';
import { openSqliteEventStore, type GroupCommit, type SqliteEventStoreOptions } from './sqliteEventStore.js';

const directories: string[] = [];

function freshDatabasePath(): string {
  const directory = mkdtempSync(join(tmpdir(), 'eventstore-sqlite-'));
  directories.push(directory);
  return join(directory, 'events.db');
}

function removeDirectories(): void {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
}

afterAll(removeDirectories);

describeEventStoreContract('sqlite', async () => openSqliteEventStore(freshDatabasePath()), removeDirectories);

/** Opens a store on a fresh file, runs `body`, closes the store whatever happens. */
async function withStore(
  body: (store: EventStore, path: string) => Promise<void>,
  options?: SqliteEventStoreOptions,
  path = freshDatabasePath(),
): Promise<void> {
  const store = openSqliteEventStore(path, options);
  try {
    await body(store, path);
  } finally {
    await store.close();
  }
}

describe('sqlite event store', () => {
  it('keeps events, statuses and snapshots across close and reopen', async () => {
    const path = freshDatabasePath();
    await withStore(
      async (store) => {
        await store.append('t1', [played('a'), played('b')], 0, { game: 'antiCupid', phase: 'passing' });
        await store.append('t2', [played('c')], 0);
        await store.saveSnapshot('t1', { version: 2, snapshot: { phase: 'passing' } });
      },
      undefined,
      path,
    );

    await withStore(
      async (store) => {
        expect(await store.version('t1')).toBe(2);
        expect((await store.read('t1')).map((event) => event.seq)).toEqual([1, 2]);
        expect(await store.loadSnapshot('t1')).toEqual({ version: 2, snapshot: { phase: 'passing' } });
        expect(await store.listTables()).toEqual([
          { tableId: 't1', version: 2, lastEventAt: AT, status: { game: 'antiCupid', phase: 'passing' } },
          { tableId: 't2', version: 1, lastEventAt: AT, status: null },
        ]);
        expect(isVersionConflict(await store.append('t1', [played('x')], 0).catch((error: unknown) => error))).toBe(true);
        expect(await store.append('t1', [played('d')], 2)).toBe(3);
      },
      undefined,
      path,
    );
  });

  it('reads a long log a page a turn, so the event loop turns meanwhile; a retirement between pages reads as no log', async () => {
    const store = openSqliteEventStore(freshDatabasePath());
    const events = Array.from({ length: 4500 }, (_, index) => played(`${index}`));
    await store.append('long', events, 0);
    let turns = 0;
    let reading = true;
    const turn = () => {
      turns++;
      if (reading) setImmediate(turn);
    };
    setImmediate(turn);
    const log = await store.read('long');
    reading = false;
    expect(log.map((event) => event.seq)).toEqual(Array.from({ length: 4500 }, (_, index) => index + 1));
    expect(turns, 'turns of the loop during the read').toBeGreaterThanOrEqual(4);
    expect((await store.read('long', 4000)).map((event) => event.seq)[0]).toBe(4001);

    await store.close();

    // In memory the commit runs on this thread, a turn after it is asked for: between the read's second and third pages.
    const inMemory = openSqliteEventStore(':memory:');
    await inMemory.append('long', events, 0);
    const racing = inMemory.read('long');
    await inMemory.retire('long', { expectedVersion: 4500, record: {}, at: AT });
    expect(await racing).toEqual([]);
    await inMemory.close();
  });

  it("tells its listeners of a long append without parsing every event's data: only what a listener reads", async () => {
    await withStore(async (store) => {
      const heard: StoredEvent[] = [];
      store.subscribe((_, event) => heard.push(event));
      const events = Array.from({ length: 500 }, (_, index) => played(`1-${index}`));
      const parse = vi.spyOn(JSON, 'parse');
      try {
        await store.append('t-long', events, 0);
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
      expect(heard).toHaveLength(500);
      expect({ ...heard[499] }).toEqual({ seq: 500, type: 'card.played', at: AT, data: { seat: 0, card: '1-499' } });
    });
  });

  it('creates the parent directories of its file and puts the file in WAL mode', async () => {
    const path = join(freshDatabasePath(), '..', 'not', 'yet', 'there', 'events.db');
    await withStore(
      async (store) => {
        await store.append('t1', [played('a')], 0);
      },
      undefined,
      path,
    );
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.prepare('SELECT COUNT(*) FROM events').pluck().get()).toBe(1);
    } finally {
      raw.close();
    }
  });

  it('commits the appends requested in one turn in one transaction, each checked on its own', async () => {
    const commits: GroupCommit[] = [];
    await withStore(
      async (store) => {
        const tables = Array.from({ length: 100 }, (_, index) => `table-${index}`);
        const appends: Promise<number>[] = [];
        for (let version = 0; version < 10; version++) {
          for (const tableId of tables) appends.push(store.append(tableId, [played(`${version}`)], version));
        }
        const versions = await Promise.all(appends);

        expect(versions).toEqual(Array.from({ length: 1000 }, (_, index) => Math.floor(index / 100) + 1));
        expect(commits).toMatchObject([{ appended: 1000, events: 1000, refused: 0 }]);
        for (const tableId of tables) {
          const log = await store.read(tableId);
          expect(log.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
          expect(log.map((event) => (event.data as { card: string }).card)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
        }
      },
      { onCommit: (commit) => commits.push(commit) },
    );
  });

  it('refuses a conflicting append alone and commits the rest of its batch', async () => {
    const commits: GroupCommit[] = [];
    await withStore(
      async (store) => {
        await store.append('t1', [played('a')], 0);
        commits.length = 0;
        const outcomes = await Promise.allSettled([
          store.append('t2', [played('b')], 0),
          store.append('t1', [played('stale')], 0),
          store.append('t1', [played('c')], 1),
          store.saveSnapshot('t1', { version: 2, snapshot: 'after c' }),
          store.saveSnapshot('t2', { version: 5, snapshot: 'ahead' }),
        ]);
        expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected']);
        expect(commits).toMatchObject([{ appended: 2, snapshots: 1, refused: 2 }]);
        expect((await store.read('t1')).map((event) => (event.data as { card: string }).card)).toEqual(['a', 'c']);
        expect(await store.loadSnapshot('t1')).toEqual({ version: 2, snapshot: 'after c' });
      },
      { onCommit: (commit) => commits.push(commit) },
    );
  });

  it('turns a position taken by another writer into a VersionConflict for that append alone', async () => {
    await withStore(async (store, path) => {
      await store.append('t1', [played('a')], 0);
      // Another writer takes the very position this store is inserting: t1's seq 2 (a one-event append)
      // and t3's seq 2 (the second event of a two-event append, whose first must not stay either).
      const other = new Database(path);
      other.exec(`
        CREATE TRIGGER intruder BEFORE INSERT ON events
        WHEN NEW.seq = 2 AND NEW.table_id IN ('t1', 't3') AND NEW.type <> 'intruder'
        BEGIN INSERT INTO events (table_id, seq, type, at, data) VALUES (NEW.table_id, 2, 'intruder', 'now', 'null'); END;
      `);
      other.close();

      const outcomes = await Promise.allSettled([
        store.append('t1', [played('b')], 1),
        store.append('t2', [played('c')], 0),
        store.append('t3', [played('d'), played('e')], 0),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
      for (const [index, tableId, expectedVersion] of [
        [0, 't1', 1],
        [2, 't3', 0],
      ] as const) {
        const conflict = (outcomes[index] as PromiseRejectedResult).reason as unknown;
        expect(isVersionConflict(conflict)).toBe(true);
        expect(conflict).toMatchObject({ tableId, expectedVersion, actualVersion: null });
      }
      expect((await store.read('t1')).map((event) => event.type)).toEqual(['card.played']);
      expect(await store.read('t3')).toEqual([]);
      expect(await store.listTables()).toMatchObject([
        { tableId: 't1', version: 1 },
        { tableId: 't2', version: 1 },
      ]);
    });
  });

  it('commits appends still pending when it is closed, then refuses more', async () => {
    const path = freshDatabasePath();
    const store = openSqliteEventStore(path);
    const appending = store.append('t1', [played('a')], 0);
    await store.close();
    expect(await appending).toBe(1);
    await store.close();
    await expect(store.append('t1', [played('b')], 1)).rejects.toThrow(/closed/);
    await expect(store.read('t1')).rejects.toThrow(/closed/);

    await withStore(async (reopened) => expect(await reopened.version('t1')).toBe(1), undefined, path);
  });

  it('lets two processes race on one table: exactly one first append wins, and the log has no gap or duplicate', async () => {
    const path = freshDatabasePath();
    const target = 60;
    const writers = ['left', 'right'].map((name) => startRacingWriter(path, 'contested', name, target));
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.go();
    const results = await Promise.all(writers.map((writer) => writer.result));

    const firstOutcomes = results.map((result) => result.first);
    expect(firstOutcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(1);
    // The loser may have waited out several of the winner's commits for the write lock before it saw the table.
    const [lost] = firstOutcomes.filter((outcome) => outcome !== 'accepted') as { conflictAt: number | null }[];
    expect(lost.conflictAt).toBeGreaterThanOrEqual(1);
    expect(results.reduce((sum, result) => sum + result.accepted, 0)).toBe(target);

    await withStore(
      async (store) => {
        const log = await store.read('contested');
        expect(log.map((event) => event.seq)).toEqual(Array.from({ length: target }, (_, index) => index + 1));
        for (const event of log) expect((event.data as { expectedVersion: number }).expectedVersion).toBe(event.seq - 1);
        const written = new Map<string, number>();
        for (const event of log) {
          const { writer } = event.data as { writer: string };
          written.set(writer, (written.get(writer) ?? 0) + 1);
        }
        for (const result of results) expect(written.get(result.writer) ?? 0).toBe(result.accepted);
      },
      undefined,
      path,
    );
  });
});

interface RaceResult {
  readonly writer: string;
  readonly first: 'accepted' | { readonly conflictAt: number | null };
  readonly accepted: number;
  readonly conflicts: number;
}

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const racingWriterScript = fileURLToPath(new URL('./fixtures/racingWriter.ts', import.meta.url));

function startRacingWriter(path: string, tableId: string, writer: string, target: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', racingWriterScript, path, tableId, writer, String(target)], {
    cwd: repositoryRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${writer} exited with ${code}: ${stderr.trim()}`))));
  });
  const ready = new Promise<void>((resolve, reject) => {
    lines.once('line', (line) => (line === 'ready' ? resolve() : reject(new Error(`writer ${writer} said ${line}`))));
    exited.then(() => reject(new Error(`writer ${writer} exited before it was ready`)), reject);
  });
  const result = ready.then(
    () =>
      new Promise<RaceResult>((resolve, reject) => {
        lines.once('line', (line) => resolve(JSON.parse(line) as RaceResult));
        exited.then(() => reject(new Error(`writer ${writer} exited without a result`)), reject);
      }),
  );
  return {
    ready,
    result: Promise.all([result, exited]).then(([outcome]) => outcome),
    go: () => child.stdin.end('go\n'),
  };
}
