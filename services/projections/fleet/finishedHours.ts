/**
 * The finished games, by the hour they ended in: for a time range of
 * finished games (GET /api/fleet?from=&to=), the transitions they took and
 * how long they stayed in each state, over their whole runs.
 *
 * Each table keeps the tally of its own run while it goes on (TableRun);
 * when its game ends the tally is added to its group's bucket for the UTC
 * hour of the event that ended it, and dropped from the table. A range is
 * then a sum of at most FINISHED_HOURS_KEPT buckets, whatever the number of
 * games in it. Each group keeps FINISHED_HOURS_KEPT hours up to its newest
 * one: the fold prunes by the events' own times, so it stays pure.
 */
import { mergeDwell, recordDwell, type DwellHistogram } from './dwellTimes.js';

/** Hours of finished games kept, and the longest range asked for: 31 days. */
export const FINISHED_HOURS_KEPT = 31 * 24;

const HOUR_MS = 3_600_000;

/** What one table has done so far, or what the games that ended in one hour did. */
export interface TableRun {
  /** `<source> <target> <event>` → times taken. */
  readonly transitions: Record<string, number>;
  /** State → how long the table (the tables) stayed in it each time it left. */
  readonly dwell: Record<string, DwellHistogram>;
}

export interface FinishedHour extends TableRun {
  /** Games that ended in the hour. */
  tables: number;
}

export function emptyRun(): TableRun {
  return { transitions: {}, dwell: {} };
}

export function countTaken(run: TableRun, key: string): void {
  run.transitions[key] = (run.transitions[key] ?? 0) + 1;
}

export function countStay(run: TableRun, state: string, ms: number): void {
  run.dwell[state] ??= {};
  recordDwell(run.dwell[state], ms);
}

/** The hour an ISO time falls in, as its bucket's key: "2026-12-01T13". */
function hourOf(at: string): string {
  return new Date(Math.floor(Date.parse(at) / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13);
}

/** An hour (ms) as the API writes one: 2026-12-01T13:00:00Z. */
export function hourText(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function hourStart(hour: string): number {
  return Date.parse(`${hour}:00:00Z`);
}

/**
 * A game that ended at `at` after `run`: added to its hour, unless that is older than the hours kept. Tables are
 * folded one after another, not in time order, so a game may end before others already counted: what is kept is
 * the span up to the newest hour, whatever the order.
 */
export function recordFinished(hours: Record<string, FinishedHour>, run: TableRun, at: string): void {
  const hour = hourOf(at);
  if (hours[hour] === undefined) {
    const newest = Math.max(hourStart(hour), ...Object.keys(hours).map(hourStart));
    const oldestKept = newest - (FINISHED_HOURS_KEPT - 1) * HOUR_MS;
    if (hourStart(hour) < oldestKept) return;
    for (const kept of Object.keys(hours)) if (hourStart(kept) < oldestKept) delete hours[kept];
    hours[hour] = { tables: 0, transitions: {}, dwell: {} };
  }
  hours[hour].tables++;
  addRun(hours[hour], run);
}

function addRun(into: TableRun, run: TableRun): void {
  for (const [key, count] of Object.entries(run.transitions)) into.transitions[key] = (into.transitions[key] ?? 0) + count;
  for (const [state, histogram] of Object.entries(run.dwell)) {
    into.dwell[state] ??= {};
    mergeDwell(into.dwell[state], histogram);
  }
}

/** The games that ended in the hours from `from` (included) to `to` (excluded), both ms on the hour. */
export function finishedBetween(hours: Record<string, FinishedHour>, from: number, to: number): FinishedHour {
  const sum: FinishedHour = { tables: 0, transitions: {}, dwell: {} };
  for (const [hour, bucket] of Object.entries(hours)) {
    const start = hourStart(hour);
    if (start < from || start >= to) continue;
    sum.tables += bucket.tables;
    addRun(sum, bucket);
  }
  return sum;
}

/**
 * The first hour a range may start at (ms): every group keeps its games of the FINISHED_HOURS_KEPT hours up to the
 * newest hour any game ended in. Null when no game has ended.
 */
export function oldestHourKept(groups: readonly Record<string, FinishedHour>[]): number | null {
  const hours = groups.flatMap((hoursOfGroup) => Object.keys(hoursOfGroup).map(hourStart));
  return hours.length === 0 ? null : Math.max(...hours) - (FINISHED_HOURS_KEPT - 1) * HOUR_MS;
}
