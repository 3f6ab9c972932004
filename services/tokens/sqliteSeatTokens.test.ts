import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeSeatTokensContract } from './seatTokens.contract.js';
import { hashToken } from './seatTokens.js';
import { openSqliteSeatTokens } from './sqliteSeatTokens.js';

const dir = mkdtempSync(join(tmpdir(), 'seat-tokens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeSeatTokensContract('sqlite', { open: async (place) => openSqliteSeatTokens(join(dir, `${place}.db`)), persists: true });

describe('seat tokens in SQLite', () => {
  it('survive a restart and are kept only as hashes', async () => {
    const path = join(dir, 'restart.db');
    const before = openSqliteSeatTokens(path);
    const token = await before.issue({ tableId: 't-9', seat: 0 });
    await before.close();
    const after = openSqliteSeatTokens(path);
    expect(await after.resolve(token)).toEqual({ tableId: 't-9', seat: 0 });
    await after.close();
    const file = readFileSync(path).toString('latin1') + readFileSync(`${path}-wal`, { flag: 'a+' }).toString('latin1');
    expect(file).not.toContain(token);
    expect(file).toContain(hashToken(token));
  });
});
