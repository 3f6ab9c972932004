/**
 * The shared rematch on a finished table's page (POST .../rematch and
 * .../rematch/answer; the socket's `rematch` message says how it stands):
 * a person proposes it, everyone at the table sees who proposed it and who
 * has answered, each other person accepts or declines, and those who
 * accepted are taken to the new table, in their own seats, once it starts.
 *
 * Accepting (or proposing) sends a seat token made here for the new table
 * (seatJoin.ts's newSeatToken), kept under `suitors.rematch.<tableId>`
 * until the table starts, so a reload while the others answer loses nothing.
 */
import { api, type Rematch } from './api.js';
import { h } from './dom.js';
import { failureWords } from './i18n/refusals.js';
import { words } from './i18n/index.js';
import { newSeatToken } from './seatJoin.js';
import { holdSeat, type HeldSeat } from './seatTokens.js';

interface PendingSeat {
  readonly seat: number;
  readonly token: string;
}

const pendingKey = (tableId: string) => `suitors.rematch.${tableId}`;

export interface RematchOfferOptions {
  /** The rematch changed: draw the page again. */
  readonly changed: () => void;
  /** This person holds a seat at the new table now. */
  readonly seated: (tableId: string) => void;
}

export class RematchOffer {
  private rematch: Rematch | null = null;
  private error: string | null = null;
  private sending = false;

  constructor(
    private readonly tableId: string,
    private readonly options: RematchOfferOptions,
  ) {}

  /** Whether the rematch is waiting on this seat's answer. */
  asks(seat: number | null): boolean {
    return this.rematch?.status === 'open' && this.rematch.seats.some((each) => each.seat === seat && each.answer === 'waiting');
  }

  /** A rematch as the service says it stands; once started, a seat this browser accepted with is taken up. */
  see(rematch: Rematch): void {
    this.rematch = rematch;
    const pending = this.pending();
    const mine = pending === null ? undefined : rematch.seats.find((each) => each.seat === pending.seat);
    if (rematch.status === 'started' && rematch.rematchTableId !== null && pending !== null && mine !== undefined) {
      localStorage.removeItem(pendingKey(this.tableId));
      if (mine.answer === 'accepted' || mine.answer === 'proposed') {
        holdSeat(rematch.rematchTableId, pending);
        this.options.seated(rematch.rematchTableId);
        return;
      }
    }
    this.options.changed();
  }

  propose(held: HeldSeat): Promise<void> {
    return this.send(() => this.keep(held.seat, (token) => api.proposeRematch(this.tableId, held.token, token)));
  }

  answer(held: HeldSeat, accept: boolean): Promise<void> {
    if (!accept) return this.send(() => api.answerRematch(this.tableId, held.token, false, null));
    return this.send(() => this.keep(held.seat, (token) => api.answerRematch(this.tableId, held.token, true, token)));
  }

  /** The seconds left of an open proposal, as its line says them; called every second. */
  tick(): void {
    const line = document.querySelector<HTMLElement>('.rematch-offer .rematch-expires');
    if (line !== null && this.rematch?.status === 'open') line.textContent = expiresIn(this.rematch);
  }

  /** The rematch as it stands, for the game-over panel; with the seat held, what this person may do about it. */
  panel(held: HeldSeat | null): HTMLElement {
    const rematch = this.rematch;
    return h(
      'div',
      { class: 'rematch-offer', role: 'region', 'aria-label': words().friends.rematch, 'aria-live': 'polite' },
      rematch === null ? null : lines(rematch, held?.seat ?? null),
      this.error === null ? null : h('p', { class: 'error', role: 'alert' }, this.error),
      held === null ? null : this.choices(held),
    );
  }

  private choices(held: HeldSeat): HTMLElement | null {
    const rematch = this.rematch;
    if (this.asks(held.seat))
      return h(
        'p',
        { class: 'rematch-choices' },
        h(
          'button',
          { type: 'button', class: 'primary accept', disabled: this.sending, onclick: () => void this.answer(held, true) },
          words().friends.acceptRematch,
        ),
        ' ',
        h(
          'button',
          { type: 'button', class: 'decline', disabled: this.sending, onclick: () => void this.answer(held, false) },
          words().friends.decline,
        ),
      );
    if (rematch?.status === 'open' || rematch?.status === 'started') return null;
    return h(
      'p',
      {},
      h(
        'button',
        { type: 'button', class: 'primary rematch', disabled: this.sending, onclick: () => void this.propose(held) },
        words().friends.proposeRematch,
      ),
    );
  }

  private pending(): PendingSeat | null {
    try {
      const kept = JSON.parse(localStorage.getItem(pendingKey(this.tableId)) ?? 'null') as PendingSeat | null;
      return kept !== null && typeof kept.seat === 'number' && typeof kept.token === 'string' ? kept : null;
    } catch {
      return null;
    }
  }

  /** Makes the token for the new table and keeps it before it is sent, so the seat it wins is never lost. */
  private keep(seat: number, send: (token: string) => Promise<Rematch>): Promise<Rematch> {
    const token = newSeatToken();
    localStorage.setItem(pendingKey(this.tableId), JSON.stringify({ seat, token }));
    return send(token);
  }

  private async send(call: () => Promise<Rematch>): Promise<void> {
    this.sending = true;
    this.error = null;
    this.options.changed();
    try {
      const rematch = await call();
      this.sending = false;
      this.see(rematch);
    } catch (error) {
      this.sending = false;
      this.error = failureWords(error);
      this.options.changed();
    }
  }
}

function nameOf(rematch: Rematch, seat: number, viewer: number | null): string {
  const friends = words().friends;
  if (seat === viewer) return friends.you;
  return friends.seatOf(rematch.seats.find((each) => each.seat === seat)?.name ?? friends.seat(seat), seat);
}

function lines(rematch: Rematch, viewer: number | null): HTMLElement {
  const proposer = nameOf(rematch, rematch.proposer, viewer);
  const others = rematch.seats.filter((each) => each.seat !== rematch.proposer);
  const friends = words().friends;
  const headline = {
    open: friends.proposes(proposer, viewer === rematch.proposer),
    started: friends.rematchStarted,
    declined: friends.rematchDeclined,
    expired: friends.rematchExpired,
  }[rematch.status];
  return h(
    'div',
    {},
    h('p', { class: 'rematch-headline' }, headline),
    others.length === 0
      ? null
      : h(
          'ul',
          { class: 'rematch-answers' },
          others.map((each) =>
            h(
              'li',
              { 'data-seat': each.seat, 'data-answer': each.answer },
              friends.answered(nameOf(rematch, each.seat, viewer), friends.answers[each.answer]),
            ),
          ),
        ),
    rematch.status === 'open' ? h('p', { class: 'rematch-expires muted small' }, expiresIn(rematch)) : null,
    rematch.status === 'started' && rematch.rematchTableId !== null
      ? h('p', {}, h('a', { href: `#/watch/${rematch.rematchTableId}`, class: 'button-like watch-rematch' }, friends.watchTheRematch))
      : null,
  );
}

function expiresIn(rematch: Rematch): string {
  const left = Math.max(0, Math.ceil((Date.parse(rematch.expiresAt) - Date.now()) / 1000));
  return words().friends.expiresIn(left);
}
