/**
 * What a host adds to a table's log besides the commands it takes: the
 * deal of each new hand, when it deals itself, and the `hand.revealed` of
 * each hand scored (its seed made public: docs/fairness.md). Both follow
 * from the actor's state, so they are appended with the command that led
 * to them, in the same append.
 */
import { commitmentOf } from '../../machines/fairness/fairDeal.js';
import { contributedDeal, fairDeal } from '../../machines/fragments/dealing.js';
import type { HandDealt, TableEvent } from '../../machines/table/events.js';
import { nextDealOf, revealedDealsOf, type TableContext } from '../../machines/table/context.js';
import { offer, phaseOf } from '../../machines/table/snapshot.js';
import type { NewEvent } from '../eventstore/eventStore.js';
import { handSeed, hostCommitmentOf, hostSecretOf } from './dealer.js';
import type { ResidentTable } from './residentTables.js';
import { HAND_REVEALED } from './tableLog.js';

/**
 * The deals a table awaits after its last event, each offered to its actor:
 * one per hand until it no longer deals. `contributionsTo(hand)` are the
 * seats' contributions received for a hand (fairDeals.ts).
 */
export function dealsOwed(table: ResidentTable, contributionsTo: (hand: number) => readonly (string | null)[]): TableEvent[] {
  const owed: TableEvent[] = [];
  while (phaseOf(table.actor.getSnapshot()) === 'dealing') {
    const deal = nextDeal(table, table.actor.getSnapshot().context, contributionsTo);
    if (!offer(table.actor, deal)) throw new Error(`table ${table.tableId}: the machine refused the host's deal`);
    owed.push(deal);
  }
  return owed;
}

/**
 * A hand whose secret the table committed to beforehand is dealt from it and
 * the contributions (scheme 2); any other (the first hand after an upgrade or
 * a fork) from the host's secret alone, as before. Each deal commits to the
 * next hand's secret, when the table has one.
 */
function nextDeal(table: ResidentTable, context: TableContext, contributionsTo: (hand: number) => readonly (string | null)[]): HandDealt {
  const index = context.handResults.length;
  const secret = hostSecretOf(table.created, index);
  const next = hostCommitmentOf(table.created, index + 1);
  const published = nextDealOf(context);
  if (secret !== null && published?.index === index && published.commitment === commitmentOf(secret)) {
    return contributedDeal(context, secret, contributionsTo(index), next);
  }
  return fairDeal(context, secret ?? handSeed(undefined, index), next);
}

/** The `hand.revealed` events of the hands scored since the table had revealed `revealedBefore`. */
export function revealedSince(table: ResidentTable, revealedBefore: number, at: string): NewEvent[] {
  return revealedDealsOf(table.actor.getSnapshot().context)
    .slice(revealedBefore)
    .map((revealed): NewEvent => ({ type: HAND_REVEALED, at, data: revealed }));
}
