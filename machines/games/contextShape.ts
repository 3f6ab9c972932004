/**
 * The shape of a table's context, nested all the way down, as a value the
 * fingerprint can hash (fingerprint.ts). A persisted snapshot holds the
 * context as it was saved, so a field added, removed or retyped anywhere in
 * it (in a hand, a trick, a fairness proof) makes old snapshots unfit for
 * the new machine just as a top-level field does. The shape is written out
 * here, and `ShapeOf<TableContext>` makes tsc refuse it the moment it no
 * longer matches the type, so it cannot fall behind the context it
 * describes. Only `options` is read from each game's defaults, as its
 * fields differ by game.
 */
import type { TableContext } from '../table/context.js';

/** What a snapshot depends on of a value of type T: its JSON shape. */
export type ShapeOf<T> = undefined extends T
  ? { readonly optional: ShapeOf<Exclude<T, undefined>> }
  : null extends T
    ? { readonly nullable: ShapeOf<NonNullable<T>> }
    : [T] extends [string]
      ? 'string'
      : [T] extends [number]
        ? 'number'
        : [T] extends [boolean]
          ? 'boolean'
          : [T] extends [string | number]
            ? 'string|number'
            : T extends readonly (infer Item)[]
              ? { readonly items: ShapeOf<Item> }
              : { readonly [K in keyof T]-?: ShapeOf<T[K]> };

const seatList = { items: 'number' } as const;
const cards = { items: 'string' } as const;
const pass = { from: 'number', to: 'number', card: 'string' } as const;
const plays = { items: { seat: 'number', card: 'string' } } as const;
const completedTrick = { leader: 'number', plays, winner: 'number', capturedBy: { nullable: 'number' } } as const;
const fairness = {
  scheme: 'string',
  commitment: 'string',
  seed: 'string',
  contributions: { optional: { items: { nullable: 'string' } } },
} as const;
const accusations = { nullable: { items: { nullable: 'number' } } } as const;

export const CONTEXT_SHAPE = {
  game: 'string',
  seatCount: 'number',
  cardsPerSeat: 'number',
  occupants: { items: { nullable: { name: 'string', bot: 'boolean' } } },
  holders: { items: { nullable: 'string' } },
  hand: {
    nullable: {
      index: 'number',
      deal: { items: cards },
      roles: { nullable: seatList },
      fairness: { nullable: fairness },
      antiCupid: { nullable: 'number' },
      holdings: { items: cards },
      passChoices: { nullable: { items: { nullable: { items: pass } } } },
      passes: { items: pass },
      trump: { nullable: 'number' },
      trick: { nullable: { leader: 'number', plays } },
      tricks: { items: completedTrick },
      turn: { nullable: 'number' },
      accusations,
    },
  },
  handResults: {
    items: {
      trump: { nullable: 'number' },
      tricks: { items: { leader: 'number', winner: 'number', capturedBy: { nullable: 'number' } } },
      marriages: { items: { suit: 'number', by: 'string|number' } },
      handScores: seatList,
      marked: { nullable: { A: seatList, B: seatList } },
      marriageCount: { nullable: { A: 'number', B: 'number' } },
    },
  },
  revealedDeals: { items: { ...fairness, index: 'number' } },
  nextDeal: { nullable: { index: 'number', commitment: 'string' } },
  lastHand: {
    nullable: {
      index: 'number',
      trump: { nullable: 'number' },
      antiCupid: { nullable: 'number' },
      finalTrick: { nullable: completedTrick },
      traitor: { nullable: 'number' },
      accusations,
    },
  },
  scores: seatList,
  marked: { nullable: { A: seatList, B: seatList } },
  marriageCount: { nullable: { A: 'number', B: 'number' } },
  tieBreak: 'boolean',
  firstAntiCupid: { nullable: 'number' },
  outcome: { nullable: { finished: 'boolean', scores: seatList, winners: seatList } },
} as const satisfies Omit<ShapeOf<TableContext>, 'options'>;

/** The shape of a context with `options`, a game's options as its defaults spell them. */
export function contextShapeWith(options: object, shape: object = CONTEXT_SHAPE): object {
  return { ...shape, options: Object.fromEntries(Object.entries(options).map(([key, value]) => [key, typeof value])) };
}
