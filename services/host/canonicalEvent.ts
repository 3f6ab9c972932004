import type { TableEvent } from '../../machines/table/events.js';

/**
 * Only the fields an event of its type has go into the log, so a command
 * padded with extra fields cannot smuggle anything into it.
 */
export function canonicalEvent(command: TableEvent): TableEvent {
  switch (command.type) {
    case 'seat.joined': {
      const player = { name: command.player.name, bot: command.player.bot };
      return command.holder === undefined
        ? { type: command.type, seat: command.seat, player }
        : { type: command.type, seat: command.seat, player, holder: command.holder };
    }
    case 'seat.left':
      return { type: command.type, seat: command.seat };
    case 'hand.dealt': {
      const { deal, roles, fairness, nextCommitment } = command;
      const next = nextCommitment === undefined ? {} : { nextCommitment };
      if (fairness === undefined) return { type: command.type, deal, roles, ...next };
      const { scheme, commitment, seed, contributions } = fairness;
      const proof = contributions === undefined ? { scheme, commitment, seed } : { scheme, commitment, seed, contributions };
      return { type: command.type, deal, roles, fairness: proof, ...next };
    }
    case 'cards.passed':
      return { type: command.type, seat: command.seat, passes: command.passes.map(({ to, card }) => ({ to, card })) };
    case 'card.played':
      return { type: command.type, seat: command.seat, card: command.card };
    case 'traitor.accused':
      return { type: command.type, seat: command.seat, accused: command.accused };
  }
}
