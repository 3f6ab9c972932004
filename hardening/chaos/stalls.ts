/**
 * Tables that stalled on the service's own moves, read from a log: after
 * each event, what the table awaited from the service itself — a bot's move
 * (due `botDelayMs` later) or a seat whose turn clock had run out (due at
 * the deadline) — and how long it took the next event to come. A table is
 * stuck where no event came for longer than the lease TTL (the longest a
 * dead owner's table waits for a new one) plus the bot delay: a bot move
 * more than the TTL late, or a timeout more than the TTL and the bot delay
 * late.
 */
import { awaitedActions } from '../../machines/table/refusal.js';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { applyLogEvents, foldLog } from '../../services/host/replay.js';
import { settingsOf } from '../../services/host/tableSettings.js';

export interface StallLimits {
  readonly botDelayMs: number;
  /** How late a bot's move may come after it was due (a timeout: the bot delay more). */
  readonly allowedLateMs: number;
}

export interface Stall {
  readonly seq: number;
  readonly awaited: 'bot' | 'clock';
  /** How long after the move was due the next event came (or the audit looked, for the log's last event). */
  readonly lateMs: number;
}

export interface StallReport {
  readonly tableId: string;
  /** Waits on the service past the allowance. */
  readonly stuck: readonly Stall[];
  /** The longest wait past due, stuck or not (ms): what the allowance is measured against. */
  readonly worstLateMs: number;
  /** Moves the service owed in this log (bot moves and timeouts awaited). */
  readonly owed: number;
}

/** Reads the log for stalls; `now` (ms) stands for the next event after the last one. */
export function stallsOf(tableId: string, log: readonly StoredEvent[], limits: StallLimits, now: number): StallReport {
  const { created, actor } = foldLog(tableId, log.slice(0, 1));
  const { turnSeconds } = settingsOf(created);
  const stuck: Stall[] = [];
  let worstLateMs = 0;
  let owed = 0;
  try {
    for (let index = 0; index < log.length; index++) {
      if (index > 0) applyLogEvents(tableId, actor, [log[index]]);
      const snapshot = actor.getSnapshot();
      const awaited = awaitedActions(snapshot);
      if (awaited.length === 0) continue;
      const { occupants } = snapshot.context;
      const at = Date.parse(log[index].at);
      const botAwaited = awaited.some(({ seat }) => occupants[seat]?.bot === true);
      const dueAt = botAwaited ? at + limits.botDelayMs : turnSeconds === null ? null : at + turnSeconds * 1000;
      if (dueAt === null) continue;
      owed++;
      const nextAt = index + 1 < log.length ? Date.parse(log[index + 1].at) : now;
      const lateMs = Math.max(0, nextAt - dueAt);
      worstLateMs = Math.max(worstLateMs, lateMs);
      const allowanceMs = botAwaited ? limits.allowedLateMs : limits.allowedLateMs + limits.botDelayMs;
      if (lateMs > allowanceMs) stuck.push({ seq: log[index].seq, awaited: botAwaited ? 'bot' : 'clock', lateMs });
    }
  } finally {
    actor.stop();
  }
  return { tableId, stuck, worstLateMs, owed };
}
