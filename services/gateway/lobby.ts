/**
 * The lobby: which tables a client is shown, and how many tables may wait
 * for players.
 *
 * - The lobby lists the tables seating players or in play, and finished
 *   games for `finishedInLobbySeconds` after their last event; every
 *   finished game stays in the recent games, newest first. Both are pages.
 * - A table still seating players with no person at it and no event for
 *   `seatingIdleSeconds` is closed: it leaves the lobby and no one may join
 *   it (seatingClosed); with a person at it, after `seatedIdleSeconds`
 *   (4 h by default: whoever waited there has gone). The rule is read from the log and the clock alone,
 *   so every gateway, before or after a restart, agrees on it.
 * - Tables seating players are capped per client (429), per network (an IPv4
 *   /24 or IPv6 /48: 429) and in all, so nobody can fill the service
 *   with tables nobody plays, nor with addresses taken from one range. The
 *   cap in all is shared max-min fairly between networks: when it is full, a
 *   creator whose network holds fewer waiting tables than another takes the
 *   place of that network's oldest table nobody waits at (tableToDisplace),
 *   so many networks of one abuser cannot keep people out; only a creator of
 *   a network holding the most is refused (503), sent to tables where people
 *   wait.
 * - Tables of bots alone in play are capped per client and in all too
 *   (botTableCap.ts), counted over the same listing.
 *
 * The store is listed at most once every LISTING_MS whoever asks; the
 * changes made through this gateway are laid over that listing, so they show
 * at once.
 */
import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableSummary } from '../eventstore/eventStore.js';
import { statusOf } from '../host/tableStatus.js';
import type { GatewayLimits } from './limits.js';
import { networkOf } from './clientIdentity.js';
import { BotTableCap } from './botTableCap.js';
import { Reservations } from './reservations.js';
import { TableMakers } from './tableMakers.js';
import { GatewayRefusal } from './refusals.js';
import type { TableChange } from './tableFeed.js';

/** How old a listing of the store may be. */
const LISTING_MS = 1_000;
/** Tables whose seats are looked at at once, when the listing cannot say whether a person sits at a table. */
const LOOKUPS_AT_ONCE = 4;
/** Tables with people waiting a full cap's refusal names. */
const PEOPLE_WAITING_SHOWN = 3;

interface LobbyTable {
  readonly tableId: string;
  readonly game: string;
  readonly phase: string;
  readonly openSeats: number[];
  readonly hand: number;
  readonly finished: boolean;
  readonly version: number;
  /** When the table's last event happened (ISO time): how fresh a table is, or when a game ended. */
  readonly lastEventAt: string;
  /** A quarantined table (phase `quarantined`): the event its machine refuses, and why; it waits for an operator's repair. */
  readonly quarantine?: { readonly seq: number; readonly reason: string };
}

export interface LobbyPage {
  readonly tables: LobbyTable[];
  readonly page: number;
  readonly pages: number;
  readonly total: number;
}

/** How long a table still seating players may go without an event: longer with a person waiting at it. */
export function seatingIdleLimit(hasPerson: boolean, limits: Pick<GatewayLimits, 'seatingIdleSeconds' | 'seatedIdleSeconds'>): number {
  return hasPerson ? limits.seatedIdleSeconds : limits.seatingIdleSeconds;
}

/** Whether a table still seating players is closed: nothing has happened there for its limit (seatingIdleLimit). */
export function seatingClosed(
  table: { phase: string; hasPerson: boolean; lastEventAt: string },
  now: number,
  limits: Pick<GatewayLimits, 'seatingIdleSeconds' | 'seatedIdleSeconds'>,
): boolean {
  return table.phase === 'seating' && now - Date.parse(table.lastEventAt) >= seatingIdleLimit(table.hasPerson, limits) * 1000;
}

export function hasPerson(snapshot: TableSnapshot): boolean {
  return snapshot.context.occupants.some((occupant) => occupant !== null && !occupant.bot);
}

interface Seating {
  readonly version: number;
  readonly hasPerson: boolean;
  readonly lastEventAt: string;
  /** lastEventAt in ms: the shares count a network's tables on every request, and parsing the time each time cost a second in 20 of a flood. */
  readonly lastEventMs: number;
}

export interface LobbyOptions {
  readonly list: () => Promise<TableSummary[]>;
  /** The table as it stands, to see who sits at a table the listing says nothing more of. */
  readonly current: (tableId: string) => Promise<TableChange>;
  /** Whether a player of the table is there now (a seat's socket open here); every table, without it. */
  readonly playerThere?: (tableId: string) => boolean;
  readonly limits: GatewayLimits;
  readonly now?: () => number;
}

export class Lobby {
  private readonly limits: GatewayLimits;
  private readonly now: () => number;
  private listing: { readonly at: number; readonly tables: readonly TableSummary[] } = { at: -Infinity, tables: [] };
  private listingUnderWay: Promise<readonly TableSummary[]> | null = null;
  /** Tables changed through this gateway, as of their last change: newer than the listing until it catches up. */
  private readonly changed = new Map<string, TableSummary>();
  /** Tables seating players, as last seen: through this gateway's changes, or looked up. */
  private readonly seating = new Map<string, Seating>();
  /** Closed tables: a closed table never opens again (no one may join it), so this is kept. */
  private readonly closed = new Set<string>();
  /** Closed tables that were closed to make room for another network's (tableToDisplace). */
  private readonly displaced = new Set<string>();
  /** Who created each table still seating players here, by client and by network. */
  private readonly makers = new TableMakers();
  /** Creations under way, per client and in all, counted against the caps until they are done. */
  private readonly reserved = new Reservations();
  /** The same, by the creator's network. */
  private readonly reservedByNetwork = new Reservations();
  /** Tables of bots alone in play made through this gateway, capped per client and in all. */
  private readonly botTables: BotTableCap;
  private readonly lookups = new Set<string>();
  private readonly lookupQueue: string[] = [];
  private lookingUp = 0;

  constructor(private readonly options: LobbyOptions) {
    this.limits = options.limits;
    this.now = options.now ?? Date.now;
    this.botTables = new BotTableCap(options.limits, () => this.tables());
  }

  /** A change made through this gateway: the table's seats and time as of the change. */
  tableChanged(change: TableChange): void {
    const { tableId, snapshot, version, facts } = change;
    // Only a listing that may not hold the change needs it laid over: a listing taken later reads it from the store.
    // So what is kept stays bounded by the changes of about a second, whether or not anyone reads the lobby.
    const listingMayLackIt = this.listingUnderWay !== null || this.now() - this.listing.at < LISTING_MS;
    const known = this.changed.get(tableId);
    if (listingMayLackIt && (known === undefined || known.version <= version)) {
      this.changed.set(tableId, { tableId, version, lastEventAt: facts.lastEventAt, status: statusOf(snapshot) });
    }
    if (phaseOf(snapshot) === 'seating') {
      const lastEventAt = facts.lastEventAt;
      this.seating.set(tableId, { version, hasPerson: hasPerson(snapshot), lastEventAt, lastEventMs: Date.parse(lastEventAt) });
    } else {
      this.seating.delete(tableId);
      this.makers.delete(tableId);
    }
  }

  /** A page of the lobby: tables seating players (not closed) or in play, and recently finished games. */
  async page(page: number, limit: number): Promise<LobbyPage> {
    const now = this.now();
    const tables = (await this.tables()).filter((table) => {
      if (table.status?.finished === true) return now - Date.parse(table.lastEventAt) < this.limits.finishedInLobbySeconds * 1000;
      return !this.isClosed(table, now);
    });
    return paged(tables, page, limit);
  }

  /** A page of the finished games, the last finished first. */
  async recent(page: number, limit: number): Promise<LobbyPage> {
    const finished = (await this.tables()).filter((table) => table.status?.finished === true);
    finished.sort((a, b) => (a.lastEventAt < b.lastEventAt ? 1 : a.lastEventAt > b.lastEventAt ? -1 : a.tableId < b.tableId ? -1 : 1));
    return paged(finished, page, limit);
  }

  /**
   * Makes room for a new table seating players by `client`, or refuses: 429
   * past the client's cap, 503 past the cap in all. The returned function
   * is called with the new table's id once it is made, or with nothing if
   * it was not.
   */
  async reserveSeatingTable(client: string): Promise<(tableId?: string) => void> {
    const network = networkOf(client);
    // Most of a flood is refused here, at the cost of the client's and its network's own tables, before the listing.
    this.checkShares(client, network);
    const open = this.openTables(await this.tables(), this.now());
    // Again, with nothing awaited before the reservation: others may have reserved meanwhile.
    const ofNetwork = this.checkShares(client, network);
    const inAll = this.limits.seatingTablesInAll;
    const openHere = (tableId: string) => this.openHere(tableId, this.now());
    const displaced = open.size + this.reserved.inAll >= inAll ? this.tableToDisplace(ofNetwork, openHere) : undefined;
    if (typeof displaced === 'string') this.displace(displaced);
    if (displaced === null) {
      const withPeople = this.tablesPeopleWaitAt(open);
      const where =
        withPeople.length === 0
          ? 'no table here has a person waiting at it'
          : `people are waiting for players at ${withPeople.map((tableId) => `table ${tableId}`).join(', ')}: take a seat there`;
      throw new GatewayRefusal(
        'unavailable',
        `the service has ${inAll} tables waiting for players, the most it keeps; ${where}, or try again later`,
      );
    }
    const networkDone = this.reservedByNetwork.take(network, () => undefined);
    const clientDone = this.reserved.take(client, (tableId) => {
      if (this.seating.has(tableId)) this.makers.add(tableId, client);
    });
    return (tableId) => {
      networkDone();
      clientDone(tableId);
    };
  }

  /** Refuses (429) a client past its share of the tables waiting for players, or its network past its; the network's count. */
  private checkShares(client: string, network: string): number {
    const now = this.now();
    const openHere = (tableId: string) => this.openHere(tableId, now);
    const mine = this.reserved.of(client) + this.makers.openOfClient(client, openHere);
    const ofNetwork = this.reservedByNetwork.of(network) + this.makers.openOfNetwork(network, openHere);
    const { seatingTablesPerClient: perClient, seatingTablesPerNetwork: perNetwork } = this.limits;
    const untilOneCloses = `fill one, or wait until one starts or closes (after ${this.limits.seatingIdleSeconds} s with nobody at it)`;
    if (mine >= perClient) {
      throw new GatewayRefusal(
        'rateLimited',
        `${client} has ${perClient} tables waiting for players, the most one client may; ${untilOneCloses}`,
      );
    }
    if (ofNetwork >= perNetwork && network !== client) {
      throw new GatewayRefusal(
        'rateLimited',
        `the clients of network ${network} have ${perNetwork} tables waiting for players, the most one network's may; ${untilOneCloses}`,
      );
    }
    return ofNetwork;
  }

  /** The tables seating players and not closed: those listed, and those made through this gateway since the listing. */
  private openTables(tables: readonly TableSummary[], now: number): Set<string> {
    const open = new Set<string>();
    for (const table of tables) if (table.status?.phase === 'seating' && !this.isClosed(table, now)) open.add(table.tableId);
    for (const tableId of this.seating.keys()) if (this.openHere(tableId, now)) open.add(tableId);
    return open;
  }

  /** Whether a table made or seen through this gateway still seats players, and is not closed. */
  private openHere(tableId: string, now: number): boolean {
    const seating = this.seating.get(tableId);
    if (seating === undefined || this.closed.has(tableId)) return false;
    return now - seating.lastEventMs < seatingIdleLimit(seating.hasPerson, this.limits) * 1000;
  }

  /**
   * Max-min fairness for a full cap: the table a creator whose network
   * holds `ofNetwork` waiting tables may take the place of, or null. It is
   * the oldest table nobody waits at (no seat's socket open here) of the
   * network holding the most waiting tables, if that is more than the
   * creator's (on a tie, the network whose table has waited longest). So a
   * network new to the cap always gets a table, one holding the most never
   * does, and an abuser's share of the cap shrinks as people of other
   * networks arrive, however many networks the abuser has. Only tables
   * made through this gateway are counted and displaced.
   */
  private tableToDisplace(ofNetwork: number, openHere: (tableId: string) => boolean): string | null {
    const playerThere = this.options.playerThere ?? (() => true);
    const larger = this.makers.openByNetwork(openHere).filter(({ tables }) => tables.length > ofNetwork);
    larger.sort((a, b) => b.tables.length - a.tables.length || a.oldest - b.oldest);
    for (const { tables } of larger) {
      const idle = tables.find((tableId) => !playerThere(tableId));
      if (idle !== undefined) return idle;
    }
    return null;
  }

  /** Closes a table nobody waits at to make room (tableToDisplace): it leaves the lobby, and joining it is refused. */
  private displace(tableId: string): void {
    this.closed.add(tableId);
    this.displaced.add(tableId);
    this.seating.delete(tableId);
    this.makers.delete(tableId);
  }

  /** Whether the table was closed to make room for a table of another network (tableToDisplace). */
  closedToMakeRoom(tableId: string): boolean {
    return this.displaced.has(tableId);
  }

  /** Makes room for a new table of bots alone by `client`, or refuses (botTableCap.ts). */
  reserveBotTable(client: string): Promise<(tableId?: string) => void> {
    return this.botTables.reserve(client);
  }

  /**
   * Tables among `open` where a person sits and waits for players, as far as
   * this gateway has seen them, the longest waiting first: where a full cap
   * sends people, rather than to whichever tables were made last (which may
   * all be one abuser's, with nobody at them). A person is waiting only with
   * their seat's socket open here: a seat taken by a script that then went
   * away (an abuser's, to be named) is nobody waiting.
   */
  private tablesPeopleWaitAt(open: ReadonlySet<string>): string[] {
    const waiting: { tableId: string; since: number }[] = [];
    const playerThere = this.options.playerThere ?? (() => true);
    for (const [tableId, seating] of this.seating) {
      if (seating.hasPerson && open.has(tableId) && playerThere(tableId)) waiting.push({ tableId, since: seating.lastEventMs });
    }
    waiting.sort((a, b) => a.since - b.since || (a.tableId < b.tableId ? -1 : 1));
    return waiting.slice(0, PEOPLE_WAITING_SHOWN).map(({ tableId }) => tableId);
  }

  /** The store's tables by id, listed at most once every LISTING_MS, with the changes made here since laid over them. */
  private async tables(): Promise<readonly TableSummary[]> {
    if (this.now() - this.listing.at >= LISTING_MS) {
      const startedAt = this.now();
      this.listingUnderWay ??= this.options
        .list()
        .then((tables) => {
          // As of when it was asked for: a change after that may be missing from it.
          this.listing = { at: startedAt, tables };
          const listed = new Map(tables.map((table) => [table.tableId, table.version]));
          for (const [tableId, table] of this.changed) if ((listed.get(tableId) ?? -1) >= table.version) this.changed.delete(tableId);
          // Tables that left seating through another gateway (distributed): the listing says so.
          for (const table of tables) {
            const seen = this.seating.get(table.tableId);
            if (seen !== undefined && table.version > seen.version && table.status?.phase !== 'seating') {
              this.seating.delete(table.tableId);
              this.makers.delete(table.tableId);
            }
          }
          this.lookUpIdleSeating(tables);
          return tables;
        })
        .finally(() => (this.listingUnderWay = null));
      await this.listingUnderWay;
    }
    if (this.changed.size === 0) return this.listing.tables;
    const listed = new Set<string>();
    const tables = this.listing.tables.map((table) => {
      listed.add(table.tableId);
      const newer = this.changed.get(table.tableId);
      return newer !== undefined && newer.version > table.version ? newer : table;
    });
    const added = [...this.changed.values()].filter((table) => !listed.has(table.tableId));
    if (added.length === 0) return tables;
    return [...tables, ...added].sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  }

  private isClosed(table: TableSummary, now: number): boolean {
    if (this.closed.has(table.tableId)) return true;
    if (table.status?.phase !== 'seating' || table.status.finished === true) return false;
    const seen = this.seating.get(table.tableId);
    // What this gateway saw last, if it is at least as new as the listing.
    const seating = seen !== undefined && seen.version >= table.version ? seen : null;
    // Whether a person sits at a table only its listing knows of is looked up (lookUpIdleSeating); until then it is open.
    if (seating === null) return false;
    const closed = seatingClosed({ phase: 'seating', ...seating }, now, this.limits);
    if (closed) {
      this.closed.add(table.tableId);
      this.seating.delete(table.tableId);
      this.makers.delete(table.tableId);
    }
    return closed;
  }

  /** Tables seating players, idle past the limit, that this gateway has not seen: who sits there is looked up, a few at a time. */
  private lookUpIdleSeating(tables: readonly TableSummary[]): void {
    const cutoff = this.now() - this.limits.seatingIdleSeconds * 1000;
    for (const table of tables) {
      const { tableId } = table;
      if (table.status?.phase !== 'seating' || this.closed.has(tableId) || this.lookups.has(tableId)) continue;
      if (Date.parse(table.lastEventAt) > cutoff) continue;
      const seen = this.seating.get(tableId);
      if (seen !== undefined && seen.version >= table.version) continue;
      this.lookups.add(tableId);
      this.lookupQueue.push(tableId);
    }
    while (this.lookingUp < LOOKUPS_AT_ONCE && this.lookupQueue.length > 0) void this.lookUpNext();
  }

  private async lookUpNext(): Promise<void> {
    this.lookingUp++;
    try {
      for (let tableId = this.lookupQueue.shift(); tableId !== undefined; tableId = this.lookupQueue.shift()) {
        try {
          this.tableChanged(await this.options.current(tableId));
        } catch {
          // Gone or unreadable: the next listing tries again.
        } finally {
          this.lookups.delete(tableId);
        }
      }
    } finally {
      this.lookingUp--;
    }
  }
}

function paged(all: readonly TableSummary[], page: number, limit: number): LobbyPage {
  const pages = Math.max(1, Math.ceil(all.length / limit));
  const tables = all.slice((page - 1) * limit, page * limit).map(lobbyTable);
  return { tables, page, pages, total: all.length };
}

function lobbyTable({ tableId, version, status, lastEventAt }: TableSummary): LobbyTable {
  const quarantine = status?.quarantine as LobbyTable['quarantine'];
  return {
    tableId,
    game: status?.game ?? 'unknown',
    phase: status?.phase ?? 'unknown',
    openSeats: (status?.openSeats as number[] | undefined) ?? [],
    hand: (status?.hand as number | undefined) ?? 0,
    finished: status?.finished === true,
    version,
    lastEventAt,
    ...(quarantine === undefined ? {} : { quarantine }),
  };
}
