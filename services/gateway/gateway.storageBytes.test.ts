/**
 * suitors_storage_bytes and suitors_tables_retired (issue 26): /metrics tells
 * the operator how much the SQLite store holds on disk, its write-ahead log
 * with it, as it grows, and how many finished games retention has retired.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { waitFor } from '../../drivers/polling.js';
import { retireFinishedGames } from '../host/retirement.js';
import { openLocalStorage } from '../storage/storage.js';
import { liftedRateLimits } from './limits.js';

const service = servicesClosedAfterEach();
const directory = mkdtempSync(join(tmpdir(), 'storage-bytes-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function onDisk(path: string): number {
  return [path, `${path}-wal`, `${path}-shm`].reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
}

describe('the storage size metric', () => {
  it('reports the SQLite file with its write-ahead log, and grows with the tables written', async () => {
    const path = join(directory, 'service.db');
    const storage = openLocalStorage({ kind: 'sqlite', path });
    try {
      const started = service({
        store: storage.store,
        tokens: storage.tokens,
        storageBytes: storage.bytes,
        limits: { ...liftedRateLimits(), seatingTablesPerClient: 100 },
      });
      const metric = async () => {
        const text = (await started.app.inject({ method: 'GET', url: '/metrics' })).body;
        const line = text.split('\n').find((row) => row.startsWith('suitors_storage_bytes '));
        expect(line, text).toBeDefined();
        return Number(line?.split(' ')[1]);
      };
      const before = await metric();
      expect(before).toBe(onDisk(path));
      expect(before).toBeGreaterThan(0);
      for (let table = 0; table < 20; table++) {
        const created = await started.app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors' } });
        expect(created.statusCode, created.body).toBe(201);
      }
      const after = await metric();
      expect(after).toBeGreaterThan(before);
      expect(after).toBe(onDisk(path));
      await started.close();
    } finally {
      await storage.close();
    }
  });

  it('counts the finished games retired from the SQLite store, by this service or by `suitors retire`', async () => {
    const storage = openLocalStorage({ kind: 'sqlite', path: join(directory, 'retired.db') });
    try {
      const started = service({ store: storage.store, tokens: storage.tokens, retiredTables: storage.retiredTables });
      const retired = async () => {
        const text = (await started.app.inject({ method: 'GET', url: '/metrics' })).body;
        return /^suitors_tables_retired (\d+)$/m.exec(text)?.[1];
      };
      expect(await retired()).toBe('0');
      const created = await started.app.inject({
        method: 'POST',
        url: '/api/tables',
        payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] },
      });
      const { tableId } = created.json();
      await waitFor(async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true, 'the bot game to end');
      // Another opening of the file, as the command's would be.
      const command = openLocalStorage({ kind: 'sqlite', path: join(directory, 'retired.db') });
      const run = await retireFinishedGames(command.store, { olderThanDays: 1, now: new Date(Date.now() + 2 * 24 * 60 * 60 * 1000) });
      await command.close();
      expect(run.retired).toBe(1);
      expect(await retired()).toBe('1');
      await started.close();
    } finally {
      await storage.close();
    }
  });

  it('is not reported for a store that holds nothing on this disk', async () => {
    const started = service();
    const text = (await started.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).not.toContain('suitors_storage_bytes');
    expect(text).not.toContain('suitors_tables_retired');
  });
});
