/** Which store a CLI table command opens, and what it refuses to open (issue 29: through the storage root). */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseArgs, UsageError } from './args.js';
import { withHost } from './store.js';

const scratch = mkdtempSync(join(tmpdir(), 'suitors-cli-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** What `withHost` refused with, as the CLI would print it. */
async function refusalOf(args: string[], options?: Parameters<typeof withHost>[2]): Promise<string> {
  const error = await withHost(parseArgs(args), async () => 'opened', options).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('the CLI store', () => {
  it('refuses an SQLite file that is not there, making none, unless the command may create it', async () => {
    const path = join(scratch, 'typo.db');
    expect(await refusalOf(['--db', path])).toBe(`no event store at ${path}; start the service first, or name one with --db FILE`);
    expect(existsSync(path)).toBe(false);
    expect(await withHost(parseArgs(['--db', path]), async (_, store) => store.listTables(), { ifMissing: 'create' })).toEqual([]);
    expect(existsSync(path)).toBe(true);
    expect(await withHost(parseArgs(['--db', path]), async (_, store) => store.listTables())).toEqual([]);
  });

  it('refuses SUITORS_STORAGE=memory, and --db beside NATS_URL, saying why', async () => {
    vi.stubEnv('SUITORS_STORAGE', 'memory');
    expect(await refusalOf([])).toBe(
      'SUITORS_STORAGE=memory will not do here: a store in memory would be empty, and forgotten when the command ends; use sqlite or nats',
    );
    vi.stubEnv('SUITORS_STORAGE', '');
    vi.stubEnv('NATS_URL', 'nats://127.0.0.1:9');
    expect(await refusalOf(['--db', join(scratch, 'any.db')])).toBe('--db names an SQLite file, and NATS_URL is set: unset one of them');
  });
});
