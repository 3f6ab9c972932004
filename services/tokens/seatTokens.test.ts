import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySeatTokens } from './memorySeatTokens.js';
import { openSqliteSeatTokens } from './sqliteSeatTokens.js';
import { hashToken, type SeatTokens } from './seatTokens.js';

const dir = mkdtempSync(join(tmpdir(), 'seat-tokens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['memory', () => createMemorySeatTokens()],
  ['sqlite', () => openSqliteSeatTokens(join(dir, `tokens-${Math.random()}.db`))],
] as const)('seat tokens (%s)', (_, open: () => SeatTokens) => {
  it('issues unguessable tokens bound to one table and seat, and revokes a seat', async () => {
    const tokens = open();
    const first = await tokens.issue({ tableId: 't-1', seat: 2 });
    const second = await tokens.issue({ tableId: 't-1', seat: 3 });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(await tokens.resolve(first)).toEqual({ tableId: 't-1', seat: 2 });
    expect(await tokens.resolve(second)).toEqual({ tableId: 't-1', seat: 3 });
    expect(await tokens.resolve(`${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await tokens.resolve('')).toBeNull();
    expect(await tokens.resolve('x'.repeat(10_000))).toBeNull();
    expect(await tokens.revokeSeat({ tableId: 't-1', seat: 2 })).toBe(1);
    expect(await tokens.resolve(first)).toBeNull();
    expect(await tokens.resolve(second)).toEqual({ tableId: 't-1', seat: 3 });
    await tokens.close();
  });
});

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
