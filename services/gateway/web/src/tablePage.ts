/**
 * A table, for a seated player or a spectator: the public board, and for a
 * player their hand and moves (seatPanels.ts), then the game's state diagram
 * with the table's state highlighted (diagram.ts). The first view comes over
 * HTTP, every later one over the WebSocket; commands go over HTTP.
 */
import type { TableView } from '../../../../machines/view.js';
import { api, ApiError, type PlayerCommand, type VersionedView } from './api.js';
import { lastHandPanel, phaseName, scoresPanel, seatsPanel, sevensPanel, trickPanel, turnSentence } from './board.js';
import { liveDiagram, type LiveDiagram } from './diagram.js';
import { h, joined, replaceChildren } from './dom.js';
import { followTable, type LiveState } from './live.js';
import { PassSelection } from './passSelection.js';
import { heldSeat, releaseSeat, type HeldSeat } from './seatTokens.js';
import { actionPanel, handPanel, rolePanel, type SeatControls } from './seatPanels.js';

interface PageState {
  view: TableView | null;
  version: number;
  sending: boolean;
  /** After a command is accepted: the version whose view will show it; the hand waits for it. */
  pendingVersion: number;
  error: string | null;
  notice: string | null;
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
    connection: 'connecting',
    turnDeadline: null,
  };
  const board = h('div', { class: 'table-page' }, h('p', {}, 'Loading table…'));
  const clock = h('span', { class: 'clock' });
  let diagram: LiveDiagram | null = null;
  let stopLive = () => {};
  let closed = false;
  replaceChildren(root, board);

  const tickClock = () => {
    const left = state.turnDeadline === null ? null : Math.max(0, Math.ceil((Date.parse(state.turnDeadline) - Date.now()) / 1000));
    clock.textContent = left === null ? '' : `(turn clock: ${left} s)`;
  };
  const clockTimer = window.setInterval(tickClock, 1000);

  const render = () => {
    const view = state.view;
    if (view === null) return;
    if (diagram === null) {
      diagram = liveDiagram(view.game, view.title);
      root.append(diagram.element);
    }
    const controls = held === null ? null : seatControls(view, held.seat);
    replaceChildren(
      board,
      header(view),
      h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, turnSentence(view), ' ', clock),
      held === null ? null : rolePanel(view),
      state.notice === null ? null : h('p', { class: 'notice' }, state.notice),
      state.error === null ? null : h('p', { class: 'error', role: 'alert' }, state.error),
      h('div', { class: 'board' }, seatsPanel(view), trickPanel(view)),
      controls === null ? null : handPanel(view, controls),
      controls === null ? null : actionPanel(view, controls),
      h('div', { class: 'results' }, scoresPanel(view), sevensPanel(view), lastHandPanel(view)),
    );
  };

  const header = (view: TableView): HTMLElement =>
    h(
      'header',
      { class: 'table-header' },
      h('h2', {}, `${view.title} · table ${tableId}`),
      h(
        'p',
        { class: 'muted' },
        held === null ? 'Spectating' : `Playing as seat ${held.seat}`,
        ` · ${phaseName(view.phase)}`,
        view.hand === null ? '' : ` · hand ${view.hand.number}`,
        state.connection === 'open' ? '' : ` · ${state.connection}…`,
      ),
      h(
        'nav',
        {},
        joined(' · ', [
          h('a', { href: '#/' }, 'Lobby'),
          held === null ? null : h('a', { href: `#/watch/${tableId}` }, 'Watch as spectator'),
          view.outcome?.finished ? h('a', { href: `#/replay/${tableId}` }, 'Replay') : null,
          held !== null && !view.outcome?.finished ? h('button', { type: 'button', class: 'link', onclick: () => void leave() }, 'Leave seat') : null,
        ]),
      ),
    );

  const seatControls = (view: TableView, seat: number): SeatControls => {
    // The seats to pass to come with the view, while this seat has yet to pass; a choice under way is kept until they change.
    const recipients = view.hand?.passTo ?? [];
    if (selection === null || !sameSeats(selection.recipients, recipients)) selection = new PassSelection(recipients);
    const chosen = selection;
    return {
      seat,
      busy: state.sending || state.version < state.pendingVersion,
      selection: chosen,
      choose: (card) => {
        chosen.toggle(card);
        render();
      },
      aimAt: (to) => {
        chosen.aimAt(to);
        render();
      },
      play: (card) => void send({ type: 'card.played', card }),
      pass: () => void send({ type: 'cards.passed', passes: chosen.passes() }),
      accuse: (accused) => void send({ type: 'traitor.accused', accused }),
    };
  };

  const send = async (command: PlayerCommand) => {
    if (held === null || state.sending) return;
    state.sending = true;
    state.error = null;
    render();
    try {
      const accepted = await api.send(tableId, held.token, command);
      state.pendingVersion = accepted.version;
      selection?.clear();
    } catch (error) {
      state.error = error instanceof Error ? error.message : String(error);
    } finally {
      state.sending = false;
      render();
    }
  };

  const leave = async () => {
    if (held === null) return;
    try {
      await api.leaveSeat(tableId, held.seat, held.token);
    } catch (error) {
      // A seat already lost is left all the same.
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) {
        state.error = error instanceof Error ? error.message : String(error);
        render();
        return;
      }
    }
    releaseSeat(tableId);
    location.hash = '#/';
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

  const showView = ({ version, view, turnDeadline, activeStates }: VersionedView) => {
    state.view = view;
    state.version = version;
    state.turnDeadline = turnDeadline;
    if (view.phase !== 'passing') selection?.clear();
    tickClock();
    render();
    diagram?.highlight(activeStates);
  };

  const start = async () => {
    const first = await firstView();
    showView(first);
    if (closed) return;
    stopLive = followTable(tableId, held?.token ?? null, first.version, {
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
        held = null;
        state.notice = 'Your seat was left or taken over; you are watching.';
        run();
      },
    });
  };
  const run = () =>
    start().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      replaceChildren(board, h('p', { class: 'error', role: 'alert' }, message), h('a', { href: '#/' }, 'Back to the lobby'));
    });
  run();

  return () => {
    closed = true;
    window.clearInterval(clockTimer);
    stopLive();
  };
}

function sameSeats(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((seat, index) => seat === b[index]);
}
