import { describe, expect, it } from 'vitest';
import { tableSetup } from '../table/setup.js';
import { initialContext } from '../table/initialContext.js';
import { seatEvents, seatingState } from '../fragments/seating.js';
import { dealingState } from '../fragments/dealing.js';
import { passingState } from '../fragments/passing.js';
import { trickPlayState } from '../fragments/trickPlay.js';
import { gameOverState, scoringState } from '../fragments/scoring.js';
import type { TableContext } from '../table/context.js';
import { DEFAULT_OPTIONS } from '../table/options.js';
import { CONTEXT_SHAPE, type ShapeOf } from './contextShape.js';
import { canonicalJson, fingerprintOf } from './fingerprint.js';
import { MACHINES, sevenSuitorsMachine } from './index.js';

/** Seven Suitors as its module builds it, with `change` applied to its states. */
function sevenSuitorsWith(change: (states: Record<string, unknown>) => Record<string, unknown>) {
  const states = {
    seating: seatingState,
    dealing: dealingState,
    passing: passingState,
    trickPlay: { ...trickPlayState, onDone: 'scoring' },
    scoring: scoringState,
    gameOver: gameOverState,
  };
  return tableSetup.createMachine({
    id: 'sevenSuitors',
    context: ({ input }) => initialContext(input),
    initial: 'seating',
    on: seatEvents,
    states: change(states) as typeof states,
  });
}

describe('a machine fingerprint', () => {
  it('is the same for the same definition, built twice, and differs between the games', () => {
    const rebuilt = sevenSuitorsWith((states) => states);
    expect(fingerprintOf(rebuilt, 'sevenSuitors')).toBe(fingerprintOf(sevenSuitorsMachine, 'sevenSuitors'));
    const all = Object.entries(MACHINES).map(([game, machine]) => fingerprintOf(machine, game as keyof typeof MACHINES));
    expect(new Set(all).size).toBe(Object.keys(MACHINES).length);
    for (const fingerprint of all) expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when a state is renamed or a transition changes, not when a description does', () => {
    const original = fingerprintOf(sevenSuitorsMachine, 'sevenSuitors');
    const described = sevenSuitorsWith((states) => ({ ...states, dealing: { ...dealingState, description: 'Shuffling.' } }));
    expect(fingerprintOf(described, 'sevenSuitors')).toBe(original);
    const renamed = sevenSuitorsWith(({ gameOver, ...states }) => ({
      ...states,
      scoring: { ...scoringState, always: [{ guard: 'gameIsOver', target: 'finished' }, { target: 'dealing' }] },
      finished: gameOver,
    }));
    expect(fingerprintOf(renamed, 'sevenSuitors')).not.toBe(original);
    const unguarded = sevenSuitorsWith((states) => ({
      ...states,
      dealing: { on: { 'hand.dealt': { actions: 'dealHand', target: 'passing' } } },
    }));
    expect(fingerprintOf(unguarded, 'sevenSuitors')).not.toBe(original);
  });

  it('changes when the context changes shape below its top level: a field of a hand, a trick or a proof', () => {
    const original = fingerprintOf(sevenSuitorsMachine, 'sevenSuitors');
    const { hand } = CONTEXT_SHAPE;
    const handWithField = { ...CONTEXT_SHAPE, hand: { nullable: { ...hand.nullable, leadSuit: { nullable: 'number' } } } };
    expect(fingerprintOf(sevenSuitorsMachine, 'sevenSuitors', handWithField)).not.toBe(original);
    const trickRetyped = {
      ...CONTEXT_SHAPE,
      hand: { nullable: { ...hand.nullable, trick: { nullable: { leader: 'string', plays: hand.nullable.trick.nullable.plays } } } },
    };
    expect(fingerprintOf(sevenSuitorsMachine, 'sevenSuitors', trickRetyped)).not.toBe(original);
    expect(fingerprintOf(sevenSuitorsMachine, 'sevenSuitors', { ...CONTEXT_SHAPE })).toBe(original);
  });

  it('covers the context the machines start with, and tsc refuses a shape that misses a nested field of TableContext', () => {
    for (const game of Object.keys(MACHINES) as (keyof typeof MACHINES)[]) {
      const context = initialContext({ game, options: DEFAULT_OPTIONS[game] as never });
      expect(Object.keys(context).sort()).toEqual([...Object.keys(CONTEXT_SHAPE), 'options'].sort());
    }
    const { turn: _turn, ...handWithoutTurn } = CONTEXT_SHAPE.hand.nullable;
    // @ts-expect-error: hand.turn is a field of TableContext, so a shape without it is not its shape.
    const missingTurn: Omit<ShapeOf<TableContext>, 'options'> = { ...CONTEXT_SHAPE, hand: { nullable: handWithoutTurn } };
    expect(missingTurn.hand).not.toHaveProperty('nullable.turn');
  });

  it('reads its definition as canonical JSON: keys sorted, arrays in order', () => {
    expect(canonicalJson({ b: [2, 1], a: { d: null, c: 'x' } })).toBe('{"a":{"c":"x","d":null},"b":[2,1]}');
  });
});
