/**
 * A service process for the crash test: plays bot games at many tables on an
 * SQLite store and prints `ack <table> <version>` after each acknowledged
 * command, so a parent that kills it knows what was promised durable.
 * Started again, it resumes every unfinished table from its log.
 */
import { createRng } from '../../machines/cards/shuffle.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import { TableHost } from '../../services/host/tableHost.js';
import { playBotTurns } from '../../drivers/botTurns.js';
import { GAME_NAMES } from '../../machines/table/options.js';
import { GAMES } from '../../machines/table/options.js';

const [database, tableCountText, seed] = process.argv.slice(2);
const tableCount = Number(tableCountText);
const storage = openLocalStorage({ kind: 'sqlite', path: database });
const { store } = storage;
const host = new TableHost({ store, snapshotEvery: 25 });

const existing = await store.listTables();
for (let i = existing.length; i < tableCount; i++) {
  const game = GAME_NAMES[i % GAME_NAMES.length];
  const players = Array.from({ length: GAMES[game].seats }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
  const { tableId, version } = await host.createTable({ game, players, seed: `${seed}-${i}` });
  process.stdout.write(`ack ${tableId} ${version}\n`);
}
const tables = await store.listTables();
const rng = createRng(`${seed}-${process.pid}`);
await Promise.all(
  tables.map((table) =>
    playBotTurns(host, table.tableId, rng, (accepted) => process.stdout.write(`ack ${accepted.tableId} ${accepted.version}\n`)),
  ),
);
await host.close();
await storage.close();
process.stdout.write('done\n');
