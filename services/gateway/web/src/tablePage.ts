/**
 * A table, for a seated player or a spectator: a bar with the game and the
 * player's choices (rules, sound, leave), the felt with the seats round it
 * and the trick in the middle (felt.ts), the panels beside it (scores, the
 * tricks of the hand, the score sheet, invites, the state diagram), and for
 * a player their hand docked along the bottom (seatDock.ts). Between hands
 * and at the end, betweenHands.ts holds the summary; what the socket tells
 * beside the views (the shared rematch, a seat's time run out) and the
 * table's sounds are tableNotices.ts's. The first view comes over HTTP,
 * every later one (and the rematch as it stands) over the WebSocket;
 * commands go over HTTP. Each region of the page is drawn by a method of
 * its own, all of them again on every change.
 */
import type { TableView } from '../../../../machines/view.js';
import { api, ApiError, type PlayerCommand, type VersionedView } from './api.js';
import { BetweenHands } from './betweenHands.js';
import { scoreSheet, scoresPanel, sevensPanel, tricksPanel, turnSentence } from './board.js';
import { liveDiagram, type LiveDiagram } from './diagram.js';
import { h, replaceChildren } from './dom.js';
import { contributeToNextDeal, dealCheck, rememberDeal } from './fairDeals.js';
import { felt, FeltMemory } from './felt.js';
import { HandFocus, ownAction, whyNotPlayable } from './handBar.js';
import { lastHandPanel } from './handSummary.js';
import { invitePanel, sitAt } from './invites.js';
import { followTable, type LiveState } from './live.js';
import { confirmModal } from './modal.js';
import { focusAfterDialog, focusOnHand, keepFocusOn } from './pageFocus.js';
import { Coach } from './coach.js';
import { TableChat } from './quickChat.js';
import { SeatClock } from './seatClock.js';
import { heldSeat, leftSeat, playerName, releaseSeat, rememberLeftSeat, type HeldSeat } from './seatTokens.js';
import { SeatDock } from './seatDock.js';
import { rolePanel } from './seatPanels.js';
import { gameOverPanel, tableHeader } from './tableHeader.js';
import { TableNotices } from './tableNotices.js';
import { TurnCue } from './turnCue.js';
import { words } from './i18n/index.js';
import { failureWords } from './i18n/refusals.js';
import { shortName } from './words.js';

interface PageState {
  view: TableView | null;
  version: number;
  sending: boolean;
  /** After a command is accepted: the version whose view will show it; the hand waits for it. */
  pendingVersion: number;
  error: string | null;
  notice: string | null;
  /** After a pass or an accusation: put focus on the hand at the next draw (the buttons used are gone). */
  focusHand: boolean;
  connection: LiveState;
}

/** How far the seat at the felt's foot reaches below it: the felt leaves that much room above the dock. */
const SEAT_OVERHANG_PX = 32;

export function showTable(root: HTMLElement, tableId: string, watchOnly: boolean): () => void {
  const page = new TablePage(root, tableId, watchOnly);
  return () => page.close();
}

class TablePage {
  private held: HeldSeat | null;
  private readonly state: PageState = {
    view: null,
    version: 0,
    sending: false,
    pendingVersion: 0,
    error: null,
    notice: null,
    focusHand: false,
    connection: 'connecting',
  };
  private readonly page = h('div', { class: 'table-page' }, h('p', {}, words().loadingTable));
  private readonly clock = new SeatClock();
  private readonly memory = new FeltMemory();
  private readonly focus = new HandFocus();
  private readonly between: BetweenHands;
  private readonly notices: TableNotices;
  private readonly seatDock: SeatDock;
  private readonly cue: TurnCue;
  private readonly chat: TableChat;
  private readonly coach = new Coach();
  private diagram: LiveDiagram | null = null;
  private diagramPanel: HTMLDetailsElement | null = null;
  private dock: HTMLElement | null = null;
  private readonly dockSize = new ResizeObserver(() => this.fitFelt());
  private readonly clockTimer: number;
  private stopLive = () => {};
  private closed = false;
  /** Leaving restarts the page as a spectator, and so does the socket closed by the same leave: only the last start follows. */
  private starts = 0;

  constructor(
    root: HTMLElement,
    private readonly tableId: string,
    watchOnly: boolean,
  ) {
    this.held = watchOnly ? null : heldSeat(tableId);
    this.between = new BetweenHands(tableId);
    this.notices = new TableNotices(tableId, {
      changed: () => this.render(),
      seated: (next) => {
        location.hash = `#/table/${next}`;
      },
      held: () => this.held,
      closeDialog: () => this.between.close(),
    });
    this.cue = new TurnCue('Seven Suitors', this.notices.sounds);
    this.seatDock = new SeatDock({
      busy: () => this.busy(),
      send: (command) => void this.send(command),
      changed: () => this.render(),
    });
    this.chat = new TableChat(tableId, {
      changed: () => this.render(),
      nameOf: (seat) => (this.state.view === null ? words().seat(seat) : words().table.nameAndSeat(shortName(this.state.view, seat), seat)),
    });
    replaceChildren(root, this.page);
    this.clockTimer = window.setInterval(() => {
      this.clock.tick(this.page, this.state.view !== null && ownAction(this.state.view) !== null);
      this.notices.tick();
    }, 1000);
    this.run();
  }

  /**
   * The docked hand covers the foot of the screen: the felt takes the height between its top and the dock, so one's
   * own seat, at the felt's foot, is never under the hand (style.css clamps it between a usable least and most).
   */
  private fitFelt(): void {
    const dockHeight = this.dock?.offsetHeight ?? 0;
    this.page.style.setProperty('--dock-height', `${dockHeight}px`);
    const felt = this.page.querySelector('.felt');
    if (felt === null) return;
    const top = felt.getBoundingClientRect().top + window.scrollY;
    this.page.style.setProperty('--felt-room', `${Math.round(window.innerHeight - dockHeight - top - SEAT_OVERHANG_PX)}px`);
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.clockTimer);
    this.dockSize.disconnect();
    this.between.close();
    this.cue.reset();
    this.notices.close();
    this.chat.close();
    this.stopLive();
  }

  private render(): void {
    const view = this.state.view;
    if (view === null) return;
    this.focus.capture();
    const focused = document.activeElement;
    this.dock = this.held === null ? null : this.seatDock.draw(view);
    replaceChildren(
      this.page,
      this.dock === null ? null : this.skipLink(),
      this.header(view),
      this.statusLine(view),
      this.notices.timedOutLine(),
      this.state.notice === null ? null : h('p', { class: 'notice' }, this.state.notice, ' ', this.retakeButton(view)),
      this.state.error === null ? null : h('p', { class: 'error', role: 'alert' }, this.state.error),
      this.held === null ? null : rolePanel(view),
      this.coachTip(view, 'above-felt'),
      h('div', { class: 'table-layout' }, this.feltColumn(view), this.sidePanels(view)),
      this.dock,
    );
    this.afterDraw(view);
    keepFocusOn(focused);
  }

  /** What follows each draw: the dock's height for the layout, focus back on the hand, the turn cue. */
  private afterDraw(view: TableView): void {
    const dock = this.dock;
    this.dockSize.disconnect();
    if (dock !== null) this.dockSize.observe(dock);
    this.fitFelt();
    this.focus.restore(dock?.querySelector('.hand-cards') ?? null);
    if (this.state.focusHand && !this.state.sending && dock?.querySelector('.hand-cards') != null && !this.between.open) {
      this.state.focusHand = false;
      focusOnHand();
    }
    const own = ownAction(view);
    this.cue.update(own !== null && !this.between.open, own === null ? '' : words().actions[own]);
  }

  private skipLink(): HTMLElement {
    const onclick = (event: Event) => {
      event.preventDefault();
      focusOnHand();
    };
    return h('a', { href: '#', class: 'skip-link', 'data-focus-key': 'skip-link', onclick }, words().goToYourHand);
  }

  private header(view: TableView): HTMLElement {
    return tableHeader(view, {
      tableId: this.tableId,
      seat: this.held?.seat ?? null,
      connection: this.state.connection,
      onSound: () => this.notices.toggleSound(),
      onLeave: () => void this.leave(),
    });
  }

  private statusLine(view: TableView): HTMLElement {
    return h(
      'p',
      { class: `status${ownAction(view) === null ? '' : ' yours'}`, role: 'status', 'aria-live': 'polite' },
      turnSentence(view),
      ownAction(view) === null ? null : [' ', this.clock.warning],
    );
  }

  private feltColumn(view: TableView): HTMLElement {
    const onSit = this.held === null ? (seat: number) => void this.sitDown(seat) : undefined;
    return h(
      'div',
      { class: 'felt-column' },
      view.outcome?.finished ? gameOverPanel(view, this.tableId, this.notices.rematch.panel(this.held)) : null,
      felt(view, { memory: this.memory, onSit, clock: () => this.clock.bar(), bubble: (seat) => this.chat.bubble(seat) }),
    );
  }

  private sidePanels(view: TableView): HTMLElement {
    if (this.diagram === null) {
      this.diagram = liveDiagram(view.game, view.title);
      this.diagramPanel = h(
        'details',
        { class: 'panel diagram-panel', open: window.matchMedia('(min-width: 60rem)').matches },
        h('summary', {}, words().table.stateDiagram),
        this.diagram.element,
      );
    }
    return h(
      'aside',
      { class: 'side' },
      this.coachTip(view, 'in-side'),
      this.chat.panel(this.held),
      this.chat.log,
      invitePanel(view, this.tableId, this.held === null ? undefined : this.startBots(this.held.token)),
      scoresPanel(view),
      lastHandPanel(view, dealCheck(this.tableId, view, view.lastHand?.index ?? -1)),
      tricksPanel(view),
      scoreSheet(view),
      sevensPanel(view),
      this.diagramPanel,
    );
  }

  /**
   * The first-game tip, drawn twice and shown once by style.css: beside the felt on a wide screen, where it takes
   * no height from the felt (one's own seat would go under the dock at 1280×720), above it on a narrow one.
   */
  private coachTip(view: TableView, where: 'above-felt' | 'in-side'): HTMLElement | null {
    const tip = this.coach.tip(view, this.held !== null, () => this.render());
    tip?.classList.add(where);
    return tip;
  }

  private retakeButton(view: TableView): HTMLElement | null {
    const seat = leftSeat(this.tableId);
    if (this.held !== null || seat === null || view.outcome?.finished || view.seats[seat] === undefined) return null;
    return h('button', { type: 'button', class: 'primary retake', onclick: () => void this.sitDown(seat) }, words().takeSeatBack(seat));
  }

  private busy(): boolean {
    return this.state.sending || this.state.version < this.state.pendingVersion;
  }

  private async send(command: PlayerCommand): Promise<void> {
    const { state, held } = this;
    if (held === null || state.sending) return;
    state.sending = true;
    state.error = null;
    this.seatDock.hint = null;
    this.render();
    try {
      const accepted = await api.send(this.tableId, held.token, command);
      state.pendingVersion = accepted.version;
      if (command.type !== 'card.played') state.focusHand = true;
      this.seatDock.sent();
    } catch (error) {
      const explained =
        command.type === 'card.played' && state.view !== null && error instanceof ApiError && error.kind === 'illegal'
          ? whyNotPlayable(state.view, command.card)
          : null;
      state.error = explained ?? failureWords(error);
    } finally {
      state.sending = false;
      this.render();
    }
  }

  private async leave(): Promise<void> {
    const held = this.held;
    if (held === null) return;
    const seat = held.seat;
    const after = this.state.view?.phase === 'seating' ? words().seatOpensForOthers(seat) : words().botPlaysSeat(seat);
    if (!(await confirmModal(words().leaveYourSeat, words().leaveSeatExplained(after), words().leaveSeat, words().stay))) return;
    try {
      await api.leaveSeat(this.tableId, seat, held.token);
    } catch (error) {
      // A seat already lost is left all the same.
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) {
        this.state.error = failureWords(error);
        this.render();
        return;
      }
    }
    releaseSeat(this.tableId);
    rememberLeftSeat(this.tableId, seat);
    this.restartAsSpectator(words().youLeftSeat(seat));
  }

  /** Bots take the open seats the game waits at; the socket brings the view that shows them. */
  private startBots(token: string): () => Promise<void> {
    return () => api.startBots(this.tableId, token).then(() => undefined);
  }

  private async sitDown(seat: number): Promise<void> {
    const name = playerName();
    if (name === '') {
      location.hash = `#/join/${encodeURIComponent(this.tableId)}/${seat}`;
      return;
    }
    try {
      await sitAt(this.tableId, seat, name);
    } catch (error) {
      this.state.error = failureWords(error);
      this.render();
    }
  }

  private proposeRematch(): void {
    if (this.held !== null) void this.notices.rematch.propose(this.held);
  }

  private restartAsSpectator(notice: string): void {
    this.stopLive();
    this.held = null;
    this.seatDock.reset();
    this.state.notice = notice;
    this.run();
  }

  private async firstView(): Promise<VersionedView> {
    try {
      return await api.view(this.tableId, this.held?.token ?? null);
    } catch (error) {
      if (this.held === null || !(error instanceof ApiError && (error.status === 401 || error.status === 403))) throw error;
      releaseSeat(this.tableId);
      this.held = null;
      this.state.notice = words().seatNoLongerYours;
      return api.view(this.tableId, null);
    }
  }

  private considerBreak(): void {
    const view = this.state.view;
    if (view === null) return;
    // One who left watches in passing, offered the seat back: a summary popping up at each hand's end would cover the
    // offer, and the end of the game is on the page all the same.
    if (this.held === null && leftSeat(this.tableId) !== null) {
      this.between.pass(view);
      return;
    }
    this.between.consider(view, {
      extra: (shown, handIndex) => dealCheck(this.tableId, shown, handIndex),
      rematch: this.held === null ? null : () => this.proposeRematch(),
      replayHref: `#/replay/${this.tableId}`,
      afterClose: () => {
        if (this.closed) return;
        this.considerBreak();
        this.render();
        // After the page is drawn again, or what is focused would be gone with it.
        if (!this.between.open) focusAfterDialog();
      },
    });
  }

  private showView({ version, view, turnDeadline, activeStates }: VersionedView): void {
    if (this.closed) return;
    const { state } = this;
    const turnChanged = state.view === null || JSON.stringify(state.view.awaiting) !== JSON.stringify(view.awaiting);
    this.notices.viewChanged(state.view, view);
    rememberDeal(this.tableId, view);
    const seat = this.held;
    if (seat !== null) contributeToNextDeal(this.tableId, view, (command) => api.send(this.tableId, seat.token, command));
    state.view = view;
    state.version = version;
    this.clock.see(turnDeadline);
    this.seatDock.viewChanged(view, turnChanged);
    this.render();
    this.diagram?.highlight(activeStates);
    this.considerBreak();
  }

  private async start(): Promise<void> {
    const started = ++this.starts;
    const first = await this.firstView();
    if (this.closed || started !== this.starts) return;
    this.showView(first);
    this.stopLive = followTable(this.tableId, this.held?.token ?? null, first, {
      onView: (update) => this.showView(update),
      onRematch: (rematch) => this.notices.hearRematch(rematch),
      onTimedOut: (notice) => this.notices.hearTimedOut(this.state.view, notice),
      onChat: (message) => this.chat.hear(message),
      onState: (connection) => {
        if (connection === this.state.connection) return;
        this.state.connection = connection;
        this.render();
      },
      onRefused: (message) => {
        this.state.error = message;
        this.render();
      },
      onSeatLost: () => {
        releaseSeat(this.tableId);
        this.restartAsSpectator(words().seatLeftOrTaken);
      },
    });
  }

  private run(): void {
    this.start().catch((error: unknown) => {
      replaceChildren(
        this.page,
        h('p', { class: 'error', role: 'alert' }, failureWords(error)),
        h('a', { href: '#/' }, words().backToTheLobby),
      );
    });
  }
}
