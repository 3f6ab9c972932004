/**
 * The turn clock as everyone at the table sees it: a bar on each seat the
 * clock runs for (the awaited seats a person holds), shrinking to its
 * deadline, with the seconds left; for the player whose turn it is, a
 * warning once 10 s are left; and when the time ran out, what the bot did
 * for whom ("Time ran out: a bot played the 7 of Hearts for Ada (seat 0).").
 *
 * The view carries the deadline, not the clock's length, so the bar runs
 * from the moment this page first saw the deadline: full for a turn
 * watched from its start, shorter for one joined halfway.
 */
import type { TableView } from '../../../../machines/view.js';
import type { TimedOutMessage } from '../../socketProtocol.js';
import { cardName } from './cards.js';
import { occupantName } from './words.js';
import { h } from './dom.js';
import { words } from './i18n/index.js';

/** From how many seconds left the player is warned. */
const WARNING_SECONDS = 10;

export class SeatClock {
  private deadline: number | null = null;
  private span = 1;
  /** The warning, in the status line; filled once when the turn nears its end, so a screen reader says it once. */
  readonly warning = h('span', { class: 'clock-warning', role: 'alert' });

  /** The deadline of the view just shown (null: no clock runs). */
  see(deadline: string | null): void {
    const at = deadline === null ? null : Date.parse(deadline);
    if (at === this.deadline) return;
    this.deadline = at;
    this.span = at === null ? 1 : Math.max(1000, at - Date.now());
    this.warning.textContent = '';
  }

  /** Seconds left, or null without a clock. */
  secondsLeft(): number | null {
    return this.deadline === null ? null : Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
  }

  /** The bar on a seat the clock runs for. */
  bar(): HTMLElement | null {
    const left = this.secondsLeft();
    if (left === null) return null;
    const clock = h(
      'div',
      { class: 'seat-clock', role: 'timer', 'aria-label': words().table.secondsLeft(left) },
      h('span', { class: 'seat-clock-bar' }),
      h('span', { class: 'seat-clock-left' }, words().table.seconds(left)),
    );
    this.draw(clock, left);
    return clock;
  }

  /** Every second: the bars and their seconds, and the warning once the player's own turn is nearly out. */
  tick(page: ParentNode, ownTurn: boolean): void {
    const left = this.secondsLeft();
    if (left === null) return;
    for (const clock of page.querySelectorAll<HTMLElement>('.seat-clock')) this.draw(clock, left);
    if (ownTurn && left <= WARNING_SECONDS && this.warning.textContent === '') this.warning.textContent = words().table.clockWarning(left);
  }

  private draw(clock: HTMLElement, left: number): void {
    const share = Math.min(1, Math.max(0, (this.deadline! - Date.now()) / this.span));
    clock.style.setProperty('--left', share.toFixed(3));
    clock.classList.toggle('hurry', left <= WARNING_SECONDS);
    clock.setAttribute('aria-label', words().table.secondsLeft(left));
    const seconds = clock.querySelector('.seat-clock-left');
    if (seconds !== null) seconds.textContent = words().table.seconds(left);
  }
}

/** "Time ran out: a bot played the 7 of Hearts for Ada (seat 0)." — for the player themself, "for you". */
export function timedOutSentence(view: TableView, notice: TimedOutMessage): string {
  const table = words().table;
  const occupant = view.seats[notice.seat]?.occupant ?? null;
  const name =
    view.viewer === notice.seat
      ? table.timedOutYou
      : table.nameAndSeat(occupant === null ? table.thePlayer : occupantName(occupant), notice.seat);
  const move = {
    play: notice.card === null ? table.botPlayed : table.botPlayedCard(cardName(notice.card)),
    pass: table.botPassed,
    accuse: table.botAccused,
  }[notice.action];
  return table.timedOut(move, name);
}
