/**
 * The randomness of the service's own bots and turn clocks. A bot's choice
 * depends on its hidden hand, so a choice drawn from anything a watcher can
 * know (the table id, the version) would let them work back to the hand;
 * these draws come from the operating system's secure source instead.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Rng } from '../../machines/cards/shuffle.js';

export const secureRng: Rng = {
  next: () => randomBytes(4).readUInt32BE() / 2 ** 32,
  below: (bound) => randomInt(bound),
};
