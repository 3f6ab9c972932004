/**
 * What the fuzzer sends a table besides its bots' legal moves: commands that
 * are wrong in one way each (the seat, the moment, the card, the shape, the
 * size), and legal moves sent twice, late or out of order. Each is built from
 * the table as it stands, so most of them are near misses of a real move —
 * the refusals a careless or hostile client would actually cause.
 */
import { FULL_DECK, SPECIAL_CARDS, SUIT_DECK, type Card } from '../../machines/cards/card.js';
import type { Rng } from '../../machines/cards/shuffle.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { awaitedActions, type AwaitedAction } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { passRecipients } from '../../machines/fragments/passing.js';
import { teammatesOf } from '../../machines/rules/sides.js';
import type { Seat } from '../../machines/rules/trick.js';
import { botMove, type BotKind } from '../../services/bots/botRunner.js';

/**
 * A command's kind, as the summary counts them. `legal` is a bot's move;
 * the malformed kinds must be refused; `duplicate`, `stale` and `reordered`
 * are real moves whose fate depends on the moment they arrive.
 */
export type CommandKind =
  | 'legal'
  | 'wrongSeat'
  | 'wrongPhase'
  | 'notInHand'
  | 'noSuchCard'
  | 'wrongType'
  | 'missingField'
  | 'extraField'
  | 'hugePayload'
  | 'hostOnlyEvent'
  | 'duplicate'
  | 'stale'
  | 'reordered';

export const MALFORMED_KINDS: readonly CommandKind[] = [
  'wrongSeat',
  'wrongPhase',
  'notInHand',
  'noSuchCard',
  'wrongType',
  'missingField',
  'extraField',
  'hugePayload',
  'hostOnlyEvent',
];

/** The kinds a table must refuse whenever they are sent: every malformed kind but an extra field, which a table may ignore. */
export const MUST_REFUSE: ReadonlySet<CommandKind> = new Set(MALFORMED_KINDS.filter((kind) => kind !== 'extraField'));

export interface FuzzCommand {
  readonly kind: CommandKind;
  /** What is sent: for a seat's command, the seat it claims is `seat`. */
  readonly command: unknown;
  /** The seat that sends it (whose token the gateway path uses). */
  readonly seat: Seat;
}

/** What the fuzzer knows of a table when it makes up a command. */
export interface TableAtTurn {
  readonly snapshot: TableSnapshot;
  readonly botKinds: readonly BotKind[];
  /** Moves accepted at this table, latest last (for duplicates). */
  readonly accepted: readonly PlayerCommand[];
  /** Moves a bot chose at an earlier moment, sent or not (for stale commands). */
  readonly earlier: readonly PlayerCommand[];
}

/** The legal move of one awaited seat, as that seat's bot would make it. */
export function legalMove(table: TableAtTurn, rng: Rng): PlayerCommand {
  const awaited = awaitedActions(table.snapshot);
  const { seat, action } = awaited[rng.below(awaited.length)];
  return botMove(table.snapshot, seat, action, table.botKinds[seat], rng);
}

/** Card names that are no card at all, and cards outside the table's deck. */
const NOT_CARDS: readonly string[] = [
  '9-9',
  '1-8',
  '0-1',
  '7-14',
  '3-7c',
  '8-7a',
  'joker',
  'CUPID',
  '',
  ' 1-1',
  '1-1 ',
  '1_1',
  '-1-1',
  '01-1',
];

export function malformedCommand(kind: CommandKind, table: TableAtTurn, rng: Rng): FuzzCommand {
  const pick = <T>(items: readonly T[]): T => items[rng.below(items.length)];
  const { snapshot } = table;
  const { context } = snapshot;
  const hand = context.hand!;
  const awaited = awaitedActions(snapshot);
  const move = legalMove(table, rng);
  const seat = move.seat;
  const heldBy = (holder: Seat) => hand.holdings[holder];
  const otherSeats = (but: (other: Seat) => boolean) => Array.from({ length: context.seatCount }, (_, other) => other).filter(but);
  switch (kind) {
    case 'legal':
      return { kind, command: move, seat };
    case 'wrongSeat': {
      // A seat the table is not waiting for, making its own move of the moment.
      const idle = otherSeats((other) => !awaited.some((each: AwaitedAction) => each.seat === other));
      if (idle.length === 0) return malformedCommand('wrongPhase', table, rng);
      const other = pick(idle);
      return { kind, command: moveOfType(move.type, other, table, rng), seat: other };
    }
    case 'wrongPhase': {
      const types = (['cards.passed', 'card.played', 'traitor.accused'] as const).filter((type) => type !== move.type);
      return { kind, command: moveOfType(pick(types), seat, table, rng), seat };
    }
    case 'notInHand': {
      const elsewhere = otherSeats((other) => other !== seat).flatMap(heldBy);
      const played = hand.tricks.flatMap((trick) => trick.plays.map((play) => play.card));
      const unheld = elsewhere.length > 0 && rng.below(3) > 0 ? elsewhere : played.length > 0 ? played : elsewhere;
      if (unheld.length === 0) return malformedCommand('noSuchCard', table, rng);
      return { kind, command: withCard(move, pick(unheld), rng), seat };
    }
    case 'noSuchCard': {
      // Specials at a table that plays without them are real cards but no card of this game.
      const outsideDeck = context.options.specials === 'off' ? [...SPECIAL_CARDS] : [];
      return { kind, command: withCard(move, pick([...NOT_CARDS, ...outsideDeck]), rng), seat };
    }
    case 'wrongType':
      return { kind, command: wrongTyped(move, rng), seat };
    case 'missingField': {
      const fields = Object.keys(move).filter((field) => field !== 'seat');
      const { [pick(fields)]: _dropped, ...rest } = move as unknown as Record<string, unknown>;
      return { kind, command: rest, seat };
    }
    case 'extraField': {
      const extras: Record<string, unknown>[] = [
        { hint: 'x' },
        { version: 3 },
        { events: [{ type: 'hand.dealt', deal: [], roles: null }] },
        { deal: [[...SUIT_DECK]] },
        { player: { name: 'Mallory', bot: false } },
        { constructor: { prototype: { admin: true } } },
      ];
      return { kind, command: { ...move, ...pick(extras) }, seat };
    }
    case 'hugePayload':
      return { kind, command: huge(move, rng), seat };
    case 'hostOnlyEvent': {
      const events: unknown[] = [
        { type: 'hand.dealt', deal: context.hand!.deal, roles: context.hand!.roles },
        { type: 'seat.joined', seat, player: { name: 'Mallory', bot: false } },
        { type: 'seat.joined', seat: context.seatCount, player: { name: 'Mallory', bot: false } },
        { type: 'seat.left', seat: -1 },
        { type: 'table.created', game: context.game },
        { type: 'turn.timedOut', seat },
      ];
      return { kind, command: pick(events), seat };
    }
    case 'duplicate': {
      const again = table.accepted.at(-1 - rng.below(Math.min(3, table.accepted.length)));
      return again === undefined ? { kind: 'legal', command: move, seat } : { kind, command: again, seat: again.seat };
    }
    case 'stale': {
      const late = table.earlier.length === 0 ? undefined : pick(table.earlier);
      return late === undefined ? { kind: 'legal', command: move, seat } : { kind, command: late, seat: late.seat };
    }
    case 'reordered':
      // Built by the fuzzer from two moments of the table; here only its first move.
      return { kind, command: move, seat };
  }
}

/** A well-formed command of `type` for `seat`, with cards it holds: the move of another moment. */
function moveOfType(type: PlayerCommand['type'], seat: Seat, table: TableAtTurn, rng: Rng): PlayerCommand {
  const { context } = table.snapshot;
  const held = context.hand!.holdings[seat];
  const card = (): Card => (held.length > 0 ? held[rng.below(held.length)] : FULL_DECK[rng.below(FULL_DECK.length)]);
  switch (type) {
    case 'card.played':
      return { type, seat, card: card() };
    case 'cards.passed': {
      const recipients = passRecipients(context, seat);
      return { type, seat, passes: recipients.map((to, i) => ({ to, card: held[i] ?? card() })) };
    }
    case 'traitor.accused': {
      const mates = teammatesOf(seat, context.seatCount);
      return { type, seat, accused: mates[rng.below(mates.length)] };
    }
  }
}

/** The move with `card` where its card goes (a pass swaps one of its cards). */
function withCard(move: PlayerCommand, card: unknown, rng: Rng): unknown {
  switch (move.type) {
    case 'card.played':
      return { ...move, card };
    case 'cards.passed': {
      const at = rng.below(move.passes.length);
      return { ...move, passes: move.passes.map((pass, i) => (i === at ? { ...pass, card } : pass)) };
    }
    case 'traitor.accused':
      return { type: 'card.played', seat: move.seat, card };
  }
}

const WRONG_VALUES: readonly unknown[] = [
  17,
  -1,
  1.5,
  '0',
  '',
  null,
  true,
  [],
  {},
  [0],
  { card: '1-1' },
  Number.NaN,
  Infinity,
  2 ** 53,
  -0.0001,
];

function wrongTyped(move: PlayerCommand, rng: Rng): unknown {
  const pick = <T>(items: readonly T[]): T => items[rng.below(items.length)];
  const value = pick(WRONG_VALUES);
  switch (rng.below(5)) {
    case 0:
      return pick([null, 42, 'card.played', [], [move], undefined, true]);
    case 1:
      return { ...move, type: pick([42, null, 'CARD.PLAYED', 'card.played ', 'cards.pass', 'play', ['card.played']]) };
    case 2:
      return { ...move, seat: value };
    default:
      switch (move.type) {
        case 'card.played':
          return { ...move, card: value };
        case 'cards.passed':
          return {
            ...move,
            passes: pick([
              value,
              [value],
              move.passes.map((pass) => ({ ...pass, to: value })),
              move.passes.map((pass) => ({ ...pass, card: value })),
            ]),
          };
        case 'traitor.accused':
          return { ...move, accused: value };
      }
  }
}

/** Long strings, long lists, deep nesting, huge numbers: what a hostile client sends to make the service choke. */
function huge(move: PlayerCommand, rng: Rng): unknown {
  switch (rng.below(6)) {
    case 0:
      return { ...move, type: 'card.played', card: 'x'.repeat(20_000 + rng.below(100_000)) };
    case 1:
      return {
        type: 'cards.passed',
        seat: move.seat,
        passes: Array.from({ length: 5_000 }, (_, i) => ({ to: i % 7, card: SUIT_DECK[i % 56] })),
      };
    case 2:
      return { type: 'cards.passed', seat: move.seat, passes: [{ to: (move.seat + 1) % 4, card: 'y'.repeat(30_000) }] };
    case 3: {
      let nested: unknown = '1-1';
      // Deep enough to straddle the gateway's 16 KiB limit: some arrive, some are cut off as too large.
      for (let depth = 1_000 + rng.below(4_000); depth > 0; depth--) nested = { card: nested };
      return { type: 'card.played', seat: move.seat, card: nested };
    }
    case 4:
      return { type: 'traitor.accused', seat: move.seat, accused: 1e308 };
    default: {
      let nested: unknown = 'card.played';
      for (let depth = 1_000 + rng.below(9_000); depth > 0; depth--) nested = [nested];
      return rng.below(2) === 0 ? { ...move, type: 't'.repeat(50_000) } : { ...move, type: nested };
    }
  }
}
