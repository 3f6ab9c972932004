import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { waitFor } from '../../drivers/polling.js';
import { manualTimers } from '../../test/kit/manualTimers.js';
import { inPhase, newTable, playUntil } from '../../test/kit/table.js';
import { TableRefusal } from '../host/errors.js';
import { clockedActions, createTurnClock, turnDeadline } from './turnClock.js';

/** A Traitor of Love table in passing: seats 0 and 3 are people, the rest bots. */
function passingTable(): TableSnapshot {
  const table = newTable('traitorOfLove', { bots: [1, 2, 4, 5] });
  playUntil(table, createRng('clock'), inPhase('passing'));
  return table.getSnapshot();
}

/** An ISO time `ms` from the clock's now. */
const fromNow = (timers: { now(): number }, ms: number) => new Date(timers.now() + ms).toISOString();

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
    const timers = manualTimers();
    const clock = createTurnClock({
      snapshot: async () => ({ version: 12, snapshot }),
      timeOut: async (_, version, move) => {
        calls.push([version, move]);
        return { version: version + 2 };
      },
      timers,
    });
    clock.tableChanged('t-1', 12, fromNow(timers, -1000));
    expect(clock.running).toBe(1);
    timers.advance(0);
    await waitFor(() => !clock.isRunning('t-1'), 'the timeouts');
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
      timers,
    });
    late.tableChanged('t-1', 12, fromNow(timers, 0));
    timers.advance(0);
    await waitFor(() => !late.isRunning('t-1'), 'the refused timeout');
    expect(refused).toEqual([12]);
    await late.close();
  });

  it('does nothing when the table moved on before the deadline, and a new change resets the timer', async () => {
    const calls: number[] = [];
    const timers = manualTimers();
    const clock = createTurnClock({
      snapshot: async () => ({ version: 13, snapshot }),
      timeOut: async (_, version) => {
        calls.push(version);
        return { version };
      },
      timers,
    });
    clock.tableChanged('t-1', 12, fromNow(timers, 10));
    clock.tableChanged('t-1', 13, null);
    expect(clock.running).toBe(0);
    clock.tableChanged('t-2', 12, fromNow(timers, 0));
    timers.advance(30);
    await waitFor(() => !clock.isRunning('t-2'), 'the look at the table that moved on');
    expect(calls).toEqual([]);
    await clock.close();
  });

  it("is never early: a seat has its whole time, and a timer that fires before the host's clock reaches the deadline waits on", async () => {
    const calls: number[] = [];
    const timers = manualTimers();
    let hostLagsMs = 0;
    const clock = createTurnClock({
      snapshot: async () => ({ version: 12, snapshot }),
      timeOut: async (_, version) => {
        calls.push(version);
        return { version: version + 1 };
      },
      now: () => timers.now() - hostLagsMs,
      timers,
    });
    clock.tableChanged('t-1', 12, fromNow(timers, 30_000));
    timers.advance(29_999);
    expect(clock.isRunning('t-1')).toBe(true);
    // The host's clock runs 5 ms behind the timers': at the timers' deadline the timeout is 5 ms off still.
    hostLagsMs = 5;
    timers.advance(1);
    expect(clock.running).toBe(1);
    expect(calls).toEqual([]);
    timers.advance(5);
    await waitFor(() => !clock.isRunning('t-1'), 'the timeouts');
    expect(calls).toEqual([12, 13]);
    await clock.close();
  });
});
