/**
 * The seated player's dock along the foot of the table page: their hand
 * (handBar.ts), what they are asked to do above it (passing or the
 * accusation, seatPanels.ts), and why the card just picked cannot be
 * played. It keeps the cards chosen to pass until they are sent, or the
 * seats to pass to change; the table page sends the commands.
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { TableView } from '../../../../machines/view.js';
import type { PlayerCommand } from './api.js';
import { h } from './dom.js';
import { handBar, type HandActions } from './handBar.js';
import { words } from './i18n/index.js';
import { PassSelection } from './passSelection.js';
import { actionPanel, type SeatControls } from './seatPanels.js';

export interface SeatDockOptions {
  /** A command is on its way, or its effect has not reached the view yet. */
  readonly busy: () => boolean;
  readonly send: (command: PlayerCommand) => void;
  /** What is shown changed: draw the page again. */
  readonly changed: () => void;
}

export class SeatDock {
  private selection: PassSelection | null = null;
  /** Why the card just picked cannot be played. */
  hint: string | null = null;

  constructor(private readonly options: SeatDockOptions) {}

  /** The dock for `view`, or null when the seat holds no card and has nothing to do. */
  draw(view: TableView): HTMLElement | null {
    const hand = handBar(view, this.handActions(view));
    const action = actionPanel(view, this.seatControls(view));
    if (hand === null && action === null) return null;
    return h(
      'section',
      { class: 'hand-dock', 'aria-label': words().yourHand },
      h('p', { class: 'hand-hint', role: 'status' }, this.hint ?? ''),
      action,
      hand,
    );
  }

  /** Each new view: a hint no longer holds once the turn changed, and a choice to pass none once passing is over. */
  viewChanged(view: TableView, turnChanged: boolean): void {
    if (turnChanged) this.hint = null;
    if (view.phase !== 'passing') this.selection?.clear();
  }

  /** A command was accepted: the cards chosen for it are gone. */
  sent(): void {
    this.selection?.clear();
  }

  /** The seat is no longer this page's. */
  reset(): void {
    this.selection = null;
    this.hint = null;
  }

  private handActions(view: TableView): HandActions {
    return {
      busy: this.options.busy(),
      selection: this.selectionFor(view),
      choose: (card: Card) => {
        this.selectionFor(view).toggle(card);
        this.hint = null;
        this.options.changed();
      },
      play: (card: Card) => this.options.send({ type: 'card.played', card }),
      explain: (message: string) => {
        this.hint = message;
        this.options.changed();
      },
    };
  }

  private selectionFor(view: TableView): PassSelection {
    // The seats to pass to come with the view, while this seat has yet to pass; a choice under way is kept until they change.
    const recipients = view.hand?.passTo ?? [];
    if (this.selection === null || !sameSeats(this.selection.recipients, recipients)) this.selection = new PassSelection(recipients);
    return this.selection;
  }

  private seatControls(view: TableView): SeatControls {
    const chosen = this.selectionFor(view);
    return {
      busy: this.options.busy(),
      selection: chosen,
      aimAt: (to) => {
        chosen.aimAt(to);
        // The slot is drawn again, and the focus follows it to the new one (pageFocus.ts keepFocusOn).
        this.options.changed();
      },
      pass: () => this.options.send({ type: 'cards.passed', passes: chosen.passes() }),
      accuse: (accused) => this.options.send({ type: 'traitor.accused', accused }),
    };
  }
}

function sameSeats(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((seat, index) => seat === b[index]);
}
