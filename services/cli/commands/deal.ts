import { SUIT_NAMES } from '../../../machines/cards/card.js';
import { commitmentOf, dealFromSeed, dealSeedOf, isHex256 } from '../../../machines/fairness/fairDeal.js';
import { rulesOf } from '../../../machines/games/rules/index.js';
import { optionalStringFlag, stringFlag, UsageError } from '../args.js';
import { gameAndOptions } from '../options.js';
import type { Command } from '../command.js';

/**
 * A player's own check of one deal (docs/fairness.md): the seed revealed
 * after a hand gives back the commitment shown before it and, with the
 * seats' contributions, every seat's cards, with nothing taken on trust
 * from the service.
 */
export const dealCommand: Command = {
  name: 'deal',
  flags: ['game', 'seed', 'commitment', 'contributions', 'specials', 'end', 'passing'],
  usage:
    'suitors deal --game sevenSuitors|antiCupid|traitorOfLove --seed HEX [--contributions HEX|-,HEX|-,...] [--commitment HEX] [--specials off|plain|powers] [--end ...] [--passing none|oneEach]',
  summary: "print the deal a revealed seed (and the seats' contributions) makes, and check the seed against the hand's commitment",
  async run(args) {
    const { game, options } = gameAndOptions(args);
    const seed = stringFlag(args, 'seed');
    if (!isHex256(seed)) throw new UsageError('--seed must be 64 lowercase hex characters, as the table shows it');
    const contributions = contributionsFlag(optionalStringFlag(args, 'contributions'), rulesOf(game).seats);
    const expected = optionalStringFlag(args, 'commitment');
    const commitment = commitmentOf(seed);
    const dealSeed = contributions === null ? seed : dealSeedOf(seed, contributions);
    const { deal, roles } = dealFromSeed({ game, options }, dealSeed);
    console.log(`commitment ${commitment}`);
    if (contributions !== null)
      console.log(`deal seed ${dealSeed} (the seed and the contributions of seats ${contributedSeats(contributions)})`);
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

/** `--contributions`: one entry per seat in seat order, a contribution's 64 hex characters or `-` for a seat that sent none. */
function contributionsFlag(value: string | undefined, seats: number): (string | null)[] | null {
  if (value === undefined) return null;
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.length !== seats) {
    throw new UsageError(
      `--contributions lists each of the ${seats} seats, comma-separated (- for a seat that sent none), not ${entries.length}`,
    );
  }
  return entries.map((entry, seat) => {
    if (entry === '-') return null;
    if (!isHex256(entry))
      throw new UsageError(`--contributions: seat ${seat}'s must be 64 lowercase hex characters or -, not ${JSON.stringify(entry)}`);
    return entry;
  });
}

function contributedSeats(contributions: readonly (string | null)[]): string {
  const seats = contributions.flatMap((contribution, seat) => (contribution === null ? [] : [seat]));
  return seats.length === 0 ? 'none: the seed alone' : seats.join(', ');
}
