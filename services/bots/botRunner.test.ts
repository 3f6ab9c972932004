import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import type { Seat } from '../../machines/rules/trick.js';
import { waitFor } from '../../drivers/polling.js';
import { manualTimers } from '../../test/kit/manualTimers.js';
import { inPhase, newTable, playUntil } from '../../test/kit/table.js';
import { TableRefusal } from '../host/errors.js';
import { awaitedBots, createBotRunner } from './botRunner.js';

function passingTable(bots: readonly Seat[]): TableSnapshot {
  const table = newTable('sevenSuitors', { bots });
  playUntil(table, createRng('runner'), inPhase('passing'));
  return table.getSnapshot();
}

describe('the bot runner', () => {
  it('moves only for bot seats, one move per look, and looks again after each change', async () => {
    const snapshot = passingTable([1, 3]);
    expect(awaitedBots(snapshot).map(({ seat }) => seat)).toEqual([1, 3]);
    const moves: PlayerCommand[] = [];
    const timers = manualTimers();
    const runner = createBotRunner({
      snapshot: async () => ({ version: 9, snapshot }),
      submit: async (_, move) => {
        moves.push(move);
      },
      timers,
    });
    runner.tableChanged('t-1', snapshot, () => 'heuristic');
    timers.advance(0);
    await waitFor(() => !runner.isPlaying('t-1'), 'the bot move');
    expect(moves.map((move) => [move.type, move.seat])).toEqual([['cards.passed', 1]]);
    runner.tableChanged('t-2', passingTable([]), () => 'heuristic');
    expect(runner.isPlaying('t-2')).toBe(false);
    expect(timers.waiting).toBe(0);
    expect(moves).toHaveLength(1);
    await runner.close();
  });

  it('waits its delay before a move, and drops a move still waiting when it lets the table go', async () => {
    const snapshot = passingTable([1, 3]);
    const moves: PlayerCommand[] = [];
    const timers = manualTimers();
    const runner = createBotRunner({
      snapshot: async () => ({ version: 9, snapshot }),
      submit: async (_, move) => {
        moves.push(move);
      },
      delayMs: 1500,
      timers,
    });
    runner.tableChanged('t-1', snapshot, () => 'heuristic');
    timers.advance(1499);
    expect(runner.isPlaying('t-1')).toBe(true);
    timers.advance(1);
    await waitFor(() => !runner.isPlaying('t-1'), 'the bot move');
    expect(moves).toHaveLength(1);

    runner.tableChanged('t-2', snapshot, () => 'heuristic');
    runner.letGo('t-2');
    expect(runner.isPlaying('t-2')).toBe(false);
    expect(timers.waiting).toBe(0);
    timers.advance(1500);
    expect(moves).toHaveLength(1);
    await runner.close();
  });

  it('falls back to the random bot when the table refuses a heuristic move, so a game never stalls', async () => {
    const snapshot = passingTable([2]);
    const tried: PlayerCommand[] = [];
    const errors: unknown[] = [];
    const timers = manualTimers();
    const runner = createBotRunner({
      snapshot: async () => ({ version: 9, snapshot }),
      submit: async (_, move) => {
        tried.push(move);
        if (tried.length === 1) throw new TableRefusal('illegal', 'pretend the heuristic bot erred');
      },
      onError: (error) => errors.push(error),
      timers,
    });
    runner.tableChanged('t-1', snapshot, () => 'heuristic');
    timers.advance(0);
    await waitFor(() => !runner.isPlaying('t-1'), 'the bot move and its fallback');
    expect(tried).toHaveLength(2);
    expect(tried.every((move) => move.seat === 2 && move.type === 'cards.passed')).toBe(true);
    expect(errors).toHaveLength(1);
    await runner.close();
  });
});
