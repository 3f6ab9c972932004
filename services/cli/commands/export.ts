import { writeFileSync } from 'node:fs';
import { optionalStringFlag, stringFlag } from '../args.js';
import { withHost } from '../store.js';
import { isTableRefusal } from '../../host/errors.js';
import type { Command } from '../command.js';

export const exportCommand: Command = {
  name: 'export',
  flags: ['table', 'out', 'db'],
  usage: 'suitors export --table ID [--out FILE] [--db FILE]',
  summary: 'write the game record of a table (docs/record-format.md) to FILE or standard output',
  async run(args) {
    const tableId = stringFlag(args, 'table');
    const out = optionalStringFlag(args, 'out');
    return withHost(args, async (host) => {
      // A quarantined table has no record until it is repaired: its log holds an event the machine refuses.
      // A retired one has no log, and keeps its record.
      await host.snapshot(tableId).catch((error: unknown) => {
        if (!isTableRefusal(error) || error.kind !== 'retired') throw error;
      });
      const text = `${JSON.stringify(await host.exportRecord(tableId), null, 2)}\n`;
      if (out === undefined) process.stdout.write(text);
      else {
        writeFileSync(out, text);
        console.log(`wrote the record of table ${tableId} to ${out}`);
      }
      return 0;
    });
  },
};
