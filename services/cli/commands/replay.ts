import { viewFor } from '../../../machines/view.js';
import { phaseOf } from '../../../machines/table/snapshot.js';
import { integerFlag, stringFlag } from '../args.js';
import { withHost } from '../store.js';
import type { Command } from '../command.js';

export const replayCommand: Command = {
  name: 'replay',
  flags: ['table', 'at', 'db'],
  usage: 'suitors replay --table ID [--at N] [--db FILE]',
  summary: 'rebuild a table from its log, at its end or right after event N; print its state and the public view',
  async run(args) {
    const tableId = stringFlag(args, 'table');
    const at = args.flags.has('at') ? integerFlag(args, 'at') : undefined;
    return withHost(args, async (host) => {
      const replayed = await host.replayAt(tableId, at);
      const total = (await host.events(tableId)).length;
      console.log(`table ${tableId} (${replayed.created.game}) at event ${replayed.version} of ${total}`);
      console.log(`state: ${JSON.stringify(replayed.snapshot.value)} (phase ${phaseOf(replayed.snapshot)})`);
      console.log(JSON.stringify(viewFor(replayed.snapshot, 'spectator'), null, 2));
      return 0;
    });
  },
};
