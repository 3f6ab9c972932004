import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import { parseOptions } from '../../machines/table/options.js';
import { offer, startTable, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { TableRefusal } from '../host/errors.js';
import { awaitedBots, createBotRunner } from './botRunner.js';

function passingTable(bots: readonly number[]): TableSnapshot {
  const parsed = parseOptions('sevenSuitors');
  if (!parsed.ok) throw new Error('options');
  const table = startTable({ game: 'sevenSuitors', options: parsed.options });
  for (let seat = 0; seat < 4; seat++) offer(table, { type: 'seat.joined', seat, player: { name: `P${seat}`, bot: bots.includes(seat) } });
  offer(table, shuffleDeal(table.getSnapshot().context, createRng('runner')));
  return table.getSnapshot();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the bot runner', () => {
  it('moves only for bot seats, one move per look, and looks again after each change', async () => {
    const snapshot = passingTable([1, 3]);
    expect(awaitedBots(snapshot).map(({ seat }) => seat)).toEqual([1, 3]);
    const moves: PlayerCommand[] = [];
    const runner = createBotRunner({
      snapshot: async () => ({ version: 9, snapshot }),
      submit: async (_, move) => {
        moves.push(move);
      },
    });
    runner.tableChanged('t-1', snapshot, () => 'heuristic');
    await settle();
    expect(moves.map((move) => [move.type, move.seat])).toEqual([['cards.passed', 1]]);
    runner.tableChanged('t-2', passingTable([]), () => 'heuristic');
    await settle();
    expect(moves).toHaveLength(1);
    await runner.close();
  });

  it('falls back to the random bot when the table refuses a heuristic move, so a game never stalls', async () => {
    const snapshot = passingTable([2]);
    const tried: PlayerCommand[] = [];
    const errors: unknown[] = [];
    const runner = createBotRunner({
      snapshot: async () => ({ version: 9, snapshot }),
      submit: async (_, move) => {
        tried.push(move);
        if (tried.length === 1) throw new TableRefusal('illegal', 'pretend the heuristic bot erred');
      },
      onError: (error) => errors.push(error),
    });
    runner.tableChanged('t-1', snapshot, () => 'heuristic');
    await settle();
    expect(tried).toHaveLength(2);
    expect(tried.every((move) => move.seat === 2 && move.type === 'cards.passed')).toBe(true);
    expect(errors).toHaveLength(1);
    await runner.close();
  });
});
