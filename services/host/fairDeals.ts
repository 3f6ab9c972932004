/**
 * The seats' contributions to the deals to come (docs/fairness.md). A
 * person's seat sends one for the hand whose commitment every view shows
 * (`view.nextDeal`); it is logged as a host event (`deal.contributed`) and
 * used in that hand's deal if it is in the log before the deal: the deal is
 * made in the same append as the event that ends the hand before (for the
 * first hand, the seat that fills the table), so that event is the cut-off,
 * and nothing ever waits for a seat that sends none.
 *
 * The machine never sees a contribution, only the deal made with them, so
 * the contributions received for the pending hand are kept here, per
 * resident table, and read again from the log when a table is rebuilt.
 */
import { isHex256 } from '../../machines/fairness/fairDeal.js';
import { nextDealOf, type TableContext } from '../../machines/table/context.js';
import type { EventStore, NewEvent, StoredEvent } from '../eventstore/eventStore.js';
import { hostCommitmentOf } from './dealer.js';
import { TableRefusal } from './errors.js';
import { readTableLog } from './replay.js';
import type { ResidentTable } from './residentTables.js';
import { DEAL_CONTRIBUTED } from './tableLog.js';
import { upcast } from './upcasters.js';

/** A seat's contribution as it is sent and logged: `hand` is the index of the hand it is for (view.nextDeal.index). */
interface DealContribution {
  readonly type: typeof DEAL_CONTRIBUTED;
  readonly seat: number;
  readonly hand: number;
  readonly contribution: string;
}

export function isContributionCommand(command: unknown): boolean {
  return (command as { type?: unknown } | null)?.type === DEAL_CONTRIBUTED;
}

interface Received {
  /** The hand they are for. */
  readonly hand: number;
  /** Each seat's contribution, null until it sends one. */
  readonly bySeat: (string | null)[];
}

export class SeatContributions {
  private readonly received = new WeakMap<ResidentTable, Received>();

  constructor(private readonly store: EventStore) {}

  /**
   * Makes sure the contributions to the table's pending hand are known here:
   * a table rebuilt from its log (a restart, a takeover) reads them back,
   * once, from its log.
   */
  async ready(table: ResidentTable): Promise<void> {
    const pending = nextDealOf(table.committed.context);
    const seats = table.committed.context.seatCount;
    const known = this.received.get(table);
    if (pending === null || known?.hand === pending.index) return;
    // A table followed here since before its hand was opened has had every contribution to it through here.
    const log = known !== undefined || table.version === 0 ? [] : await logSinceLastDeal(this.store, table.tableId, table.version);
    this.received.set(table, { hand: pending.index, bySeat: contributionsIn(log, pending.index, seats) });
  }

  /** The contributions received for hand `hand`, seat order, null for a seat that sent none. */
  to(table: ResidentTable, hand: number): (string | null)[] {
    const received = this.received.get(table);
    const seats = table.committed.context.seatCount;
    return received?.hand === hand ? received.bySeat.slice() : Array.from({ length: seats }, () => null);
  }

  /**
   * The log event of a seat's contribution, after checking it: refused
   * (409) when the hand it is for was dealt already or is not open yet, or
   * the seat sent one for it already; refused (400) when malformed. The
   * holder of the seat is checked by the caller, as for every command.
   */
  contributionEvent(table: ResidentTable, command: unknown, at: string): NewEvent {
    const { context } = table.committed;
    const { seat, hand, contribution } = checkedShape(context, command);
    if (context.occupants[seat]?.bot !== false) {
      throw new TableRefusal('illegal', `seat ${seat} is not a person's: only people contribute to a deal, bots do not`);
    }
    const pending = nextDealOf(context);
    const ours = pending !== null && pending.commitment === hostCommitmentOf(table.created, pending.index);
    if (pending === null || !ours) {
      throw new TableRefusal(
        'notNow',
        `table ${table.tableId} takes no contribution now: ${context.outcome === null ? 'its next hand is dealt from the host’s secret alone (a fork, or a table created before contributions)' : 'the game is over'}`,
      );
    }
    if (hand < pending.index) {
      throw new TableRefusal(
        'notNow',
        `too late: hand ${hand + 1} is dealt already, and this contribution is not used (contributions to a hand close when the hand before it ends, or for the first hand when the table is full); the next hand open to contributions is hand ${pending.index + 1} (hand: ${pending.index})`,
      );
    }
    if (hand > pending.index) {
      throw new TableRefusal(
        'notNow',
        `hand ${hand + 1} is not open to contributions yet: its secret is committed to when hand ${hand} is dealt; the hand open now is hand ${pending.index + 1} (hand: ${pending.index})`,
      );
    }
    if (this.to(table, hand)[seat] !== null) {
      throw new TableRefusal('notNow', `seat ${seat} has contributed to hand ${hand + 1} already; a seat contributes once a hand`);
    }
    return { type: DEAL_CONTRIBUTED, at, data: { hand, seat, contribution } };
  }

  /** Keeps a contribution the log now holds. */
  took(table: ResidentTable, event: NewEvent): void {
    const { hand, seat, contribution } = event.data as Omit<DealContribution, 'type'>;
    const received = this.received.get(table);
    const bySeat = received?.hand === hand ? received.bySeat : this.to(table, hand);
    bySeat[seat] = contribution;
    this.received.set(table, { hand, bySeat });
  }
}

function checkedShape(context: TableContext, command: unknown): Omit<DealContribution, 'type'> {
  const { seat, hand, contribution } = (command ?? {}) as Record<string, unknown>;
  if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= context.seatCount) {
    throw new TableRefusal('malformed', `seat must be a seat number from 0 to ${context.seatCount - 1}`);
  }
  if (typeof hand !== 'number' || !Number.isInteger(hand) || hand < 0) {
    throw new TableRefusal('malformed', 'hand must be the index of the hand the contribution is for (view.nextDeal.index)');
  }
  if (!isHex256(contribution)) {
    throw new TableRefusal('malformed', 'contribution must be 32 random bytes as 64 lowercase hex characters');
  }
  return { seat, hand, contribution };
}

/** Events read back from the end of a log at first: most hands hold fewer, so one read finds the last deal. */
const FIRST_TAIL = 128;

/**
 * The log after its last deal, where the hand now open to contributions opened (its secret is committed to with
 * the deal before it, or at the table's creation for the first hand), read back from the end in growing steps:
 * a table taken up cold, after a hand-off or a restart, reads one hand's events, not its whole game.
 */
async function logSinceLastDeal(store: EventStore, tableId: string, version: number): Promise<StoredEvent[]> {
  for (let span = FIRST_TAIL; ; span *= 4) {
    const after = Math.max(0, version - span);
    const tail = await readTableLog(store, tableId, after);
    for (let index = tail.length - 1; index >= 0; index--) if (tail[index].type === 'hand.dealt') return tail.slice(index + 1);
    if (after === 0) return tail;
  }
}

/** Each seat's first contribution to hand `hand` in `log`, seat order. */
function contributionsIn(log: readonly StoredEvent[], hand: number, seats: number): (string | null)[] {
  const bySeat: (string | null)[] = Array.from({ length: seats }, () => null);
  for (const stored of log) {
    if (stored.type !== DEAL_CONTRIBUTED) continue;
    const data = upcast(stored).data as Omit<DealContribution, 'type'>;
    if (data.hand === hand && bySeat[data.seat] === null) bySeat[data.seat] = data.contribution;
  }
  return bySeat;
}
