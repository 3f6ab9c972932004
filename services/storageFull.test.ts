import { describe, expect, it } from 'vitest';
import { isStorageFull, StorageFullNotices } from './storageFull.js';

function notices() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  let now = 0;
  const record = (level: string) => (fields: object, message: string) =>
    lines.push({ level, fields: fields as Record<string, unknown>, message });
  const full = new StorageFullNotices({ error: record('error'), info: record('info') }, () => now);
  return { full, lines, at: (ms: number) => (now = ms) };
}

describe('a full storage', () => {
  it('is told by SQLITE_FULL or ENOSPC anywhere in the chain of causes', () => {
    expect(isStorageFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(isStorageFull(new Error('append failed', { cause: Object.assign(new Error('no space'), { code: 'ENOSPC' }) }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isStorageFull('SQLITE_FULL')).toBe(false);
  });

  it('is logged once a minute at most, with the writes refused since, and once when writes succeed again', () => {
    const { full, lines, at } = notices();
    for (let write = 0; write < 500; write++) full.refusedWrite('POST /api/tables');
    at(59_999);
    full.refusedWrite('a bot move');
    expect(lines).toHaveLength(1);
    at(60_000);
    full.refusedWrite('a bot move');
    expect(lines.map(({ level, fields }) => [level, fields.refusedSinceLastLine])).toEqual([
      ['error', 1],
      ['error', 501],
    ]);
    expect(full).toMatchObject({ full: true, refused: 502 });
    full.wrote();
    full.wrote();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ level: 'info', message: "the service's storage has room again: writes succeed" });
    expect(full.full).toBe(false);
    // Full again a moment later is news again.
    at(60_001);
    full.refusedWrite('a snapshot');
    expect(lines).toHaveLength(4);
  });
});
