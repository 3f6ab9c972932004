import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import { parseOptions } from '../../machines/table/options.js';
import { offer, startTable, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { TableRefusal } from '../host/errors.js';
import { clockedActions, createTurnClock, turnDeadline } from './turnClock.js';

/** A Traitor of Love table in passing: seats 0 and 3 are people, the rest bots. */
function passingTable(): TableSnapshot {
  const parsed = parseOptions('traitorOfLove');
  if (!parsed.ok) throw new Error('options');
  const table = startTable({ game: 'traitorOfLove', options: parsed.options });
  for (let seat = 0; seat < 6; seat++) {
    offer(table, { type: 'seat.joined', seat, player: { name: `P${seat}`, bot: seat !== 0 && seat !== 3 } });
  }
  offer(table, shuffleDeal(table.getSnapshot().context, createRng('clock')));
  return table.getSnapshot();
}

describe('the turn clock', () => {
  const snapshot = passingTable();

  it('runs for the seats people hold, from the last event', () => {
    expect(clockedActions(snapshot)).toEqual([
      { seat: 0, action: 'pass' },
      { seat: 3, action: 'pass' },
    ]);
    expect(turnDeadline(snapshot, 30, '2030-01-01T00:00:00.000Z')).toBe('2030-01-01T00:00:30.000Z');
    expect(turnDeadline(snapshot, null, '2030-01-01T00:00:00.000Z')).toBeNull();
  });

  it('times out every seat still awaited at the deadline, one append after another, and stops when a seat acted in time', async () => {
    const calls: [number, PlayerCommand][] = [];
    const clock = createTurnClock({
      snapshot: async () => ({ version: 12, snapshot }),
      timeOut: async (_, version, move) => {
        calls.push([version, move]);
        return { version: version + 2 };
      },
    });
    clock.tableChanged('t-1', 12, new Date(Date.now() - 1000).toISOString());
    expect(clock.running).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.map(([version, move]) => [version, move.type, move.seat])).toEqual([
      [12, 'cards.passed', 0],
      [14, 'cards.passed', 3],
    ]);
    await clock.close();

    const refused: number[] = [];
    const late = createTurnClock({
      snapshot: async () => ({ version: 12, snapshot }),
      timeOut: async (_, version) => {
        refused.push(version);
        throw new TableRefusal('notNow', 'the table moved on');
      },
      onError: (error) => expect.fail(String(error)),
    });
    late.tableChanged('t-1', 12, new Date().toISOString());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(refused).toEqual([12]);
    await late.close();
  });

  it('does nothing when the table moved on before the deadline, and a new change resets the timer', async () => {
    const calls: number[] = [];
    const clock = createTurnClock({
      snapshot: async () => ({ version: 13, snapshot }),
      timeOut: async (_, version) => {
        calls.push(version);
        return { version };
      },
    });
    clock.tableChanged('t-1', 12, new Date(Date.now() + 10).toISOString());
    clock.tableChanged('t-1', 13, null);
    expect(clock.running).toBe(0);
    clock.tableChanged('t-2', 12, new Date().toISOString());
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toEqual([]);
    await clock.close();
  });
});
