/**
 * What a table page hears beside its views, and its sounds: the shared
 * rematch as it stands (the socket's `rematch`, rematchOffer.ts), what a
 * bot did for a seat whose time ran out (`timedOut`, worded by
 * seatClock.ts), and a card played or a trick won heard as the views bring
 * them (sounds.ts). None of it is a game event: it changes what the page
 * shows and plays, never the game.
 */
import type { TableView } from '../../../../machines/view.js';
import type { TimedOutMessage } from '../../socketProtocol.js';
import type { Rematch } from './api.js';
import { h } from './dom.js';
import { RematchOffer } from './rematchOffer.js';
import { timedOutSentence } from './seatClock.js';
import type { HeldSeat } from './seatTokens.js';
import { setSound, Sounds, soundOn } from './sounds.js';

/** How long "Time ran out: …" stays. */
const TIMED_OUT_SHOWN_MS = 12_000;

export interface TableNoticesOptions {
  /** What is shown changed: draw the page again. */
  readonly changed: () => void;
  /** This person holds a seat at the rematch's table now. */
  readonly seated: (tableId: string) => void;
  /** The seat this page holds, if any. */
  readonly held: () => HeldSeat | null;
  /** A rematch asks this person: the game-over screen gives way to the page, where they answer. */
  readonly closeDialog: () => void;
}

export class TableNotices {
  readonly sounds = new Sounds();
  readonly rematch: RematchOffer;
  /** What a bot did for a seat whose time ran out, shown for a while. */
  private timedOut: string | null = null;
  private timedOutTimer: number | undefined;
  private closed = false;

  constructor(
    tableId: string,
    private readonly options: TableNoticesOptions,
  ) {
    this.rematch = new RematchOffer(tableId, { changed: options.changed, seated: options.seated });
  }

  /** A trick won sounds over the card that won it; a card played to the trick, on its own. */
  viewChanged(before: TableView | null, after: TableView): void {
    if (before === null) return;
    const tricks = (view: TableView) => (view.hand === null ? 0 : view.hand.tricks.length);
    const inTrick = (view: TableView) => view.hand?.trick?.plays.length ?? 0;
    if (after.hand?.number === before.hand?.number && tricks(after) > tricks(before)) this.sounds.play('trick');
    else if (inTrick(after) > inTrick(before)) this.sounds.play('card');
  }

  /** The rematch as it now stands; proposed to this person, the game-over screen gives way and its answer is focused. */
  hearRematch(rematch: Rematch): void {
    if (this.closed) return;
    this.rematch.see(rematch);
    const held = this.options.held();
    if (held === null || !this.rematch.asks(held.seat)) return;
    this.options.closeDialog();
    document.querySelector<HTMLElement>('.rematch-offer .accept')?.focus();
  }

  /** Everyone is told when a bot moved for a seat whose time ran out, until the next such move or a few seconds on. */
  hearTimedOut(view: TableView | null, notice: TimedOutMessage): void {
    if (this.closed || view === null) return;
    this.timedOut = timedOutSentence(view, notice);
    window.clearTimeout(this.timedOutTimer);
    this.timedOutTimer = window.setTimeout(() => {
      this.timedOut = null;
      this.options.changed();
    }, TIMED_OUT_SHOWN_MS);
    this.options.changed();
  }

  /** "Time ran out: …", while it is shown. */
  timedOutLine(): HTMLElement | null {
    return this.timedOut === null ? null : h('p', { class: 'timed-out', role: 'status' }, this.timedOut);
  }

  /** The header's "Sounds" toggle. */
  toggleSound(): void {
    setSound(!soundOn());
    this.options.changed();
  }

  /** Every second: the rematch's seconds left. */
  tick(): void {
    this.rematch.tick();
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timedOutTimer);
    this.sounds.close();
  }
}
