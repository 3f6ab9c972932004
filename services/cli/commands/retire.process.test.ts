/** `suitors retire` on the embedded service's SQLite file, as an operator runs it from cron. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectory, suitors } from '../../../test/kit/cli.js';
import { openLocalStorage } from '../../storage/storage.js';
import { TableHost } from '../../host/tableHost.js';
import { nextBotMove } from '../../../drivers/botTurns.js';
import { createRng } from '../../../machines/cards/shuffle.js';

const scratch = scratchDirectory('suitors-retire-test');

/** A one-hand game of bots played to its end long ago (its host's clock 30 days back), in a new SQLite file. */
async function oldFinishedGameIn(path: string): Promise<string> {
  const storage = openLocalStorage({ kind: 'sqlite', path });
  const monthAgo = Date.now() - 30 * 24 * 60 * 60 * 1000;
  const host = new TableHost({ store: storage.store, now: () => new Date(monthAgo) });
  const players = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
  const { tableId } = await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:1' }, players, seed: 'cli-retire' });
  const rng = createRng('cli-retire');
  for (;;) {
    const { snapshot } = await host.snapshot(tableId);
    if (snapshot.context.outcome?.finished === true) break;
    await host.submit(tableId, nextBotMove(snapshot, rng)!);
  }
  await host.close();
  await storage.close();
  return tableId;
}

describe('suitors retire', () => {
  it('lists with --dry-run, retires a game over for longer than the days given, and its record still exports', async () => {
    const db = join(scratch, 'suitors.db');
    const tableId = await oldFinishedGameIn(db);
    const before = await suitors('export', '--table', tableId, '--db', db);
    expect(before.code, before.stderr).toBe(0);

    const dry = await suitors('retire', '--older-than-days', '7', '--dry-run', '--db', db);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(`^would retire: table ${tableId}, over since .+\n1 finished game over for more than 7 days: 1 would be retired\n$`),
    );

    const retired = await suitors('retire', '--older-than-days', '7', '--db', db);
    expect(retired.code, retired.stderr).toBe(0);
    expect(retired.stdout).toMatch(
      new RegExp(`^retired: table ${tableId}, .+\n1 finished game over for more than 7 days: 1 retired, 0 kept\n$`),
    );
    const after = await suitors('export', '--table', tableId, '--db', db);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe(before.stdout);
    const replayed = await suitors('replay', '--table', tableId, '--db', db);
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain(`table ${tableId} was retired at`);
  });

  it('refuses a retention under one day', async () => {
    const zero = await suitors('retire', '--older-than-days', '0', '--db', join(scratch, 'none.db'));
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--older-than-days must be at least 1');
  });
});
