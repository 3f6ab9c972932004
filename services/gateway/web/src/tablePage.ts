/**
 * A table, for a seated player or a spectator: a bar with the game and the
 * player's choices (rules, sound, leave), the felt with the seats round it
 * and the trick in the middle (felt.ts), the panels beside it (scores, the
 * tricks of the hand, the score sheet, invites, the state diagram), and for
 * a player their hand docked along the bottom (handBar.ts). Between hands
 * and at the end, betweenHands.ts holds the summary. The first view comes
 * over HTTP, every later one over the WebSocket; commands go over HTTP.
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { TableView } from '../../../../machines/view.js';
import { api, ApiError, type PlayerCommand, type VersionedView } from './api.js';
import { BetweenHands } from './betweenHands.js';
import { scoreSheet, scoresPanel, sevensPanel, tricksPanel, turnSentence } from './board.js';
import { liveDiagram, type LiveDiagram } from './diagram.js';
import { h, replaceChildren } from './dom.js';
import { dealCheck, rememberDeal } from './fairDeals.js';
import { felt, FeltMemory } from './felt.js';
import { rematch } from './gameOver.js';
import { handBar, HandFocus, ownAction, whyNotPlayable } from './handBar.js';
import { lastHandPanel } from './handSummary.js';
import { invitePanel, sitAt } from './invites.js';
import { followTable, type LiveState } from './live.js';
import { confirmModal } from './modal.js';
import { PassSelection } from './passSelection.js';
import { heldSeat, leftSeat, playerName, releaseSeat, rememberLeftSeat, type HeldSeat } from './seatTokens.js';
import { actionPanel, rolePanel, type SeatControls } from './seatPanels.js';
import { gameOverPanel, tableHeader } from './tableHeader.js';
import { setSound, soundOn, TurnCue } from './turnCue.js';
import { ACTION_WORDS } from './words.js';

interface PageState {
  view: TableView | null;
  version: number;
  sending: boolean;
  /** After a command is accepted: the version whose view will show it; the hand waits for it. */
  pendingVersion: number;
  error: string | null;
  notice: string | null;
  /** Why the card just picked cannot be played. */
  hint: string | null;
  /** After a pass or an accusation: put focus on the hand at the next draw (the buttons used are gone). */
  focusHand: boolean;
  connection: LiveState;
  turnDeadline: string | null;
}

export function showTable(root: HTMLElement, tableId: string, watchOnly: boolean): () => void {
  let held: HeldSeat | null = watchOnly ? null : heldSeat(tableId);
  let selection: PassSelection | null = null;
  const state: PageState = {
    view: null,
    version: 0,
    sending: false,
    pendingVersion: 0,
    error: null,
    notice: null,
    hint: null,
    focusHand: false,
    connection: 'connecting',
    turnDeadline: null,
  };
  const page = h('div', { class: 'table-page' }, h('p', {}, 'Loading table…'));
  const clock = h('span', { class: 'clock' });
  const memory = new FeltMemory();
  const focus = new HandFocus();
  const between = new BetweenHands(tableId);
  const cue = new TurnCue('Seven Suitors');
  let diagram: LiveDiagram | null = null;
  let diagramPanel: HTMLDetailsElement | null = null;
  let dock: HTMLElement | null = null;
  const dockSize = new ResizeObserver(() => page.style.setProperty('--dock-height', `${dock?.offsetHeight ?? 0}px`));
  let stopLive = () => {};
  let closed = false;
  replaceChildren(root, page);

  const tickClock = () => {
    const left = state.turnDeadline === null ? null : Math.max(0, Math.ceil((Date.parse(state.turnDeadline) - Date.now()) / 1000));
    clock.textContent = left === null ? '' : ` (turn clock: ${left} s)`;
  };
  const clockTimer = window.setInterval(tickClock, 1000);

  const render = () => {
    const view = state.view;
    if (view === null) return;
    if (diagram === null) {
      diagram = liveDiagram(view.game, view.title);
      diagramPanel = h(
        'details',
        { class: 'panel diagram-panel', open: window.matchMedia('(min-width: 60rem)').matches },
        h('summary', {}, 'State diagram'),
        diagram.element,
      );
    }
    focus.capture();
    const controls = held === null ? null : seatControls(view);
    const hand = held === null ? null : handBar(view, handActions(view));
    const action = controls === null ? null : actionPanel(view, controls);
    dock =
      hand === null && action === null
        ? null
        : h(
            'section',
            { class: 'hand-dock', 'aria-label': 'Your hand' },
            h('p', { class: 'hand-hint', role: 'status' }, state.hint ?? ''),
            action,
            hand,
          );
    replaceChildren(
      page,
      dock === null
        ? null
        : h(
            'a',
            {
              href: '#',
              class: 'skip-link',
              onclick: (event: Event) => {
                event.preventDefault();
                focusOnHand();
              },
            },
            'Go to your hand',
          ),
      tableHeader(view, {
        tableId,
        seat: held?.seat ?? null,
        connection: state.connection,
        onSound: () => {
          setSound(!soundOn());
          render();
        },
        onLeave: () => void leave(),
      }),
      h(
        'p',
        { class: `status${ownAction(view) === null ? '' : ' yours'}`, role: 'status', 'aria-live': 'polite' },
        turnSentence(view),
        clock,
      ),
      state.notice === null ? null : h('p', { class: 'notice' }, state.notice, ' ', retakeButton(view)),
      state.error === null ? null : h('p', { class: 'error', role: 'alert' }, state.error),
      held === null ? null : rolePanel(view),
      h(
        'div',
        { class: 'table-layout' },
        h(
          'div',
          { class: 'felt-column' },
          view.outcome?.finished ? gameOverPanel(view, tableId, held === null ? null : () => void startRematch()) : null,
          felt(view, { memory, onSit: held === null ? (seat) => void sitDown(seat) : undefined }),
        ),
        h(
          'aside',
          { class: 'side' },
          invitePanel(view, tableId),
          scoresPanel(view),
          lastHandPanel(view, dealCheck(tableId, view, view.lastHand?.index ?? -1)),
          tricksPanel(view),
          scoreSheet(view),
          sevensPanel(view),
          diagramPanel,
        ),
      ),
      dock,
    );
    dockSize.disconnect();
    if (dock !== null) dockSize.observe(dock);
    else page.style.setProperty('--dock-height', '0px');
    focus.restore(dock?.querySelector('.hand-cards') ?? null);
    if (state.focusHand && !state.sending && dock?.querySelector('.hand-cards') != null && !between.open) {
      state.focusHand = false;
      focusOnHand();
    }
    const own = ownAction(view);
    cue.update(own !== null && !between.open, own === null ? '' : ACTION_WORDS[own]);
  };

  const retakeButton = (view: TableView): HTMLElement | null => {
    const seat = leftSeat(tableId);
    if (held !== null || seat === null || view.outcome?.finished || view.seats[seat] === undefined) return null;
    return h('button', { type: 'button', class: 'primary retake', onclick: () => void sitDown(seat) }, `Take seat ${seat} back`);
  };

  const focusOnHand = () => document.querySelector<HTMLElement>('.hand-cards .card-button[tabindex="0"]')?.focus();

  const handActions = (view: TableView) => ({
    busy: state.sending || state.version < state.pendingVersion,
    selection: selectionFor(view),
    choose: (card: Card) => {
      selectionFor(view).toggle(card);
      state.hint = null;
      render();
    },
    play: (card: Card) => void send({ type: 'card.played', card }),
    explain: (message: string) => {
      state.hint = message;
      render();
    },
  });

  const selectionFor = (view: TableView): PassSelection => {
    // The seats to pass to come with the view, while this seat has yet to pass; a choice under way is kept until they change.
    const recipients = view.hand?.passTo ?? [];
    if (selection === null || !sameSeats(selection.recipients, recipients)) selection = new PassSelection(recipients);
    return selection;
  };

  const seatControls = (view: TableView): SeatControls => {
    const chosen = selectionFor(view);
    return {
      busy: state.sending || state.version < state.pendingVersion,
      selection: chosen,
      aimAt: (to) => {
        chosen.aimAt(to);
        render();
      },
      pass: () => void send({ type: 'cards.passed', passes: chosen.passes() }),
      accuse: (accused) => void send({ type: 'traitor.accused', accused }),
    };
  };

  const send = async (command: PlayerCommand) => {
    if (held === null || state.sending) return;
    state.sending = true;
    state.error = null;
    state.hint = null;
    render();
    try {
      const accepted = await api.send(tableId, held.token, command);
      state.pendingVersion = accepted.version;
      if (command.type !== 'card.played') state.focusHand = true;
      selection?.clear();
    } catch (error) {
      const explained =
        command.type === 'card.played' && state.view !== null && error instanceof ApiError && error.kind === 'illegal'
          ? whyNotPlayable(state.view, command.card)
          : null;
      state.error = explained ?? (error instanceof Error ? error.message : String(error));
    } finally {
      state.sending = false;
      render();
    }
  };

  const leave = async () => {
    if (held === null) return;
    const seat = held.seat;
    const after =
      state.view?.phase === 'seating' ? `Seat ${seat} opens for someone else.` : `A bot plays seat ${seat} until someone takes it.`;
    if (!(await confirmModal('Leave your seat?', `${after} You can take it back while it is free.`, 'Leave seat', 'Stay'))) return;
    try {
      await api.leaveSeat(tableId, seat, held.token);
    } catch (error) {
      // A seat already lost is left all the same.
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) {
        state.error = error instanceof Error ? error.message : String(error);
        render();
        return;
      }
    }
    releaseSeat(tableId);
    rememberLeftSeat(tableId, seat);
    restartAsSpectator(`You left seat ${seat}; a bot plays it now.`);
  };

  const sitDown = async (seat: number) => {
    const name = playerName();
    if (name === '') {
      location.hash = `#/join/${encodeURIComponent(tableId)}/${seat}`;
      return;
    }
    try {
      await sitAt(tableId, seat, name);
    } catch (error) {
      state.error = error instanceof Error ? error.message : String(error);
      render();
    }
  };

  const startRematch = async () => {
    if (held === null || state.view === null) return;
    try {
      const next = await rematch(state.view, tableId, held.seat, playerName() || 'Player');
      location.hash = `#/table/${next}`;
    } catch (error) {
      state.error = error instanceof Error ? error.message : String(error);
      render();
    }
  };

  const restartAsSpectator = (notice: string) => {
    stopLive();
    held = null;
    selection = null;
    state.notice = notice;
    run();
  };

  const firstView = async () => {
    try {
      return await api.view(tableId, held?.token ?? null);
    } catch (error) {
      if (held === null || !(error instanceof ApiError && (error.status === 401 || error.status === 403))) throw error;
      releaseSeat(tableId);
      held = null;
      state.notice = 'Your seat at this table is no longer yours; you are watching.';
      return api.view(tableId, null);
    }
  };

  const considerBreak = () => {
    const view = state.view;
    if (view === null) return;
    // One who left watches in passing, offered the seat back: a summary popping up at each hand's end would cover the
    // offer, and the end of the game is on the page all the same.
    if (held === null && leftSeat(tableId) !== null) {
      between.pass(view);
      return;
    }
    between.consider(view, {
      extra: (shown, handIndex) => dealCheck(tableId, shown, handIndex),
      rematch: held === null ? null : () => void startRematch(),
      replayHref: `#/replay/${tableId}`,
      afterClose: () => {
        if (closed) return;
        focusOnHand();
        considerBreak();
        render();
      },
    });
  };

  const showView = ({ version, view, turnDeadline, activeStates }: VersionedView) => {
    if (closed) return;
    const turnChanged = state.view === null || JSON.stringify(state.view.awaiting) !== JSON.stringify(view.awaiting);
    rememberDeal(tableId, view);
    state.view = view;
    state.version = version;
    state.turnDeadline = turnDeadline;
    if (turnChanged) state.hint = null;
    if (view.phase !== 'passing') selection?.clear();
    tickClock();
    render();
    diagram?.highlight(activeStates);
    considerBreak();
  };

  // Leaving restarts the page as a spectator, and so does the socket closed by the same leave: only the last start follows.
  let starts = 0;
  const start = async () => {
    const started = ++starts;
    const first = await firstView();
    if (closed || started !== starts) return;
    showView(first);
    stopLive = followTable(tableId, held?.token ?? null, first, {
      onView: showView,
      onState: (connection) => {
        if (connection === state.connection) return;
        state.connection = connection;
        render();
      },
      onRefused: (message) => {
        state.error = message;
        render();
      },
      onSeatLost: () => {
        releaseSeat(tableId);
        restartAsSpectator('Your seat was left or taken over; you are watching.');
      },
    });
  };
  const run = () =>
    start().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      replaceChildren(page, h('p', { class: 'error', role: 'alert' }, message), h('a', { href: '#/' }, 'Back to the lobby'));
    });
  run();

  return () => {
    closed = true;
    window.clearInterval(clockTimer);
    dockSize.disconnect();
    between.close();
    cue.reset();
    stopLive();
  };
}

function sameSeats(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((seat, index) => seat === b[index]);
}
