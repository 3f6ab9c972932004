/**
 * The fleet overlay: per game and rules version, how many live tables sit in
 * each state node, how often each transition was taken (by event type), and
 * how long tables stay in each state. State ids are the machine's own, as
 * the diagrams name them (services/diagram).
 *
 * Each live table's machine snapshot is kept in the state (XState's
 * persisted form), and each machine event is offered to the table's machine
 * restored from it: the fleet sees exactly the states the host's tables are
 * in, with no second reading of the rules. A finished table keeps only its
 * group. Each live table also keeps the tally of its own run, which its
 * group's hour takes when the game ends (finishedHours.ts): the counts for a
 * time range of finished games. What the state holds of a table (its hands) never leaves it:
 * fleetReport.ts reads only the counts.
 */
import type { TableEvent } from '../../../machines/table/events.js';
import { offer, resumeTable, startTable, type TableActor, type TableSnapshot } from '../../../machines/table/snapshot.js';
import { settingsOf } from '../../host/tableSettings.js';
import type { StoredEvent } from '../../eventstore/eventStore.js';
import { isMachineEvent, TABLE_CREATED, TABLE_REPAIRED, tableCreatedOf, toTableEvent } from '../../host/tableLog.js';
import type { Projection } from '../projection.js';
import type { DwellHistogram } from './dwellTimes.js';
import { countStay, countTaken, emptyRun, recordFinished, type FinishedHour, type TableRun } from './finishedHours.js';
import { activeStateIds } from '../../diagram/active.js';

interface FleetTable {
  /** The table's group: `<game>@<rules>`. */
  readonly group: string;
  /** The machine's persisted snapshot while the game goes on; null once it is over. */
  snapshot: unknown;
  /** The states the table is in, each with the time it entered it. */
  entered: Record<string, string>;
  /** The machine refused one of its events (the host quarantined it); until a repair. */
  quarantined: boolean;
  /** The transitions it took and its stays so far; emptied into its group's hour when its game ends. */
  run: TableRun;
  /** Its turn clock in seconds (the table's settings); null for none. */
  readonly turnSeconds: number | null;
}

export interface FleetGroup {
  readonly game: string;
  readonly rules: number;
  /** Tables whose game goes on. */
  live: number;
  finished: number;
  quarantined: number;
  /** Live tables in each state, ancestors included. */
  readonly states: Record<string, number>;
  /** `<source> <target> <event>` → times taken. */
  readonly transitions: Record<string, number>;
  /** State → how long tables stayed in it before they left. */
  readonly dwell: Record<string, DwellHistogram>;
  /** UTC hour ("2026-12-01T13") → the games of the group that ended in it. */
  readonly finishedHours: Record<string, FinishedHour>;
}

export interface FleetState {
  readonly tables: Record<string, FleetTable>;
  readonly groups: Record<string, FleetGroup>;
}

/**
 * The live actor each kept snapshot came from, so the next event is sent to
 * it rather than to an actor restored for that one event (restoring was
 * most of the fold's cost). A cache, not state: a snapshot read back from a
 * checkpoint is not in it and is restored, to the same machine state.
 */
const actorsOfSnapshots = new WeakMap<object, TableActor>();

function transitionKey(source: string, target: string, event: string): string {
  return `${source} ${target} ${event}`;
}

export const fleetOverlay: Projection<FleetState> = {
  // The name changes with the state's shape, so a checkpoint of another shape is never read: it is folded afresh.
  name: 'fleet-2',
  initial: () => ({ tables: {}, groups: {} }),
  apply(fleet, tableId, event) {
    if (event.type === TABLE_CREATED) return created(fleet, tableId, event);
    const table = fleet.tables[tableId];
    if (table === undefined) throw new Error(`table ${tableId} has a ${event.type} before its ${TABLE_CREATED}`);
    if (event.type === TABLE_REPAIRED) setQuarantined(fleet, table, false);
    else if (isMachineEvent(event) && table.snapshot !== null) stepped(fleet, table, event);
    return fleet;
  },
};

/** A table whose game goes on, as the operator's page reads it (services/gateway/operatorFleet.ts). */
export interface LiveFleetTable {
  readonly tableId: string;
  readonly game: string;
  readonly rules: number;
  /** The machine's state now: the server's own, hands and all; the caller says only what anyone may see. */
  readonly snapshot: TableSnapshot;
  readonly quarantined: boolean;
  readonly turnSeconds: number | null;
}

/** Every live table with its machine state, read from the live actor each snapshot came from (restored once if none). */
export function liveTablesOf(fleet: FleetState): LiveFleetTable[] {
  return Object.entries(fleet.tables).flatMap(([tableId, table]) => {
    if (table.snapshot === null) return [];
    const { game, rules } = fleet.groups[table.group];
    let actor = actorsOfSnapshots.get(table.snapshot as object);
    if (actor === undefined) {
      actor = resumeTable(table.snapshot, rules);
      actorsOfSnapshots.set(table.snapshot as object, actor);
    }
    return [{ tableId, game, rules, snapshot: actor.getSnapshot(), quarantined: table.quarantined, turnSeconds: table.turnSeconds }];
  });
}

function created(fleet: FleetState, tableId: string, event: StoredEvent): FleetState {
  const input = tableCreatedOf(event, tableId);
  const group = `${input.game}@${input.rules}`;
  fleet.groups[group] ??= {
    game: input.game,
    rules: input.rules,
    live: 0,
    finished: 0,
    quarantined: 0,
    states: {},
    transitions: {},
    dwell: {},
    finishedHours: {},
  };
  const actor = startTable(input);
  const table: FleetTable = {
    group,
    snapshot: null,
    entered: {},
    quarantined: false,
    run: emptyRun(),
    turnSeconds: settingsOf(input).turnSeconds,
  };
  fleet.tables[tableId] = table;
  fleet.groups[group].live++;
  moveTo(fleet, table, actor, event);
  return fleet;
}

function stepped(fleet: FleetState, table: FleetTable, event: StoredEvent): void {
  const group = fleet.groups[table.group];
  const actor = actorsOfSnapshots.get(table.snapshot as object) ?? resumeTable(table.snapshot, group.rules);
  actorsOfSnapshots.delete(table.snapshot as object);
  let command: TableEvent | null;
  try {
    command = toTableEvent(event);
  } catch (error) {
    // An event no release wrote: the host quarantines the table on it, as the fleet counts it.
    if (!(error instanceof RangeError)) throw error;
    command = null;
  }
  if (command === null || !offer(actor, command)) {
    actor.stop();
    setQuarantined(fleet, table, true);
    return;
  }
  moveTo(fleet, table, actor, event);
}

/** The table is where `actor` is now: the states left and entered are counted, and the transition and dwell times. */
function moveTo(fleet: FleetState, table: FleetTable, actor: TableActor, event: StoredEvent): void {
  const group = fleet.groups[table.group];
  const snapshot = actor.getSnapshot();
  const now = activeStateIds(snapshot);
  const before = Object.keys(table.entered);
  const left = before.filter((id) => !now.includes(id));
  const entered = now.filter((id) => !(id in table.entered));
  for (const id of left) {
    const stayed = Date.parse(event.at) - Date.parse(table.entered[id]);
    countStay(group, id, stayed);
    countStay(table.run, id, stayed);
    group.states[id]--;
    delete table.entered[id];
  }
  for (const id of entered) {
    table.entered[id] = event.at;
    group.states[id] = (group.states[id] ?? 0) + 1;
  }
  if (before.length > 0) {
    for (const key of transitionsTaken(before, now, left, entered, event.type)) {
      countTaken(group, key);
      countTaken(table.run, key);
    }
  }
  const over = snapshot.status === 'done';
  table.snapshot = over ? null : actor.getPersistedSnapshot();
  if (over) {
    actor.stop();
    finish(fleet, table, event.at);
  } else {
    actorsOfSnapshots.set(table.snapshot as object, actor);
  }
}

/**
 * The transitions a step took, as `<source> <target> <event>`: from the
 * outermost state left to the outermost state entered (as a diagram's edge
 * runs); one that stays in its states, from the innermost state to itself.
 */
function transitionsTaken(
  before: readonly string[],
  now: readonly string[],
  left: readonly string[],
  entered: readonly string[],
  eventType: string,
): string[] {
  const outermost = (ids: readonly string[]) => ids.filter((id) => !ids.some((other) => id.startsWith(`${other}.`)));
  const innermost = now.filter((id) => !now.some((other) => other.startsWith(`${id}.`)));
  const sources = left.length > 0 ? outermost(left) : innermost.filter((id) => before.includes(id));
  const targets = entered.length > 0 ? outermost(entered) : sources;
  return sources.flatMap((source) => targets.map((target) => transitionKey(source, target, eventType)));
}

function finish(fleet: FleetState, table: FleetTable, at: string): void {
  const group = fleet.groups[table.group];
  recordFinished(group.finishedHours, table.run, at);
  table.run = emptyRun();
  for (const id of Object.keys(table.entered)) group.states[id]--;
  table.entered = {};
  setQuarantined(fleet, table, false);
  group.live--;
  group.finished++;
}

function setQuarantined(fleet: FleetState, table: FleetTable, quarantined: boolean): void {
  if (table.quarantined === quarantined) return;
  table.quarantined = quarantined;
  fleet.groups[table.group].quarantined += quarantined ? 1 : -1;
}
