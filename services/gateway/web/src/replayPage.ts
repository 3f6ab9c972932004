/**
 * A finished table, event by event: a timeline (slider and buttons) over
 * GET /api/tables/:id/replay?at=N, drawn with the same board as live play,
 * every hand open once the game is over, and the state diagram highlighting
 * the state after each step.
 */
import type { Card } from '../../../../machines/cards/card.js';
import { api, type LoggedEvent, type ReplayStep, type ReplayView } from './api.js';
import { cardName, sortCards } from './cards.js';
import { h, replaceChildren } from './dom.js';
import { cardFace, lastHandPanel, phaseName, scoresPanel, seatName, seatsPanel, sevensPanel, trickPanel, turnSentence } from './board.js';
import { liveDiagram, type LiveDiagram } from './diagram.js';

export function showReplay(root: HTMLElement, tableId: string, startAt: number | null): () => void {
  const frame = h('div', { class: 'replay-frame' }, h('p', {}, 'Loading replay…'));
  const slider = h('input', { type: 'range', id: 'timeline', min: 1, max: 1, value: 1, step: 1 });
  const position = h('output', { for: 'timeline', class: 'position', 'aria-live': 'polite' });
  const buttons = {
    first: h('button', { type: 'button', 'aria-label': 'First event' }, '« First'),
    previous: h('button', { type: 'button', 'aria-label': 'Previous event' }, '◀ Previous'),
    next: h('button', { type: 'button', 'aria-label': 'Next event' }, 'Next ▶'),
    last: h('button', { type: 'button', 'aria-label': 'Last event' }, 'Last »'),
  };
  const controls = h(
    'div',
    { class: 'timeline', role: 'group', 'aria-label': 'Timeline' },
    buttons.first,
    buttons.previous,
    h('label', { for: 'timeline', class: 'sr-only' }, 'Event'),
    slider,
    buttons.next,
    buttons.last,
    position,
  );
  const heading = h('h2', {}, `Replay of table ${tableId}`);
  replaceChildren(root, h('div', { class: 'replay-page' }, h('nav', {}, h('a', { href: '#/' }, 'Lobby')), heading, controls, frame));

  let events: LoggedEvent[] = [];
  let length = 1;
  let at = 1;
  let requested = 0;
  let closed = false;
  let diagram: LiveDiagram | null = null;

  const show = async (target: number) => {
    at = Math.max(1, Math.min(length, target));
    slider.value = String(at);
    const ticket = ++requested;
    const step = await api.replay(tableId, at);
    if (ticket !== requested || closed) return;
    draw(step);
  };

  const draw = (step: ReplayStep) => {
    const view = step.view;
    length = Math.max(events.length, step.version);
    slider.max = String(length);
    slider.value = String(step.at);
    history.replaceState(null, '', `#/replay/${tableId}?at=${step.at}`);
    heading.textContent = `Replay of ${view.title} · table ${tableId}`;
    position.textContent = `Event ${step.at} of ${length}: ${eventWords(events[step.at - 1])}`;
    slider.setAttribute('aria-valuetext', position.textContent);
    buttons.first.disabled = buttons.previous.disabled = step.at <= 1;
    buttons.next.disabled = buttons.last.disabled = step.at >= length;
    replaceChildren(
      frame,
      h('p', { class: 'status' }, view.outcome?.finished ? turnSentence(view) : `${phaseName(view.phase)}${view.hand === null ? '' : ` · hand ${view.hand.number}`}. ${turnSentence(view)}`),
      h('div', { class: 'board' }, seatsPanel(view), trickPanel(view)),
      openHands(view),
      h('div', { class: 'results' }, scoresPanel(view), sevensPanel(view), lastHandPanel(view)),
    );
    if (diagram === null) {
      diagram = liveDiagram(view.game, view.title);
      root.append(diagram.element);
    }
    diagram.highlight(step.activeStates);
  };

  const go = (target: number) => {
    show(target).catch((error: unknown) => replaceChildren(frame, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error))));
  };
  buttons.first.addEventListener('click', () => go(1));
  buttons.previous.addEventListener('click', () => go(at - 1));
  buttons.next.addEventListener('click', () => go(at + 1));
  buttons.last.addEventListener('click', () => go(length));
  slider.addEventListener('input', () => go(Number(slider.value)));

  /** The log names each event on the timeline; without it, a replay step tells how long the timeline is. */
  const start = async () => {
    events = await api.log(tableId).catch(() => []);
    length = events.length > 0 ? events.length : (await api.replay(tableId, 1)).version;
    await show(startAt ?? length);
  };
  start().catch((error: unknown) => replaceChildren(frame, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error))));

  return () => {
    closed = true;
  };
}

/** Once the game is over a replay shows every seat's hand, as each seat saw it. */
function openHands(view: ReplayView): HTMLElement | null {
  if (view.openHands === undefined) return null;
  return h(
    'section',
    { class: 'open-hands', 'aria-label': 'Every hand' },
    h('h3', {}, 'Every hand'),
    h(
      'ul',
      {},
      view.openHands.map((open) =>
        h(
          'li',
          { 'data-seat': open.seat },
          h('strong', {}, `${seatName(view, open.seat)}${open.role === null ? '' : open.role === 'traitor' ? ' (Traitor)' : ' (Matchmaker)'}: `),
          open.cards.length === 0 ? 'no cards' : sortCards(open.cards).map(cardFace),
          open.passesSent.length === 0 ? null : h('span', { class: 'muted' }, ' passes ', open.passesSent.map((pass) => h('span', {}, cardFace(pass.card), ` to seat ${pass.to} `))),
          open.accusation === null ? null : h('span', { class: 'muted' }, ` named seat ${open.accusation}`),
        ),
      ),
    ),
  );
}

/** One log event in words: "seat 2 played 9 of Diamonds". */
function eventWords(event: LoggedEvent | undefined): string {
  if (event === undefined) return '';
  const data = event.data;
  const seat = typeof data.seat === 'number' ? `Seat ${data.seat}` : '';
  switch (event.type) {
    case 'table.created':
      return 'table opened';
    case 'seat.joined': {
      const player = data.player as { name?: string; bot?: boolean } | undefined;
      return `${player?.name ?? 'someone'}${player?.bot ? ' (bot)' : ''} sat at ${seat.toLowerCase()}`;
    }
    case 'seat.left':
      return `${seat} left`;
    case 'hand.dealt':
      return 'a hand was dealt';
    case 'cards.passed':
      return `${seat} passed`;
    case 'card.played':
      return `${seat} played ${cardName(data.card as Card)}`;
    case 'traitor.accused':
      return `${seat} named seat ${String(data.accused)}`;
    case 'turn.timedOut':
      return `${seat}'s turn clock ran out`;
    default:
      return event.type;
  }
}
