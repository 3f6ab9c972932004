/**
 * suitors_storage_bytes (issue 26): /metrics tells the operator how much the
 * SQLite store holds on disk, its write-ahead log with it, as it grows.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
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

  it('is not reported for a store that holds nothing on this disk', async () => {
    const started = service();
    const text = (await started.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).not.toContain('suitors_storage_bytes');
  });
});
