/**
 * What the gateway needs to know of a table beyond its machine state, read
 * from its log: the service settings of `table.created` (turn clock, bot
 * kinds, the game a table was forked from), which bot seats stand in for a
 * player who left (at a forked table: every bot), and when the last event
 * was accepted. Kept per table and brought up to date incrementally: from
 * the events of the gateway's own commands as they are accepted, and from
 * the log only for what it did not see (a bot's move, a timeout, another
 * gateway's command), so a player's move costs the gateway no read of the
 * log (on NATS, a request to JetStream).
 */
import type { Seat } from '../../machines/rules/trick.js';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { TABLE_CREATED, type TableCreated } from '../host/tableLog.js';
import { settingsOf, type TableSettings } from '../host/tableSettings.js';

export interface TableFacts {
  readonly version: number;
  readonly settings: TableSettings;
  /** Bot seats holding the place of a player who left; a person may take them. */
  readonly standIns: ReadonlySet<Seat>;
  readonly lastEventAt: string;
}

const NO_SETTINGS: TableSettings = { turnSeconds: null, botKinds: {}, forkedFrom: null };

interface FactsInProgress {
  version: number;
  settings: TableSettings;
  standIns: Set<Seat>;
  /** Seats left and not yet taken again: a bot that takes one stands in. */
  vacated: Set<Seat>;
  lastEventAt: string;
}

function foldEvent(facts: FactsInProgress, event: StoredEvent): void {
  facts.version = event.seq;
  facts.lastEventAt = event.at;
  const data = event.data as { seat?: Seat; player?: { bot?: boolean } };
  switch (event.type) {
    case TABLE_CREATED:
      facts.settings = settingsOf(event.data as Partial<TableCreated>);
      break;
    case 'seat.left':
      facts.vacated.add(data.seat!);
      facts.standIns.delete(data.seat!);
      break;
    case 'seat.joined':
      // A forked table's bots all hold their seats for people: nobody chose to play against them.
      if (data.player?.bot === true && (facts.vacated.has(data.seat!) || facts.settings.forkedFrom !== null))
        facts.standIns.add(data.seat!);
      else facts.standIns.delete(data.seat!);
      facts.vacated.delete(data.seat!);
      break;
  }
}

export class TableFactsCache {
  private readonly kept = new Map<string, FactsInProgress>();
  /** Reads of one table run one after another, so no event is folded twice. */
  private readonly reading = new Map<string, Promise<TableFacts>>();

  constructor(private readonly readEvents: (tableId: string, afterVersion: number) => Promise<StoredEvent[]>) {}

  /**
   * The facts as of the table's latest event, or of `version` at least when
   * given (the version of the state they go with): read from the log only
   * when what is kept is older. Rejects with the host's unknownTable refusal
   * for no such table.
   */
  of(tableId: string, version?: number): Promise<TableFacts> {
    const kept = this.kept.get(tableId);
    if (version !== undefined && kept !== undefined && kept.version >= version && !this.reading.has(tableId)) {
      return Promise.resolve(factsOf(kept));
    }
    const previous = this.reading.get(tableId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.catchUp(tableId));
    this.reading.set(tableId, next);
    void next
      .finally(() => {
        if (this.reading.get(tableId) === next) this.reading.delete(tableId);
      })
      .catch(() => undefined);
    return next;
  }

  /**
   * Events the table has just accepted (a command's, from its
   * acknowledgement): folded in when they follow what is kept, without a
   * read; so is a new table's whole log, from its `table.created` (a fork
   * or an import holds thousands of events, which would otherwise be read
   * again at once). Anything else (a gap, a read under way, a table not
   * kept) is left to the next read.
   */
  learn(tableId: string, events: readonly StoredEvent[]): void {
    if (this.reading.has(tableId)) return;
    if (!this.kept.has(tableId) && events[0]?.seq === 1) this.kept.set(tableId, emptyFacts());
    const kept = this.kept.get(tableId);
    if (kept === undefined) return;
    const next = events.filter((event) => event.seq > kept.version);
    if (next.length === 0 || next[0].seq !== kept.version + 1) return;
    for (const event of next) foldEvent(kept, event);
  }

  /** Drops what is kept of a table (it is re-read from the log on next use). */
  forget(tableId: string): void {
    this.kept.delete(tableId);
  }

  private async catchUp(tableId: string): Promise<TableFacts> {
    const facts = this.kept.get(tableId) ?? emptyFacts();
    for (const event of await this.readEvents(tableId, facts.version)) foldEvent(facts, event);
    this.kept.set(tableId, facts);
    return factsOf(facts);
  }
}

function emptyFacts(): FactsInProgress {
  return { version: 0, settings: NO_SETTINGS, standIns: new Set(), vacated: new Set(), lastEventAt: '' };
}

function factsOf(facts: FactsInProgress): TableFacts {
  return { version: facts.version, settings: facts.settings, standIns: new Set(facts.standIns), lastEventAt: facts.lastEventAt };
}
