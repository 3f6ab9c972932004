import { UsageError } from '../args.js';
import { withHost } from '../store.js';
import type { Command } from '../command.js';

export const repairCommand: Command = {
  name: 'repair',
  flags: ['db'],
  usage: 'suitors repair TABLE [--db FILE]',
  summary:
    'repair a quarantined table: void every event of its log the machine refuses (they stay in the log) in one table.repaired event, so the table plays on',
  async run(args) {
    const [tableId, ...more] = args.positional;
    if (tableId === undefined) throw new UsageError('name the table to repair');
    if (more.length > 0) throw new UsageError(`repair takes one table, not ${args.positional.length}`);
    return withHost(args, async (host) => {
      const { voided, reasons, version } = await host.repair(tableId);
      console.log(`table ${tableId} repaired: ${voided.length} event${voided.length === 1 ? '' : 's'} voided, now at version ${version}`);
      for (const reason of reasons) console.log(`  voided ${reason}`);
      return 0;
    });
  },
};
