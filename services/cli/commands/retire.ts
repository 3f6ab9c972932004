import { integerFlag, UsageError } from '../args.js';
import { withHost } from '../store.js';
import type { Command } from '../command.js';
import { retireFinishedGames } from '../../host/retirement.js';

export const retireCommand: Command = {
  name: 'retire',
  flags: ['older-than-days', 'dry-run', 'db'],
  usage: 'suitors retire --older-than-days N [--dry-run] [--db FILE]',
  summary:
    'retire every game finished more than N days ago: keep its game record (still exported at its address) and delete its log and snapshots (docs/operations.md)',
  async run(args) {
    const olderThanDays = integerFlag(args, 'older-than-days');
    if (olderThanDays < 1) throw new UsageError('--older-than-days must be at least 1: a game just over may still be replayed and forked');
    const dryRun = args.flags.has('dry-run');
    if (args.positional.length > 0) throw new UsageError(`retire takes no table, only --older-than-days; got ${args.positional.join(' ')}`);
    return withHost(args, async (_host, store) => {
      const run = await retireFinishedGames(store, {
        olderThanDays,
        now: new Date(),
        dryRun,
        onTable: ({ tableId, lastEventAt, outcome, reason }) => {
          const what = outcome === 'retired' ? 'retired' : outcome === 'wouldRetire' ? 'would retire' : `kept (${reason})`;
          console.log(`${what}: table ${tableId}, over since ${lastEventAt}`);
        },
      });
      const done = dryRun ? `${run.found} would be retired` : `${run.retired} retired, ${run.kept} kept`;
      console.log(`${run.found} finished game${run.found === 1 ? '' : 's'} over for more than ${olderThanDays} days: ${done}`);
      return run.kept > 0 ? 1 : 0;
    });
  },
};
