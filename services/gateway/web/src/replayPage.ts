/**
 * A table event by event: a timeline (slider, buttons, autoplay) over
 * GET /api/tables/:id/replay?at=N, drawn on the same felt as live play, with
 * the state diagram beside it lit at each step. Once the game is over every
 * hand is open, and the replay can be watched as any seat saw it (the
 * service's view of that seat at each step, replaySeatView.ts) or played on
 * from any step (playOn.ts); before that it shows what a spectator saw.
 * A seat watched is named by its player, never "You": the one watching is
 * not that player. The page's parts are built once (`replayControls`) and
 * each step is drawn region by region.
 */
import { api, type LoggedEvent, type ReplayStep, type ReplayView } from './api.js';
import { scoreSheet, scoresPanel, tricksPanel, turnSentence } from './board.js';
import { liveDiagram, type LiveDiagram } from './diagram.js';
import { h, replaceChildren } from './dom.js';
import { felt, FeltMemory } from './felt.js';
import { dealCheck } from './fairDeals.js';
import { lastHandPanel } from './handSummary.js';
import { playOnFrom } from './playOn.js';
import { showRules } from './tableHeader.js';
import { eventWords, openHands, seatHand } from './replaySeatView.js';
import { words } from './i18n/index.js';
import { failureWords } from './i18n/refusals.js';
import { handProgress, occupantName, phaseWords } from './words.js';

/** Autoplay's pace: even "fast" stays under the service's replay limit of 2 steps a second (docs/api.md, "Limits"). */
const SPEEDS: readonly ['slow' | 'normal' | 'fast', number][] = [
  ['slow', 1500],
  ['normal', 900],
  ['fast', 600],
];

export function showReplay(root: HTMLElement, tableId: string, startAt: number | null, startSeat: number | null): () => void {
  const page = new ReplayPage(root, tableId, startSeat);
  page.begin(startAt);
  return () => page.close();
}

/** The timeline's controls, made once for the page. */
function replayControls() {
  const slider = h('input', { type: 'range', id: 'timeline', min: 1, max: 1, value: 1, step: 1 });
  const position = h('output', { for: 'timeline', class: 'position', 'aria-live': 'polite' });
  const buttons = {
    first: h('button', { type: 'button', 'aria-label': words().firstEvent }, '|◀'),
    previous: h('button', { type: 'button', 'aria-label': words().previousEvent }, '◀'),
    play: h('button', { type: 'button', class: 'primary autoplay', 'aria-pressed': 'false' }, words().table.play),
    next: h('button', { type: 'button', 'aria-label': words().nextEvent }, '▶'),
    last: h('button', { type: 'button', 'aria-label': words().lastEvent }, '▶|'),
  };
  const speed = h(
    'select',
    { id: 'replay-speed' },
    SPEEDS.map(([pace, ms]) => h('option', { value: ms, selected: pace === 'normal' }, words().table.speeds[pace])),
  );
  const seatSelect = h('select', { id: 'replay-seat', disabled: true }, h('option', { value: '' }, words().everyone));
  const element = h(
    'div',
    { class: 'timeline', role: 'group', 'aria-label': words().timeline },
    buttons.first,
    buttons.previous,
    buttons.play,
    buttons.next,
    buttons.last,
    h('label', { for: 'timeline', class: 'sr-only' }, words().table.event),
    slider,
    h('label', { for: 'replay-speed', class: 'small' }, words().table.speed),
    speed,
    h('label', { for: 'replay-seat', class: 'small' }, words().table.watchAs),
    seatSelect,
    position,
  );
  return { element, slider, position, buttons, speed, seatSelect };
}

/** The view as the one watching should read it: a seat watched is shown as its player's, named, not as "You". */
function asWatched(view: ReplayView): ReplayView {
  return typeof view.viewer === 'number' ? { ...view, viewer: 'spectator' } : view;
}

class ReplayPage {
  private readonly frame = h('div', { class: 'replay-frame' }, h('p', {}, words().table.loadingReplay));
  private readonly controls = replayControls();
  private readonly note = h('p', { class: 'muted small replay-note' });
  private readonly playOn = h('button', { type: 'button', class: 'play-on-button', hidden: true }, words().table.playOnFromHere);
  private readonly heading: HTMLElement;
  private readonly side = h('aside', { class: 'side replay-side' });
  private events: LoggedEvent[] = [];
  private length = 1;
  private at = 1;
  private latest: ReplayStep | null = null;
  private requested = 0;
  private closed = false;
  private autoplay: number | undefined;
  private diagram: LiveDiagram | null = null;
  private readonly memory = new FeltMemory();
  /** Steps already fetched, by event and seat: the table right after event N never changes, so stepping back asks nothing. */
  private readonly steps = new Map<string, ReplayStep>();

  constructor(
    root: HTMLElement,
    private readonly tableId: string,
    private asSeat: number | null,
  ) {
    this.heading = h('h2', {}, words().replayOfTable(tableId));
    const nav = h(
      'nav',
      {},
      h('a', { href: '#/', class: 'button-like' }, words().backToLobby),
      h('button', { type: 'button', onclick: () => this.latest !== null && showRules(this.latest.view) }, words().rules),
      this.playOn,
    );
    replaceChildren(
      root,
      h(
        'div',
        { class: 'replay-page' },
        nav,
        this.heading,
        this.controls.element,
        this.note,
        h('div', { class: 'replay-layout' }, this.frame, this.side),
      ),
    );
    this.listen();
  }

  /** The log names each event on the timeline; without it (a game not over), a replay step tells how long the timeline is. */
  begin(startAt: number | null): void {
    const start = async () => {
      this.events = await api.log(this.tableId).catch(() => []);
      this.length = this.events.length > 0 ? this.events.length : (await api.replay(this.tableId, 1)).version;
      await this.show(startAt ?? this.length);
    };
    start().catch((error: unknown) => this.fail(error));
  }

  close(): void {
    this.closed = true;
    this.stopAutoplay();
  }

  /** A finished game's log is public: with it the replay may be watched as a seat (the service refuses that before). */
  private get finished(): boolean {
    return this.events.length > 0;
  }

  private async show(target: number): Promise<void> {
    this.at = Math.max(1, Math.min(this.length, target));
    this.controls.slider.value = String(this.at);
    const ticket = ++this.requested;
    const seat = this.finished ? this.asSeat : null;
    const key = `${this.at}/${seat ?? 'all'}`;
    const step = this.steps.get(key) ?? (await api.replay(this.tableId, this.at, seat));
    this.steps.set(key, step);
    if (ticket !== this.requested || this.closed) return;
    this.latest = step;
    this.draw(step);
  }

  private draw(step: ReplayStep): void {
    const view = step.view;
    const seat = this.finished ? this.asSeat : null;
    this.drawTimeline(step, seat);
    this.drawSeatChoices(view);
    // A finished game may be played on from any step but its end.
    this.playOn.hidden = !this.finished || view.outcome?.finished === true;
    this.note.textContent = this.noteFor(view, seat);
    const watched = asWatched(view);
    const status = view.outcome?.finished
      ? turnSentence(watched)
      : `${phaseWords(view.phase)}${view.hand === null ? '' : ` · ${handProgress(view.hand.number, view.game, view.options)}`}. ${turnSentence(watched)}`;
    replaceChildren(
      this.frame,
      h('p', { class: 'status' }, status),
      felt(view, { memory: this.memory, bottomSeat: seat ?? 0, ownNamed: true }),
      seat === null ? openHands(view) : seatHand(view),
    );
    replaceChildren(
      this.side,
      this.diagramPanel(view.game, view.title),
      lastHandPanel(watched, dealCheck(this.tableId, view, view.lastHand?.index ?? -1)),
      scoresPanel(watched),
      tricksPanel(watched),
      scoreSheet(watched),
    );
    this.diagram?.highlight(step.activeStates);
  }

  private drawTimeline(step: ReplayStep, seat: number | null): void {
    const { slider, position, buttons } = this.controls;
    const view = step.view;
    this.length = Math.max(this.events.length, step.version);
    slider.max = String(this.length);
    slider.value = String(step.at);
    history.replaceState(null, '', `#/replay/${this.tableId}?at=${step.at}${seat === null ? '' : `&seat=${seat}`}`);
    this.heading.textContent = words().replayOf(view.title, this.tableId);
    const event = eventWords(asWatched(view), this.events[step.at - 1]);
    position.textContent = `${words().eventOf(step.at, this.length)}${event === '' ? '' : `: ${event}`}`;
    slider.setAttribute('aria-valuetext', position.textContent);
    buttons.first.disabled = buttons.previous.disabled = step.at <= 1;
    buttons.next.disabled = buttons.last.disabled = step.at >= this.length;
  }

  private noteFor(view: ReplayView, seat: number | null): string {
    if (!this.finished) return words().replayNotOver;
    if (seat === null) return words().replayAllOpen;
    const occupant = view.seats[seat]?.occupant ?? null;
    return words().replayAsSeat(occupant === null ? null : occupantName(occupant), seat);
  }

  private diagramPanel(game: string, title: string): HTMLElement {
    this.diagram ??= liveDiagram(game, title);
    return h('section', { class: 'panel diagram-panel' }, this.diagram.element);
  }

  private drawSeatChoices(view: ReplayView): void {
    const { seatSelect } = this.controls;
    if (!this.finished || seatSelect.options.length > 1) return;
    seatSelect.disabled = false;
    for (const seat of view.seats)
      seatSelect.append(
        h(
          'option',
          { value: seat.seat, selected: seat.seat === this.asSeat },
          words().seatOf(seat.seat, seat.occupant === null ? words().empty : occupantName(seat.occupant)),
        ),
      );
  }

  private fail(error: unknown): void {
    replaceChildren(this.frame, h('p', { class: 'error', role: 'alert' }, failureWords(error)));
  }

  private go(target: number): void {
    this.show(target).catch((error: unknown) => this.fail(error));
  }

  private stopAutoplay(): void {
    window.clearTimeout(this.autoplay);
    this.autoplay = undefined;
    this.controls.buttons.play.textContent = words().table.play;
    this.controls.buttons.play.setAttribute('aria-pressed', 'false');
  }

  private tick(): void {
    if (this.at >= this.length || this.closed) {
      this.stopAutoplay();
      return;
    }
    this.show(this.at + 1).then(
      () => {
        if (this.autoplay !== undefined) this.autoplay = window.setTimeout(() => this.tick(), Number(this.controls.speed.value));
      },
      () => this.stopAutoplay(),
    );
  }

  private listen(): void {
    const { buttons, slider, speed, seatSelect } = this.controls;
    buttons.play.addEventListener('click', () => {
      if (this.autoplay !== undefined) {
        this.stopAutoplay();
        return;
      }
      if (this.at >= this.length) this.go(1);
      buttons.play.textContent = words().table.pause;
      buttons.play.setAttribute('aria-pressed', 'true');
      this.autoplay = window.setTimeout(() => this.tick(), Number(speed.value));
    });
    buttons.first.addEventListener('click', () => this.go(1));
    buttons.previous.addEventListener('click', () => this.go(this.at - 1));
    buttons.next.addEventListener('click', () => this.go(this.at + 1));
    buttons.last.addEventListener('click', () => this.go(this.length));
    // Dragging the slider asks for the step it rests on, not every step it passes.
    let sliding: number | undefined;
    slider.addEventListener('input', () => {
      window.clearTimeout(sliding);
      sliding = window.setTimeout(() => this.go(Number(slider.value)), 120);
    });
    this.playOn.addEventListener('click', () => {
      const latest = this.latest;
      if (latest === null) return;
      this.stopAutoplay();
      playOnFrom(this.tableId, latest.at, asWatched(latest.view), this.asSeat ?? latest.view.hand?.turn ?? 0);
    });
    seatSelect.addEventListener('change', () => {
      this.asSeat = seatSelect.value === '' ? null : Number(seatSelect.value);
      this.go(this.at);
    });
  }
}
