/** `suitors repair` on the embedded service's SQLite file, as an operator runs it. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectory, suitors } from '../../../test/kit/cli.js';
import { createRng } from '../../../machines/cards/shuffle.js';
import { nextBotMove } from '../../../drivers/botTurns.js';
import { openLocalStorage } from '../../storage/storage.js';
import { foldLog } from '../../host/replay.js';
import { TableHost } from '../../host/tableHost.js';
import { TABLE_REPAIRED } from '../../host/tableLog.js';

const scratch = scratchDirectory('suitors-repair-test');

/** A table some moves in, in a new SQLite file, with an event the machine refuses appended behind its host's back. */
async function quarantinedTableIn(path: string): Promise<{ tableId: string; bad: number }> {
  const storage = openLocalStorage({ kind: 'sqlite', path: path });
  const { store } = storage;
  const host = new TableHost({ store });
  const players = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
  const { tableId } = await host.createTable({ game: 'sevenSuitors', players, seed: 'cli-repair' });
  const rng = createRng('cli-repair');
  for (let move = 0; move < 6; move++) await host.submit(tableId, nextBotMove((await host.snapshot(tableId)).snapshot, rng)!);
  await host.close();
  const version = await store.version(tableId);
  await store.append(tableId, [{ type: 'card.played', at: new Date().toISOString(), data: { seat: 9, card: '1-9' } }], version);
  await storage.close();
  return { tableId, bad: version + 1 };
}

describe('suitors repair', () => {
  it('voids the events a table’s machine refuses, says which, and refuses a table that needs no repair', async () => {
    const db = join(scratch, 'suitors.db');
    const { tableId, bad } = await quarantinedTableIn(db);
    // No record of a quarantined table: the refused event would be in it.
    const exported = await suitors('export', '--table', tableId, '--db', db);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(
      new RegExp(`^suitors export: table ${tableId} is quarantined: logged event ${bad} \\(card.played\\)`, 'm'),
    );

    const repaired = await suitors('repair', tableId, '--db', db);
    expect(repaired.stderr).toBe('');
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toBe(
      `table ${tableId} repaired: 1 event voided, now at version ${bad + 1}\n` +
        `  voided event ${bad} (card.played): seat must be a whole number from 0 to 3, not 9\n`,
    );
    const storage = openLocalStorage({ kind: 'sqlite', path: db });
    const { store } = storage;
    const log = await store.read(tableId);
    await storage.close();
    expect(log.map((event) => event.type).slice(-2)).toEqual(['card.played', TABLE_REPAIRED]);
    foldLog(tableId, log).actor.stop();

    const again = await suitors('repair', tableId, '--db', db);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^suitors repair: table ${tableId} needs no repair`));
    expect((await suitors('repair', '--db', db)).code).toBe(2);
    expect((await suitors('export', '--table', tableId, '--db', db)).code).toBe(0);
  });
});
