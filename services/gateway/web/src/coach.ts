/**
 * A first-game coach: four tips, each shown once, in play, when it first
 * matters: the first pass, "the first card led sets trump", what a marriage
 * is when the first 7 is captured, and the Traitor's goal to the Traitor.
 * Once a game has been played to its end the coach is off; the rules
 * dialog turns it on again. Kept in localStorage.
 */
import type { TableView } from '../../../../machines/view.js';
import { h } from './dom.js';
import { ownAction } from './handBar.js';
import { words } from './i18n/index.js';

type Tip = 'pass' | 'trump' | 'marriage' | 'traitor';

const SEEN_KEY = 'suitors.coach.seen';
const OFF_KEY = 'suitors.coach.off';

const TIPS: readonly { readonly tip: Tip; readonly when: (view: TableView) => boolean }[] = [
  {
    tip: 'traitor',
    when: (view) => typeof view.viewer === 'number' && view.seats[view.viewer]?.role === 'traitor',
  },
  {
    tip: 'pass',
    when: (view) => ownAction(view) === 'pass',
  },
  {
    tip: 'trump',
    when: (view) => view.phase === 'trickPlay' && (view.hand?.tricks.length ?? 0) === 0 && (view.hand?.trick?.plays.length ?? 0) <= 1,
  },
  {
    tip: 'marriage',
    when: (view) => (view.hand?.capturedSevens.length ?? 0) > 0,
  },
];

function seen(): Set<Tip> {
  try {
    return new Set(JSON.parse(localStorage.getItem(SEEN_KEY) ?? '[]') as Tip[]);
  } catch {
    return new Set();
  }
}

/** The coach on again, every tip unseen: from the rules dialog. */
export function restartCoach(): void {
  localStorage.removeItem(SEEN_KEY);
  localStorage.removeItem(OFF_KEY);
}

function coachOn(): boolean {
  return localStorage.getItem(OFF_KEY) !== 'true';
}

export class Coach {
  private shown: Tip | null = null;

  /** The tip for this view, if one is due; a tip shown once is seen, whether dismissed or passed by. */
  tip(view: TableView, seated: boolean, dismissed: () => void): HTMLElement | null {
    if (!seated) return null;
    if (view.outcome?.finished) {
      // The first game played to its end: the coach has done its work.
      localStorage.setItem(OFF_KEY, 'true');
      return null;
    }
    if (!coachOn()) return null;
    const done = seen();
    const due = TIPS.find(({ tip, when }) => !done.has(tip) && when(view));
    if (this.shown !== null && this.shown !== due?.tip) this.markSeen(this.shown);
    this.shown = due?.tip ?? null;
    if (due === undefined) return null;
    const gotIt = h('button', { type: 'button', class: 'coach-done' }, words().friends.gotIt);
    gotIt.addEventListener('click', () => {
      this.markSeen(due.tip);
      this.shown = null;
      dismissed();
    });
    return h(
      'aside',
      { class: 'coach-tip', role: 'note', 'aria-label': words().friends.firstGameTip, 'data-tip': due.tip },
      h('p', {}, words().friends.tips[due.tip]),
      gotIt,
    );
  }

  private markSeen(tip: Tip): void {
    const done = seen();
    done.add(tip);
    localStorage.setItem(SEEN_KEY, JSON.stringify([...done]));
  }
}
