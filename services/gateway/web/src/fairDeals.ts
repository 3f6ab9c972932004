/**
 * Checking each deal in the browser (docs/fairness.md), without trusting
 * the service: while a hand is played the client keeps its commitment and,
 * for a seat, the cards it was dealt (sessionStorage, per table and hand);
 * once the hand is scored and its seed revealed, it checks that the seed
 * hashes to the commitment it saw and that the seed deals the cards it got
 * (machines/fairness/fairDeal.ts, the same code the service deals with).
 */
import type { Card } from '../../../../machines/cards/card.js';
import { commitmentOf, dealFromSeed } from '../../../../machines/fairness/fairDeal.js';
import type { TableView } from '../../../../machines/view.js';
import { h } from './dom.js';
import { openModal } from './modal.js';

/** What this browser saw of a hand while it was played. */
interface SeenHand {
  readonly commitment: string | null;
  readonly dealt: readonly Card[] | null;
}

const key = (tableId: string, handIndex: number) => `suitors.deal.${tableId}.${handIndex}`;

function seenHand(tableId: string, handIndex: number): SeenHand | null {
  try {
    return JSON.parse(sessionStorage.getItem(key(tableId, handIndex)) ?? 'null') as SeenHand | null;
  } catch {
    return null;
  }
}

/** Call with each view: keeps the hand in play's commitment and the viewer's dealt cards. */
export function rememberDeal(tableId: string, view: TableView): void {
  const hand = view.hand;
  if (hand === null || hand.commitment === null) return;
  const index = hand.number - 1;
  const seen = seenHand(tableId, index);
  if (seen !== null && seen.commitment === hand.commitment && (seen.dealt !== null || hand.dealt === null)) return;
  sessionStorage.setItem(
    key(tableId, index),
    JSON.stringify({ commitment: seen?.commitment ?? hand.commitment, dealt: hand.dealt ?? seen?.dealt ?? null }),
  );
}

export type DealVerdict =
  | { readonly verified: true; readonly checks: readonly string[] }
  | { readonly verified: false; readonly problems: readonly string[] };

const sameCards = (a: readonly Card[], b: readonly Card[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Checks hand `handIndex` against its revealed seed; null while the seed is not revealed. */
export function verifyDeal(tableId: string, view: TableView, handIndex: number): DealVerdict | null {
  const revealed = view.revealedDeals.find((deal) => deal.index === handIndex);
  if (revealed === undefined) return null;
  const seen = seenHand(tableId, handIndex);
  const problems: string[] = [];
  const checks: string[] = [];
  if (commitmentOf(revealed.seed) !== revealed.commitment) problems.push('the seed does not hash to its commitment');
  else checks.push('the seed hashes to the commitment');
  if (seen?.commitment != null) {
    if (seen.commitment !== revealed.commitment) problems.push('the commitment shown during the hand was a different one');
    else checks.push('it is the commitment shown when the hand was dealt');
  }
  if (typeof view.viewer === 'number' && seen?.dealt != null) {
    const dealt = dealFromSeed({ game: view.game, options: view.options, cardsPerSeat: view.cardsPerSeat }, revealed.seed).deal[
      view.viewer
    ];
    if (!sameCards(dealt, seen.dealt)) problems.push('the seed deals you other cards than you were dealt');
    else checks.push('the seed deals exactly the cards you were dealt');
  }
  return problems.length === 0 ? { verified: true, checks } : { verified: false, problems };
}

/** The deal check for a hand's summary: the verdict, the seed and commitment, and how to check independently. */
export function dealCheck(tableId: string, view: TableView, handIndex: number): HTMLElement | null {
  const verdict = verifyDeal(tableId, view, handIndex);
  const revealed = view.revealedDeals.find((deal) => deal.index === handIndex);
  if (verdict === null || revealed === undefined) return null;
  return h(
    'details',
    { class: `deal-check ${verdict.verified ? 'verified' : 'failed'}` },
    h(
      'summary',
      {},
      verdict.verified
        ? h('strong', { class: 'verdict' }, 'Deal verified ✓')
        : h('strong', { class: 'verdict' }, `Deal check failed: ${verdict.problems.join('; ')}`),
      verdict.verified ? h('span', { class: 'muted small' }, ` (${verdict.checks.join('; ')})`) : null,
    ),
    h('p', { class: 'small' }, 'Seed: ', h('code', { class: 'hex' }, revealed.seed)),
    h('p', { class: 'small' }, 'Commitment: ', h('code', { class: 'hex' }, revealed.commitment)),
    h(
      'p',
      { class: 'small' },
      'To check independently: export the record after the game',
      view.outcome?.finished
        ? [' (', h('a', { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: 'record.json' }, 'record.json'), ')']
        : null,
      ' and run ',
      h('code', {}, 'npx suitors check record.json'),
      '.',
    ),
  );
}

/** The hand in play's commitment, in a dialog: what it is and why it matters. */
export function showCommitment(view: TableView): void {
  const close = h('button', { type: 'button', class: 'primary' }, 'Close');
  const commitment = view.hand?.commitment ?? null;
  const modal = openModal({
    title: 'Fair deal',
    className: 'fair-dialog',
    body: [
      h(
        'p',
        {},
        'Every hand is dealt from a secret random seed. Its commitment, the SHA-256 of the seed, is shown from the deal on; the seed itself is revealed when the hand is scored, and this page checks that it hashes to this commitment and deals the cards you got.',
      ),
      commitment === null
        ? h('p', {}, 'No hand has been dealt yet.')
        : h('p', {}, `Hand ${view.hand!.number} commitment: `, h('code', { class: 'hex' }, commitment)),
    ],
    actions: [close],
  });
  close.addEventListener('click', () => modal.close());
}
