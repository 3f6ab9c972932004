/**
 * Checking each deal in the browser (docs/fairness.md), without trusting
 * the service. While a hand is to come and while it is played the client
 * keeps (localStorage, per table and hand) the commitment it was shown, and
 * for a seat its own contribution, the cards it was dealt and its role
 * card; it sends its contribution itself. Once the hand is scored and its
 * secret revealed, it re-derives the whole deal and the role deal from the
 * secret and the contributions (machines/fairness/fairDeal.ts, the same
 * code the service deals with) and compares them with what it kept. A
 * browser that kept nothing of the hand can only check the record against
 * itself, and says so.
 */
import type { Card, Suit } from '../../../../machines/cards/card.js';
import { commitmentOf, dealOfFairness, type RevealedDeal } from '../../../../machines/fairness/fairDeal.js';
import type { TableView } from '../../../../machines/view.js';
import { h } from './dom.js';
import { words } from './i18n/index.js';
import { openModal } from './modal.js';

/** What this browser saw of a hand before and while it was played. */
interface SeenHand {
  /** The commitment shown first: before the deal (view.nextDeal) or, failing that, with it. */
  readonly commitment: string | null;
  readonly dealt: readonly Card[] | null;
  readonly roleCard?: Suit | null;
  /** This browser's own contribution to the hand, and the seat it sent it for. */
  readonly contribution?: { readonly seat: number; readonly value: string; readonly accepted: boolean } | null;
  /** When it was first kept (ms), so the oldest hands are the ones let go. */
  readonly kept?: number;
}

const PREFIX = 'suitors.deal.';
const key = (tableId: string, handIndex: number) => `${PREFIX}${tableId}.${handIndex}`;
/** Hands kept at most: a few hundred small entries, far under any browser's quota. */
const MAX_KEPT = 300;

function seenHand(tableId: string, handIndex: number): SeenHand | null {
  try {
    return JSON.parse(localStorage.getItem(key(tableId, handIndex)) ?? 'null') as SeenHand | null;
  } catch {
    return null;
  }
}

function keep(tableId: string, handIndex: number, seen: SeenHand): void {
  try {
    localStorage.setItem(key(tableId, handIndex), JSON.stringify({ ...seen, kept: seen.kept ?? Date.now() }));
    letOldestGo();
  } catch {
    // A full or closed storage only weakens the check to "checked against the record".
  }
}

function letOldestGo(): void {
  const kept = Object.keys(localStorage).filter((name) => name.startsWith(PREFIX));
  if (kept.length <= MAX_KEPT) return;
  const age = (name: string) => (JSON.parse(localStorage.getItem(name) ?? '{}') as SeenHand).kept ?? 0;
  for (const name of kept.sort((a, b) => age(a) - age(b)).slice(0, kept.length - MAX_KEPT)) localStorage.removeItem(name);
}

/** Call with each view: keeps the commitment of the hand to come and of the hand in play, and the viewer's cards and role card. */
export function rememberDeal(tableId: string, view: TableView): void {
  if (view.nextDeal !== null) {
    const seen = seenHand(tableId, view.nextDeal.index);
    if (seen?.commitment == null) keep(tableId, view.nextDeal.index, { dealt: null, ...seen, commitment: view.nextDeal.commitment });
  }
  const hand = view.hand;
  if (hand === null || hand.commitment === null) return;
  const index = hand.number - 1;
  // A hand already scored (the last of a finished game) was not seen in play: what it shows now proves nothing.
  if (view.revealedDeals.some((deal) => deal.index === index)) return;
  const seen = seenHand(tableId, index);
  if (seen?.commitment != null && (seen.dealt !== null || hand.dealt === null)) return;
  keep(tableId, index, { ...seen, commitment: seen?.commitment ?? hand.commitment, dealt: hand.dealt, roleCard: hand.roleCard });
}

/** A seat's contribution to the next deal, as the client sends it (POST /api/tables/:id/commands). */
export interface ContributionCommand {
  readonly type: 'deal.contributed';
  readonly hand: number;
  readonly contribution: string;
}

/**
 * Call with each view of a seat: once for each hand open to contributions,
 * draws 32 bytes from the browser's secure source, keeps them before
 * anything is sent (so a reload never sends a second one), and sends them.
 */
export function contributeToNextDeal(tableId: string, view: TableView, send: (command: ContributionCommand) => Promise<unknown>): void {
  const seat = view.viewer;
  if (typeof seat !== 'number' || view.nextDeal === null || view.seats[seat]?.occupant?.bot !== false) return;
  const hand = view.nextDeal.index;
  const seen = seenHand(tableId, hand);
  if (seen?.contribution != null) return;
  const value = Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
  const kept: SeenHand = { commitment: view.nextDeal.commitment, dealt: null, ...seen, contribution: { seat, value, accepted: false } };
  keep(tableId, hand, kept);
  void send({ type: 'deal.contributed', hand, contribution: value }).then(
    () => keep(tableId, hand, { ...kept, contribution: { seat, value, accepted: true } }),
    // Refused (too late, the table takes none): the hand is dealt without it, and the check expects none.
    () => undefined,
  );
}

type DealVerdict =
  | { readonly verified: true; readonly wording: string; readonly checks: readonly string[] }
  | { readonly verified: false; readonly problems: readonly string[] };

const sameCards = (a: readonly Card[], b: readonly Card[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Checks hand `handIndex` against its revealed secret and contributions; null while they are not revealed. */
function verifyDeal(tableId: string, view: TableView, handIndex: number): DealVerdict | null {
  const revealed = view.revealedDeals.find((deal) => deal.index === handIndex);
  if (revealed === undefined) return null;
  const said = words().table;
  if (commitmentOf(revealed.seed) !== revealed.commitment) return { verified: false, problems: [said.seedMismatch] };
  const seen = seenHand(tableId, handIndex);
  if (seen?.commitment == null) return { verified: true, wording: said.checkedAgainstRecord, checks: [said.seedHashes] };
  const problems = againstWhatWasSeen(view, revealed, seen, handIndex);
  const checks = [said.seedHashesShown, said.dealsYourCards];
  return problems.length === 0 ? { verified: true, wording: said.verified, checks } : { verified: false, problems };
}

/** What differs between the deal the revealed secret and contributions make and what this browser was shown. */
function againstWhatWasSeen(view: TableView, revealed: RevealedDeal, seen: SeenHand, handIndex: number): string[] {
  const problems: string[] = [];
  const said = words().table;
  if (seen.commitment !== revealed.commitment) problems.push(said.otherCommitment);
  const made = dealOfFairness({ game: view.game, options: view.options, cardsPerSeat: view.cardsPerSeat }, revealed);
  const seat = typeof view.viewer === 'number' ? view.viewer : null;
  if (seat !== null && seen.dealt != null && !sameCards(made.deal[seat], seen.dealt)) {
    problems.push(said.otherCards);
  }
  if (seat !== null && seen.roleCard != null && made.roles?.[seat] !== seen.roleCard) {
    problems.push(said.otherRole);
  }
  const traitor = view.lastHand?.index === handIndex ? view.lastHand.traitor : null;
  if (traitor !== null && made.roles !== null && made.roles.indexOf(7) !== traitor) {
    problems.push(said.otherTraitor(made.roles.indexOf(7), traitor));
  }
  const mine = seen.contribution;
  const recorded = mine == null ? undefined : (revealed.contributions?.[mine.seat] ?? null);
  if (mine?.accepted === true && recorded !== mine.value) problems.push(said.notYourContribution);
  if (mine != null && !mine.accepted && recorded !== null && recorded !== mine.value) {
    problems.push(said.unsentContribution);
  }
  return problems;
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
        ? h('strong', { class: 'verdict' }, verdict.wording)
        : h('strong', { class: 'verdict' }, words().dealCheckFailed(verdict.problems.join('; '))),
      verdict.verified ? h('span', { class: 'muted small' }, ` (${verdict.checks.join('; ')})`) : null,
    ),
    h('p', { class: 'small' }, words().seed, h('code', { class: 'hex' }, revealed.seed)),
    h('p', { class: 'small' }, words().commitment, h('code', { class: 'hex' }, revealed.commitment)),
    contributionsLine(revealed),
    h(
      'p',
      { class: 'small' },
      words().checkIndependently,
      view.outcome?.finished
        ? [' (', h('a', { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: 'record.json' }, 'record.json'), ')']
        : null,
      words().andRun,
      h('code', {}, 'npx suitors check record.json'),
      '.',
    ),
  );
}

function contributionsLine(revealed: RevealedDeal): HTMLElement | null {
  if (revealed.contributions === undefined) return null;
  const given = revealed.contributions.flatMap((contribution, seat) =>
    contribution === null ? [] : [words().contributionOf(seat, contribution)],
  );
  return h(
    'p',
    { class: 'small' },
    words().contributions,
    given.length === 0 ? words().noContributions : h('code', { class: 'hex' }, given.join(', ')),
  );
}

/** The hand in play's commitment, in a dialog: what it is and why it matters. */
export function showCommitment(view: TableView): void {
  const close = h('button', { type: 'button', class: 'primary' }, words().close);
  const commitment = view.hand?.commitment ?? null;
  const modal = openModal({
    title: words().fairDeal,
    className: 'fair-dialog',
    body: [
      h('p', {}, words().fairDealExplained),
      commitment === null
        ? h('p', {}, words().noHandDealt)
        : h('p', {}, words().handCommitment(view.hand!.number), h('code', { class: 'hex' }, commitment)),
      view.nextDeal === null
        ? null
        : h('p', {}, words().nextCommitment(view.nextDeal.index + 1), h('code', { class: 'hex' }, view.nextDeal.commitment)),
    ],
    actions: [close],
  });
  close.addEventListener('click', () => modal.close());
}
