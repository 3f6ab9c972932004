/**
 * A person at one seat of a table, played over the HTTP API as a client
 * plays it: each move chosen from the seat's own view when the seat is
 * awaited, each acknowledged move noted (what the table's log must then
 * hold), each refused one counted. For the tests that stop, restart or
 * upgrade the service under people's feet.
 */
import { expect } from 'vitest';
import type { TableView } from '../machines/view.js';
import { httpRequest } from '../drivers/httpClient.js';
import { commandFor } from '../drivers/players/moves.js';
import type { CommandBody } from '../services/gateway/schemas.js';
import type { EventStore } from '../services/eventstore/eventStore.js';

export interface AcknowledgedMove {
  readonly tableId: string;
  readonly seat: number;
  readonly type: string;
  /** The view's version the move was chosen at: its event comes after. */
  readonly sentAtVersion: number;
  /** The version the service acknowledged it at: the last event of the change it made. */
  readonly version: number;
  /** From sending it to its acknowledgement (ms). */
  readonly waitedMs: number;
}

export interface SeatPlay {
  readonly acknowledged: AcknowledgedMove[];
  /** Each refused move, as `<status> <body>`. */
  readonly refused: string[];
}

export interface Seat {
  readonly tableId: string;
  readonly seat: number;
  readonly token: string;
}

/** The seat's next move and the version it was chosen at; null while the seat is not awaited (or its view is not served just now). */
export async function nextMoveOf(base: string, { tableId, seat, token }: Seat): Promise<{ version: number; command: CommandBody } | null> {
  const answer = await httpRequest(base, 'GET', `/api/tables/${tableId}/view`, { headers: { authorization: `Bearer ${token}` } });
  if (answer.status !== 200) return null;
  const { version, view } = answer.body as { version: number; view: TableView };
  const action = view.awaiting.find((awaited) => awaited.seat === seat)?.action;
  const command = action === undefined ? null : commandFor(view, action);
  return command === null ? null : { version, command };
}

/** Sends `command` for the seat; notes it acknowledged or refused. False when the service did not answer at all. */
export async function sendMove(
  base: string,
  { tableId, seat, token }: Seat,
  command: CommandBody,
  version: number,
  play: SeatPlay,
): Promise<boolean> {
  let answer: Awaited<ReturnType<typeof httpRequest>>;
  const sent = performance.now();
  try {
    answer = await httpRequest(base, 'POST', `/api/tables/${tableId}/commands`, {
      body: command,
      headers: { authorization: `Bearer ${token}` },
    });
  } catch {
    return false;
  }
  if (answer.status === 200)
    play.acknowledged.push({
      tableId,
      seat,
      type: command.type,
      sentAtVersion: version,
      version: (answer.body as { version: number }).version,
      waitedMs: Math.round(performance.now() - sent),
    });
  else play.refused.push(`${answer.status} ${answer.text}`);
  return true;
}

/** Plays the seat, one move after another, until `until()` or the service stops answering. */
export async function playSeat(base: string, seat: Seat, play: SeatPlay, until: () => boolean): Promise<void> {
  while (!until()) {
    let next: Awaited<ReturnType<typeof nextMoveOf>>;
    try {
      next = await nextMoveOf(base, seat);
    } catch {
      return; // The service has stopped listening.
    }
    if (next === null) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    if (!(await sendMove(base, seat, next.command, next.version, play))) return;
  }
}

/** Every acknowledged move is in its table's log, once, between the version it was chosen at and the one it was acknowledged at. */
export async function expectAcknowledgedInLogs(store: EventStore, acknowledged: readonly AcknowledgedMove[]): Promise<void> {
  for (const move of acknowledged) {
    const log = await store.read(move.tableId);
    const made = log.filter(
      (event) =>
        event.seq > move.sentAtVersion &&
        event.seq <= move.version &&
        event.type === move.type &&
        (event.data as { seat?: number }).seat === move.seat,
    );
    expect(made, `${move.type} of seat ${move.seat} acknowledged at version ${move.version} of ${move.tableId}`).toHaveLength(1);
  }
}
