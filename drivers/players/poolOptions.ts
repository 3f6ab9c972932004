/**
 * What a pool of players is asked to do (PlayerPoolOptions) and what it
 * reports (AcknowledgedCommand): below the pool, its tables' slots and their
 * seats, which all read them.
 */
import type { GameName } from '../../machines/table/options.js';
import type { CommandBody } from '../../services/gateway/schemas.js';
import type { ViewsSent } from '../../services/gateway/socketProtocol.js';

/** A command the service acknowledged (`accepted`), as the client saw it: what the table's log must hold. */
export interface AcknowledgedCommand {
  readonly tableId: string;
  readonly seat: number;
  readonly command: CommandBody;
  /** The view version the command was sent on: its event comes after. */
  readonly sentAtVersion: number;
  /** The version of the `accepted` reply: the last event of the change the command made. */
  readonly version: number;
  /** When the command was sent and its reply came (performance.now()). */
  readonly sentAt: number;
  readonly acknowledgedAt: number;
}

export interface PlayerPoolOptions {
  readonly game: GameName;
  /** The rules options of every table (POST /api/tables `options`); the game's defaults without. */
  readonly tableOptions?: Readonly<Record<string, string>>;
  /** How many tables the run keeps in play (one loopback address each, up to `clientAddresses`). */
  readonly tables: number;
  /** Distinct client addresses (1 = 127.0.0.1 only). */
  readonly clientAddresses: number;
  /** Think time: a seat waits 0.5 to 1.5 times this before its move (0: moves as soon as it is awaited). */
  readonly thinkMs: number;
  /**
   * The port of the gateway (on 127.0.0.1) a table is set up on (no seat),
   * and each of its seats connects (and reconnects) to: seats of one table
   * may use different gateways.
   */
  gatewayFor(slot: { readonly index: number }, seat?: number): number;
  /** How the seats' sockets are sent views (docs/api.md, `views=`): 'changes' (the default, as the web client) or 'whole'. */
  readonly views?: ViewsSent;
  /** Sockets the gateway drops reconnect, the table's seats together; refusals are retried on a fresh view. */
  readonly reconnect?: boolean;
  /** Each acknowledged command, as its reply arrives. */
  readonly onAccepted?: (acknowledged: AcknowledgedCommand) => void;
  /** Each new table, once it is created. */
  readonly onTableCreated?: (tableId: string) => void;
  /**
   * Seats the service itself plays (the chaos run): `bots` are the table's
   * own bots; `absent` seats are taken by a person who never moves, so the
   * turn clock (`turnSeconds`) plays for them. The pool plays the rest.
   */
  readonly serverSide?: { readonly bots: readonly number[]; readonly absent: readonly number[]; readonly turnSeconds?: number };
}
