/**
 * The storage root opens each kind with its event store and its seat
 * tokens together, and reads the kind from the settings (issue 29). The
 * nats kind runs against a real, secured nats-server (drivers/localNats.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { SettingError } from '../settingReaders.js';
import { storageSettingsFrom, type StorageChoice } from './fromEnvironment.js';
import { MissingStorage, openStorage, type Storage, type StorageSettings } from './storage.js';

const AT = '2026-12-01T22:00:00.000Z';
const directory = mkdtempSync(join(tmpdir(), 'suitors-storage-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Writes a table and a seat token through `storage`; what to look for after a reopen. */
async function writeSome(storage: Storage): Promise<{ token: string }> {
  await storage.store.append('t-1', [{ type: 'table.created', at: AT, data: { game: 'sevenSuitors' } }], 0);
  return { token: await storage.tokens.issue({ tableId: 't-1', seat: 2 }) };
}

async function expectKept(settings: StorageSettings, token: string): Promise<void> {
  const reopened = await openStorage(settings);
  try {
    expect(await reopened.store.version('t-1')).toBe(1);
    expect(await reopened.tokens.resolve(token)).toEqual({ tableId: 't-1', seat: 2 });
  } finally {
    await reopened.close();
  }
}

describe('openStorage', () => {
  it('memory: a store and tokens in this process, closed together', async () => {
    const storage = await openStorage({ kind: 'memory' });
    expect(storage).toMatchObject({ kind: 'memory', where: 'memory (nothing is kept)' });
    const { token } = await writeSome(storage);
    expect(await storage.tokens.resolve(token)).toEqual({ tableId: 't-1', seat: 2 });
    await storage.close();
    await storage.close();
    expect(await storage.tokens.resolve(token)).toBeNull();
  });

  it('sqlite: the event logs and the seat tokens in one file, kept across a reopen', async () => {
    const settings: StorageSettings = { kind: 'sqlite', path: join(directory, 'both.db') };
    const storage = await openStorage(settings);
    expect(storage).toMatchObject({ kind: 'sqlite', where: settings.path });
    const { token } = await writeSome(storage);
    await storage.close();
    await expect(storage.store.read('t-1')).rejects.toThrow(/is closed/);
    await expect(storage.tokens.resolve(token)).rejects.toThrow(/are closed/);
    await expectKept({ ...settings, ifMissing: 'refuse' }, token);
  });

  it('sqlite with ifMissing refuse: no file is made, and the refusal names the one missing', async () => {
    const path = join(directory, 'missing', 'none.db');
    const refusal = await openStorage({ kind: 'sqlite', path, ifMissing: 'refuse' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MissingStorage);
    expect((refusal as MissingStorage).message).toBe(`no event store at ${path}`);
    expect(existsSync(path)).toBe(false);
  });

  describe('nats', () => {
    let nats: LocalNats;
    beforeAll(async () => {
      nats = await startLocalNats(1);
    });
    afterAll(async () => {
      await nats?.stop();
    });

    const deployment = (streamName: string) => ({ ...nats.access('admin'), streamName, prefix: streamName.toLowerCase(), replicas: 1 });

    it('opens the stream and the bucket of one deployment on a connection of its own, and closes that connection', async () => {
      const settings: StorageSettings = { kind: 'nats', nats: deployment('STORAGE_ROOT'), role: 'admin' };
      const storage = await openStorage(settings);
      expect(storage).toMatchObject({ kind: 'nats', where: 'NATS JetStream stream STORAGE_ROOT' });
      const { token } = await writeSome(storage);
      await storage.close();
      await expectKept({ ...settings, createMissing: { eventStream: false, seatTokens: false } }, token);
    });

    it('on a shared connection, leaves it open; creating nothing, it refuses a deployment that is not there', async () => {
      const connection = await nats.connect('admin');
      const storage = await openStorage({ kind: 'nats', nats: deployment('STORAGE_SHARED'), role: 'admin', connection });
      await storage.close();
      expect(connection.isClosed()).toBe(false);
      await expect(
        openStorage({
          kind: 'nats',
          nats: deployment('STORAGE_NEVER_MADE'),
          role: 'admin',
          connection,
          createMissing: { eventStream: false, seatTokens: false },
          openTimeoutMs: 200,
        }),
      ).rejects.toThrow(/stream not found/);
      await connection.close();
    });
  });
});

describe('storageSettingsFrom', () => {
  const embedded: StorageChoice = { fallback: 'sqlite', refused: { nats: 'the embedded service owns its tables alone' } };

  it('is the fallback when SUITORS_STORAGE is unset or blank, and the kind it names otherwise', () => {
    expect(storageSettingsFrom(embedded, {})).toEqual({ kind: 'sqlite', path: join('data', 'suitors.db'), maxBytes: undefined });
    expect(storageSettingsFrom(embedded, { SUITORS_STORAGE: '', SUITORS_DB: '/srv/t.db', SUITORS_DB_MAX_MB: '2' })).toEqual({
      kind: 'sqlite',
      path: '/srv/t.db',
      maxBytes: 2 * 1024 * 1024,
    });
    expect(storageSettingsFrom({ ...embedded, databaseFile: 'cli.db' }, { SUITORS_DB: '/srv/t.db' })).toMatchObject({ path: 'cli.db' });
    expect(storageSettingsFrom(embedded, { SUITORS_STORAGE: 'memory' })).toEqual({ kind: 'memory' });
    expect(storageSettingsFrom({ fallback: 'nats', role: 'admin' }, { NATS_URL: 'nats://a:4222', NATS_STREAM: 'S' })).toMatchObject({
      kind: 'nats',
      role: 'admin',
      nats: { servers: ['nats://a:4222'], streamName: 'S', prefix: 'tables', replicas: 1 },
    });
  });

  it.each([
    [{ SUITORS_STORAGE: 'postgres' }, 'SUITORS_STORAGE must be one of sqlite, memory, nats, not "postgres"'],
    [{ SUITORS_STORAGE: 'nats' }, 'SUITORS_STORAGE=nats will not do here: the embedded service owns its tables alone'],
  ])('refuses %j, naming the variable: %s', (env, message) => {
    const refusal = (() => {
      try {
        storageSettingsFrom(embedded, env);
      } catch (error) {
        return error;
      }
      throw new Error('expected a refusal');
    })();
    expect(refusal).toBeInstanceOf(SettingError);
    expect(refusal).toMatchObject({ variable: 'SUITORS_STORAGE', message });
  });

  it('refuses nats without NATS_URL, saying what is missing', () => {
    expect(() => storageSettingsFrom({ fallback: 'sqlite' }, { SUITORS_STORAGE: 'nats' })).toThrow(
      'SUITORS_STORAGE=nats needs NATS_URL: the servers of the deployment to open',
    );
  });
});
