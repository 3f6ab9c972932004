/**
 * A table event by event: a timeline (slider, buttons, autoplay) over
 * GET /api/tables/:id/replay?at=N, drawn on the same felt as live play, with
 * the state diagram beside it lit at each step. Once the game is over every
 * hand is open, and the replay can be watched as any seat saw it (the
 * service's view of that seat at each step, replaySeatView.ts) or played on
 * from any step (playOn.ts); before that it shows what a spectator saw.
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
import { handProgress, phaseWords, shortName } from './words.js';

/** Autoplay's pace: even "fast" stays under the service's replay limit of 2 steps a second (docs/api.md, "Limits"). */
const SPEEDS: readonly [string, number][] = [
  ['slow', 1500],
  ['normal', 900],
  ['fast', 600],
];

export function showReplay(root: HTMLElement, tableId: string, startAt: number | null, startSeat: number | null): () => void {
  const frame = h('div', { class: 'replay-frame' }, h('p', {}, 'Loading replay…'));
  const slider = h('input', { type: 'range', id: 'timeline', min: 1, max: 1, value: 1, step: 1 });
  const position = h('output', { for: 'timeline', class: 'position', 'aria-live': 'polite' });
  const buttons = {
    first: h('button', { type: 'button', 'aria-label': 'First event' }, '|◀'),
    previous: h('button', { type: 'button', 'aria-label': 'Previous event' }, '◀'),
    play: h('button', { type: 'button', class: 'primary autoplay', 'aria-pressed': 'false' }, '▶ Play'),
    next: h('button', { type: 'button', 'aria-label': 'Next event' }, '▶'),
    last: h('button', { type: 'button', 'aria-label': 'Last event' }, '▶|'),
  };
  const speed = h(
    'select',
    { id: 'replay-speed' },
    SPEEDS.map(([label, ms]) => h('option', { value: ms, selected: label === 'normal' }, label)),
  );
  const seatSelect = h('select', { id: 'replay-seat', disabled: true }, h('option', { value: '' }, 'everyone (all hands open)'));
  const note = h('p', { class: 'muted small replay-note' });
  const playOn = h('button', { type: 'button', class: 'play-on-button', hidden: true }, 'Play on from here');
  const controls = h(
    'div',
    { class: 'timeline', role: 'group', 'aria-label': 'Timeline' },
    buttons.first,
    buttons.previous,
    buttons.play,
    buttons.next,
    buttons.last,
    h('label', { for: 'timeline', class: 'sr-only' }, 'Event'),
    slider,
    h('label', { for: 'replay-speed', class: 'small' }, 'Speed '),
    speed,
    h('label', { for: 'replay-seat', class: 'small' }, 'Watch as '),
    seatSelect,
    position,
  );
  const heading = h('h2', {}, `Replay of table ${tableId}`);
  const side = h('aside', { class: 'side replay-side' });
  replaceChildren(
    root,
    h(
      'div',
      { class: 'replay-page' },
      h(
        'nav',
        {},
        h('a', { href: '#/', class: 'button-like' }, '← Lobby'),
        h('button', { type: 'button', onclick: () => latest !== null && showRules(latest.view) }, 'Rules'),
        playOn,
      ),
      heading,
      controls,
      note,
      h('div', { class: 'replay-layout' }, frame, side),
    ),
  );

  let events: LoggedEvent[] = [];
  let length = 1;
  let at = 1;
  let asSeat: number | null = startSeat;
  let latest: ReplayStep | null = null;
  let requested = 0;
  let closed = false;
  let autoplay: number | undefined;
  let diagram: LiveDiagram | null = null;
  const memory = new FeltMemory();
  /** Steps already fetched, by event and seat: the table right after event N never changes, so stepping back asks nothing. */
  const steps = new Map<string, ReplayStep>();
  /** A finished game's log is public: with it the replay may be watched as a seat (the service refuses that before). */
  const finished = () => events.length > 0;

  const show = async (target: number) => {
    at = Math.max(1, Math.min(length, target));
    slider.value = String(at);
    const ticket = ++requested;
    const seat = finished() ? asSeat : null;
    const key = `${at}/${seat ?? 'all'}`;
    const step = steps.get(key) ?? (await api.replay(tableId, at, seat));
    steps.set(key, step);
    if (ticket !== requested || closed) return;
    latest = step;
    draw(step);
  };

  const draw = (step: ReplayStep) => {
    const view = step.view;
    const seat = finished() ? asSeat : null;
    length = Math.max(events.length, step.version);
    slider.max = String(length);
    slider.value = String(step.at);
    history.replaceState(null, '', `#/replay/${tableId}?at=${step.at}${seat === null ? '' : `&seat=${seat}`}`);
    heading.textContent = `Replay of ${view.title} · table ${tableId}`;
    const words = eventWords(view, events[step.at - 1]);
    position.textContent = `Event ${step.at} of ${length}${words === '' ? '' : `: ${words}`}`;
    slider.setAttribute('aria-valuetext', position.textContent);
    buttons.first.disabled = buttons.previous.disabled = step.at <= 1;
    buttons.next.disabled = buttons.last.disabled = step.at >= length;
    drawSeatChoices(view);
    // A finished game may be played on from any step but its end.
    playOn.hidden = !finished() || view.outcome?.finished === true;
    note.textContent = !finished()
      ? 'The game is not over: the replay shows what a spectator saw. Every hand opens once the game ends.'
      : seat === null
        ? 'Every hand is open. Choose a seat to watch the game as that player saw it.'
        : `As ${shortName(view, seat)} saw it: their own hand and role, and what they could do.`;
    const status = view.outcome?.finished
      ? turnSentence(view)
      : `${phaseWords(view.phase)}${view.hand === null ? '' : ` · ${handProgress(view.hand.number, view.game, view.options)}`}. ${turnSentence(view)}`;
    replaceChildren(
      frame,
      h('p', { class: 'status' }, status),
      felt(view, { memory, bottomSeat: seat ?? 0 }),
      seat === null ? openHands(view) : seatHand(view),
    );
    replaceChildren(
      side,
      diagramPanel(view.game, view.title),
      lastHandPanel(view, dealCheck(tableId, view, view.lastHand?.index ?? -1)),
      scoresPanel(view),
      tricksPanel(view),
      scoreSheet(view),
    );
    diagram?.highlight(step.activeStates);
  };

  const diagramPanel = (game: string, title: string): HTMLElement => {
    diagram ??= liveDiagram(game, title);
    return h('section', { class: 'panel diagram-panel' }, diagram.element);
  };

  const drawSeatChoices = (view: ReplayView) => {
    if (!finished() || seatSelect.options.length > 1) return;
    seatSelect.disabled = false;
    for (const seat of view.seats)
      seatSelect.append(
        h('option', { value: seat.seat, selected: seat.seat === asSeat }, `Seat ${seat.seat} · ${seat.occupant?.name ?? 'empty'}`),
      );
  };

  const go = (target: number) => {
    show(target).catch((error: unknown) =>
      replaceChildren(frame, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error))),
    );
  };
  const stopAutoplay = () => {
    window.clearTimeout(autoplay);
    autoplay = undefined;
    buttons.play.textContent = '▶ Play';
    buttons.play.setAttribute('aria-pressed', 'false');
  };
  const tick = () => {
    if (at >= length || closed) return stopAutoplay();
    show(at + 1).then(
      () => {
        if (autoplay !== undefined) autoplay = window.setTimeout(tick, Number(speed.value));
      },
      () => stopAutoplay(),
    );
  };
  buttons.play.addEventListener('click', () => {
    if (autoplay !== undefined) return stopAutoplay();
    if (at >= length) go(1);
    buttons.play.textContent = '⏸ Pause';
    buttons.play.setAttribute('aria-pressed', 'true');
    autoplay = window.setTimeout(tick, Number(speed.value));
  });
  buttons.first.addEventListener('click', () => go(1));
  buttons.previous.addEventListener('click', () => go(at - 1));
  buttons.next.addEventListener('click', () => go(at + 1));
  buttons.last.addEventListener('click', () => go(length));
  // Dragging the slider asks for the step it rests on, not every step it passes.
  let sliding: number | undefined;
  slider.addEventListener('input', () => {
    window.clearTimeout(sliding);
    sliding = window.setTimeout(() => go(Number(slider.value)), 120);
  });
  playOn.addEventListener('click', () => {
    if (latest === null) return;
    stopAutoplay();
    playOnFrom(tableId, latest.at, latest.view, asSeat ?? latest.view.hand?.turn ?? 0);
  });
  seatSelect.addEventListener('change', () => {
    asSeat = seatSelect.value === '' ? null : Number(seatSelect.value);
    go(at);
  });

  /** The log names each event on the timeline; without it (a game not over), a replay step tells how long the timeline is. */
  const start = async () => {
    events = await api.log(tableId).catch(() => []);
    length = events.length > 0 ? events.length : (await api.replay(tableId, 1)).version;
    await show(startAt ?? length);
  };
  start().catch((error: unknown) =>
    replaceChildren(frame, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error))),
  );

  return () => {
    closed = true;
    stopAutoplay();
  };
}
