import { SUIT_NAMES } from '../../../machines/cards/card.js';
import { commitmentOf, dealFromSeed, isHex256 } from '../../../machines/fairness/fairDeal.js';
import { optionalStringFlag, stringFlag, UsageError } from '../args.js';
import { gameAndOptions } from '../options.js';
import type { Command } from '../command.js';

/**
 * A player's own check of one deal (docs/fairness.md): the seed revealed
 * after a hand gives back the commitment shown before it and every seat's
 * cards, with nothing taken on trust from the service.
 */
export const dealCommand: Command = {
  name: 'deal',
  flags: ['game', 'seed', 'commitment', 'specials', 'end', 'passing'],
  usage:
    'suitors deal --game sevenSuitors|antiCupid|traitorOfLove --seed HEX [--commitment HEX] [--specials off|plain|powers] [--end ...] [--passing none|oneEach]',
  summary: "print the deal a revealed seed makes, and check the seed against the hand's commitment",
  async run(args) {
    const { game, options } = gameAndOptions(args);
    const seed = stringFlag(args, 'seed');
    if (!isHex256(seed)) throw new UsageError('--seed must be 64 lowercase hex characters, as the table shows it');
    const expected = optionalStringFlag(args, 'commitment');
    const commitment = commitmentOf(seed);
    const { deal, roles } = dealFromSeed({ game, options }, seed);
    console.log(`commitment ${commitment}`);
    deal.forEach((cards, seat) => {
      const role = roles === null ? '' : ` (tracking card ${SUIT_NAMES[roles[seat]]}${roles[seat] === 7 ? ': the Traitor' : ''})`;
      console.log(`seat ${seat}${role}: ${cards.join(' ')}`);
    });
    if (expected === undefined) return 0;
    if (expected.toLowerCase() === commitment) {
      console.log('the seed matches the commitment');
      return 0;
    }
    console.log(`the seed does NOT match the commitment ${expected}`);
    return 1;
  },
};
