/**
 * The leak scanner (issue 8): whole games of every game and of the options
 * that change what is hidden (specials off, plain, powers; passing none and
 * oneEach; A Traitor of Love's roles and accusations), through the gateway
 * over real loopback HTTP and WebSocket. Two seats of each table are clients
 * that choose their moves from their own views and send them by socket and
 * by HTTP in turn; the service's bots play the others; a spectator watches.
 * Every message those clients receive (views, accepted and refused replies,
 * HTTP views and replays, the lobby, the refusals of the log and the record)
 * is checked against the table's log, never against the views themselves,
 * for another seat's cards, an unrevealed role, another seat's passes or
 * accusation. Along the way the seats try cards other seats hold, and the
 * refusals must read the same whoever holds the card.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { heuristicMove } from '../machines/bots/heuristicBot.js';
import { createRng, type Rng } from '../machines/cards/shuffle.js';
import type { Seat } from '../machines/rules/trick.js';
import type { TableSnapshot } from '../machines/table/snapshot.js';
import { viewFor, type Viewer } from '../machines/view.js';
import { settingsFromEnv, wholeNumber } from '../drivers/flags.js';
import { SocketClient } from '../drivers/socketClient.js';
import { ADMIN, bearer, httpBaseOf, listen, startService, type TestService } from '../drivers/embeddedService.js';
import { httpRequest, type HttpAnswer, type Message } from '../drivers/httpClient.js';
import { cardsNamedIn, expectNoLeak, expectNothingHidden, expectRefusalLeaksNothing, statesOfLog, type SentRefusal } from './leakChecks.js';
import { liftedRateLimits } from '../services/gateway/limits.js';

type Bot = number | { seat: number; kind: 'random' | 'heuristic' };
interface Config {
  readonly game: 'sevenSuitors' | 'antiCupid' | 'traitorOfLove';
  readonly options: Record<string, string>;
  /** The seats played by clients over the API; bots take the rest. */
  readonly clients: readonly Seat[];
  readonly bots: readonly Bot[];
}

const CONFIGS: readonly Config[] = [
  { game: 'sevenSuitors', options: { specials: 'off' }, clients: [0, 3], bots: [1, { seat: 2, kind: 'random' }] },
  { game: 'sevenSuitors', options: { specials: 'plain' }, clients: [1, 2], bots: [0, 3] },
  { game: 'sevenSuitors', options: { specials: 'powers' }, clients: [0, 1], bots: [{ seat: 2, kind: 'random' }, 3] },
  { game: 'antiCupid', options: { specials: 'plain', passing: 'none' }, clients: [0, 2], bots: [1, 3, { seat: 4, kind: 'random' }] },
  { game: 'antiCupid', options: { specials: 'powers', passing: 'oneEach' }, clients: [1, 4], bots: [0, 2, 3] },
  { game: 'traitorOfLove', options: { specials: 'plain' }, clients: [0, 3], bots: [1, 2, 4, 5] },
  { game: 'traitorOfLove', options: { specials: 'powers' }, clients: [2, 5], bots: [0, 1, 3, { seat: 4, kind: 'random' }] },
];
/** Full games per configuration, played at once on one service. */
const { games: GAMES_PER_CONFIG } = settingsFromEnv({ games: wholeNumber({ env: 'LEAK_GAMES', default: 2 }) });
/** A client seat probes the service (wrong cards, HTTP views, replays; every other time the lobby, log and record) before every PROBE_EVERY-th move. */
const PROBE_EVERY = 5;
const LOBBY_FIELDS = ['finished', 'game', 'hand', 'lastEventAt', 'openSeats', 'phase', 'tableId', 'version'];

/** Everything the clients of one table received, to be judged against its log once the game is over. */
class Transcript {
  /** Views (socket, HTTP, replay) as `{ version, view }`, by viewer. */
  readonly views: { viewer: Viewer; message: Message }[] = [];
  readonly refusals: SentRefusal[] = [];
  /** Answers that should name no card at all: the lobby, the refusals of the log and the record. */
  readonly cardless: { what: string; text: string }[] = [];
  /** Refusals of one attempt, each with a card of a different holder (or none): they must read alike. */
  readonly alike: { what: string; answers: { card: string; error: string; message: string }[] }[] = [];
  accepted = 0;
  /** Refusals sent but not yet bounded by the next move of their seat. */
  private readonly pending = new Map<Seat, { refusal: { error: string; message: string }; from: number; named: string[] }[]>();

  refused(viewer: Seat, refusal: { error: string; message: string }, from: number, named: readonly string[]): void {
    const list = this.pending.get(viewer) ?? [];
    list.push({ refusal: { error: refusal.error, message: refusal.message }, from, named: [...named] });
    this.pending.set(viewer, list);
  }

  /** The seat's refusals were decided at or before `to`: its next move, or the end of the game. */
  bound(viewer: Seat, to: number): void {
    for (const each of this.pending.get(viewer) ?? []) this.refusals.push({ ...each, viewer, to });
    this.pending.delete(viewer);
  }

  /** Messages scanned: views (socket, HTTP, replay), refusals, and the rest (accepted replies, lobby, log and record refusals). */
  get counts(): [number, number, number] {
    return [this.views.length, this.refusals.length, this.cardless.length + this.accepted];
  }
}

interface Table {
  readonly tableId: string;
  readonly service: TestService;
  readonly http: string;
  readonly transcript: Transcript;
}

const services: TestService[] = [];
afterAll(async () => {
  await Promise.all(services.map((service) => service.close()));
});

const scanned = new Map<string, [number, number, number]>();
afterAll(() => {
  // The figures of the run, for the closing note of issue 8.
  const figures = [...scanned].map(
    ([game, [views, refusals, rest]]) => `${game} ${views + refusals + rest} (${views} views, ${refusals} refusals, ${rest} other)`,
  );
  console.info(`leak scan, messages scanned: ${figures.join('; ')}`);
});

describe.each(CONFIGS)('$game with $options', (config) => {
  it(`${GAMES_PER_CONFIG} whole games: nothing a seat or the spectator receives shows another seat's cards, role, passes or accusation`, async () => {
    const service = startService({ limits: liftedRateLimits() });
    services.push(service);
    const base = await listen(service.app);
    const games = await Promise.all(Array.from({ length: GAMES_PER_CONFIG }, (_, i) => playWatchedGame(service, base, config, i)));
    const counts = scanned.get(config.game) ?? [0, 0, 0];
    for (const { table, clients, spectator, states } of games) {
      const { transcript } = table;
      expect(transcript.refusals.length, 'the seats tried cards they do not hold').toBeGreaterThan(10);
      expect(transcript.alike.length).toBeGreaterThan(5);
      for (const [seat, client] of clients) scanSocket(client, seat, transcript);
      scanSocket(spectator, 'spectator', transcript);
      for (const { viewer, message } of transcript.views) expectNoLeak(message, viewer, states);
      for (const refusal of transcript.refusals) expectRefusalLeaksNothing(refusal, states);
      for (const { what, text } of transcript.cardless) expect(cardsNamedIn(text), what).toEqual([]);
      for (const { what, answers } of transcript.alike) expectAlike(what, answers);
      transcript.counts.forEach((count, i) => (counts[i] += count));
    }
    scanned.set(config.game, counts);
  });
});

/** One game from the empty table to its end; resolves once both clients and the spectator have seen the end. */
async function playWatchedGame(service: TestService, base: string, config: Config, index: number) {
  const http = httpBaseOf(base);
  const created = await httpRequest(http, 'POST', '/api/tables', {
    body: { game: config.game, options: config.options, bots: config.bots },
  });
  expect(created.status, created.text).toBe(201);
  const table: Table = { tableId: created.body.tableId, service, http, transcript: new Transcript() };
  // Every other game's sockets are sent what changed rather than whole views (docs/api.md, `views=changes`): both are scanned.
  const views = index % 2 === 1 ? 'changes' : 'whole';
  const spectator = await SocketClient.open(`${base}/api/tables/${table.tableId}/socket?views=${views}`);
  // A spectator may not act; its refusal is scanned with the rest.
  spectator.send({ type: 'command', id: 'spectator-move', command: { type: 'card.played', card: '1-1' } });
  const clients = new Map<Seat, SocketClient>();
  const tokens = new Map<Seat, string>();
  for (const seat of config.clients) {
    const joined = await httpRequest(http, 'POST', `/api/tables/${table.tableId}/seats/${seat}`, { body: { name: `Client ${seat}` } });
    expect(joined.status, joined.text).toBe(201);
    tokens.set(seat, joined.body.token);
    table.transcript.cardless.push({ what: `seat ${seat} joining`, text: joined.text });
    clients.set(seat, await SocketClient.open(`${base}/api/tables/${table.tableId}/socket?token=${joined.body.token}&views=${views}`));
  }
  await Promise.all(
    config.clients.map((seat) =>
      playSeat(table, seat, clients.get(seat)!, tokens.get(seat)!, createRng(`leaks-${config.game}-${index}-${seat}`)),
    ),
  );
  await spectator.next((message) => message.view?.phase === 'gameOver', 'the spectator to see the end');
  const log = await httpRequest(http, 'GET', `/api/tables/${table.tableId}/log`);
  expect(log.status, 'the log opens once the game is over').toBe(200);
  const states = statesOfLog(log.body.events);
  const contributed = log.body.events.filter((event: { type: string }) => event.type === 'deal.contributed');
  if (config.clients.length > 0) expect(contributed.length, 'the clients contributed to the deals').toBeGreaterThan(0);
  for (const seat of config.clients) table.transcript.bound(seat, states.length - 1);
  await Promise.all([...clients.values(), spectator].map((client) => client.close()));
  if (views === 'changes')
    for (const client of [...clients.values(), spectator])
      expect(client.messages.filter((message) => message.sentAs !== undefined).length, 'views sent as changes').toBeGreaterThan(10);
  return { table, clients, spectator, states };
}

/** A client seat: waits until it is awaited, sometimes probes, then makes the heuristic bot's move from its own view. */
async function playSeat(table: Table, seat: Seat, client: SocketClient, token: string, rng: Rng): Promise<void> {
  let acted = 0;
  let contributedTo = -1;
  for (let move = 0; ; move++) {
    const awaited = (message: Message) =>
      message.type === 'view' &&
      message.version >= acted &&
      (message.view.phase === 'gameOver' || message.view.awaiting.some((each: { seat: number }) => each.seat === seat));
    const { version, view } = await client.next(awaited, `seat ${seat} to be awaited after version ${acted}`);
    if (view.phase === 'gameOver') return;
    if (view.nextDeal !== null && view.nextDeal.index > contributedTo) {
      // Each client contributes to every deal it can, so the scan meets real contributions before and after their reveal.
      contributedTo = view.nextDeal.index;
      acted = await contribute(client, contributedTo, rng);
    }
    const { action } = view.awaiting.find((each: { seat: number }) => each.seat === seat);
    const { seat: _ours, ...command } = heuristicMove(view, action, rng);
    if (move % PROBE_EVERY === 0) await probe(table, seat, client, token, version, command, move);
    const id = `move-${version}`;
    if (move % 2 === 0) {
      client.send({ type: 'command', id, command });
      const reply = await client.next((message) => message.id === id, `the answer to ${id}`);
      expect(reply, JSON.stringify(command)).toMatchObject({ type: 'accepted' });
      acted = reply.version;
    } else {
      const reply = await httpRequest(table.http, 'POST', `/api/tables/${table.tableId}/commands`, {
        body: command,
        headers: bearer(token),
      });
      expect(reply.status, reply.text).toBe(200);
      table.transcript.cardless.push({ what: `seat ${seat}'s command accepted`, text: reply.text });
      acted = reply.body.version;
    }
    table.transcript.accepted++;
    table.transcript.bound(seat, acted);
  }
}

/** Sends 32 bytes from `rng` as the seat's contribution to hand `hand`; the version it was logged at. */
async function contribute(client: SocketClient, hand: number, rng: Rng): Promise<number> {
  const contribution = Array.from({ length: 8 }, () =>
    rng
      .below(2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
  const id = `contribute-${hand}`;
  client.send({ type: 'command', id, command: { type: 'deal.contributed', hand, contribution } });
  const reply = await client.next((message) => message.id === id, `the answer to ${id}`);
  expect(reply, `the contribution to hand ${hand}`).toMatchObject({ type: 'accepted' });
  return reply.version;
}

/**
 * While the table waits for this seat (so its own hand stands still), the
 * seat tries what a curious player would: cards that other seats hold,
 * another seat's move, the log and record, and reads every view it may.
 */
async function probe(
  table: Table,
  seat: Seat,
  client: SocketClient,
  token: string,
  version: number,
  move: Message,
  count: number,
): Promise<void> {
  const { tableId, http, transcript } = table;
  // The truth from the host, never from the views: who holds what right now.
  const { snapshot } = await table.service.host.snapshot(tableId);
  const attempts = othersCards(snapshot, seat).map((card) => ({ card, command: withCard(move, card) }));
  if (attempts.length > 1 && attempts[0].command !== null) {
    const answers = [];
    for (const [i, { card, command }] of attempts.entries()) {
      const refusal = i % 2 === 0 ? await viaSocket(client, `probe-${version}-${i}`, command) : await viaHttp(table, token, command);
      transcript.refused(seat, refusal, version, [card]);
      answers.push({ card, ...refusal });
    }
    transcript.alike.push({ what: `seat ${seat} trying ${JSON.stringify(move)} with others' cards at version ${version}`, answers });
  }
  const someoneElse = (seat + 1) % snapshot.context.seatCount;
  transcript.refused(
    seat,
    await viaSocket(client, `as-${someoneElse}-${version}`, { ...move, seat: someoneElse }),
    version,
    cardsNamedIn(JSON.stringify(move)),
  );

  const views: [Viewer, Record<string, string>][] = [
    [seat, bearer(token)],
    ['spectator', {}],
    // The operator's token sees what a spectator sees; it reads logs, not hands.
    ['spectator', ADMIN],
  ];
  for (const [viewer, headers] of views) {
    const answer = await httpRequest(http, 'GET', `/api/tables/${tableId}/view`, { headers });
    expect(answer.status, answer.text).toBe(200);
    transcript.views.push({ viewer, message: answer.body });
  }
  const at = 1 + ((count * 7919) % version);
  const replay = await httpRequest(http, 'GET', `/api/tables/${tableId}/replay?at=${at}`);
  expect(replay.status, replay.text).toBe(200);
  // A game in play replays only as the spectator saw it.
  transcript.views.push({ viewer: 'spectator', message: { ...replay.body, version: at } });

  if ((count / PROBE_EVERY) % 2 === 1) return;
  const lobby = await httpRequest(http, 'GET', '/api/tables');
  expect(lobby.status).toBe(200);
  for (const entry of lobby.body.tables) expect(Object.keys(entry).sort()).toEqual(LOBBY_FIELDS);
  transcript.cardless.push({ what: 'the lobby', text: lobby.text });
  for (const what of ['log', 'record']) {
    for (const [headers, status] of [
      [{}, 409],
      [bearer(token), 403],
    ] as const) {
      const refused = await httpRequest(http, 'GET', `/api/tables/${tableId}/${what}`, { headers });
      expect(refused.status, `the ${what} of a game in play`).toBe(status);
      transcript.cardless.push({
        what: `the ${what} refused to ${Object.keys(headers).length === 0 ? 'anyone' : `seat ${seat}`}`,
        text: refused.text,
      });
    }
  }
}

/** One card held by each other seat, then one already played if there is one: a refusal must not tell them apart. */
function othersCards(snapshot: TableSnapshot, seat: Seat): string[] {
  const hand = snapshot.context.hand;
  if (hand === null) return [];
  const held = hand.holdings.flatMap((cards, holder) => (holder === seat || cards.length === 0 ? [] : [cards[cards.length >> 1]]));
  const played = [...hand.tricks.flatMap((trick) => trick.plays), ...(hand.trick?.plays ?? [])].map((play) => play.card);
  return played.length === 0 ? held : [...held, played[0]];
}

/** The seat's own move with a card it does not hold in place of its (first) card; null for a move without cards. */
function withCard(move: Message, card: string): Message | null {
  switch (move.type) {
    case 'card.played':
      return { ...move, card };
    case 'cards.passed':
      return { ...move, passes: move.passes.map((pass: Message, i: number) => (i === 0 ? { ...pass, card } : pass)) };
    default:
      return null;
  }
}

async function viaSocket(client: SocketClient, id: string, command: Message): Promise<{ error: string; message: string }> {
  client.send({ type: 'command', id, command });
  const reply = await client.next((message) => message.id === id, `the answer to ${id}`);
  expect(reply.type, `${JSON.stringify(command)} must be refused`).toBe('refused');
  return reply;
}

async function viaHttp(table: Table, token: string, command: Message): Promise<{ error: string; message: string }> {
  const answer: HttpAnswer = await httpRequest(table.http, 'POST', `/api/tables/${table.tableId}/commands`, {
    body: command,
    headers: bearer(token),
  });
  expect(answer.status, `${JSON.stringify(command)} must be refused`).toBeGreaterThanOrEqual(400);
  return answer.body;
}

/** Every message a socket received: views are scanned with the rest; replies must be ones the client asked for. */
function scanSocket(client: SocketClient, viewer: Viewer, transcript: Transcript): void {
  for (const message of client.messages) {
    switch (message.type) {
      case 'view':
        transcript.views.push({ viewer, message });
        break;
      case 'accepted':
        expect(Object.keys(message).sort()).toEqual(['id', 'type', 'version']);
        break;
      case 'refused':
        // The seats' refusals are in the transcript with their bounds; the spectator's must name no card.
        if (viewer === 'spectator') transcript.cardless.push({ what: "the spectator's refusal", text: message.message });
        expect(String(message.id)).toMatch(/^(probe|as|spectator)-/);
        break;
      default:
        expect.fail(`an unexpected message reached ${viewer}: ${JSON.stringify(message)}`);
    }
  }
}

/** Refusals of the same move with different cards read the same once the card is blanked out. */
function expectAlike(what: string, answers: readonly { card: string; error: string; message: string }[]): void {
  const blanked = answers.map(({ card, error, message }) => `${error}: ${message.split(card).join('<card>')}`);
  expect(new Set(blanked).size, `${what}: ${blanked.join(' | ')}`).toBe(1);
}

describe('the scanner itself', () => {
  /** A real table in trick play and in passing, from a real game's log. */
  async function playedGame(game: Config['game']) {
    const service = startService({ limits: liftedRateLimits() });
    services.push(service);
    const http = httpBaseOf(await listen(service.app));
    const created = await httpRequest(http, 'POST', '/api/tables', {
      body: {
        game,
        options: game === 'sevenSuitors' ? { end: 'hands:1' } : {},
        bots: [0, 1, 2, 3, 4, 5].slice(0, { sevenSuitors: 4, antiCupid: 5, traitorOfLove: 6 }[game]),
      },
    });
    const { tableId } = created.body;
    let log: HttpAnswer;
    const deadline = Date.now() + 20_000;
    do {
      log = await httpRequest(http, 'GET', `/api/tables/${tableId}/log`);
    } while (log.status !== 200 && Date.now() < deadline);
    const states = statesOfLog(log.body.events);
    const at = (phase: string, where: (snapshot: TableSnapshot) => boolean = () => true) =>
      states.findIndex((snapshot) => snapshot !== undefined && viewFor(snapshot, 'spectator').phase === phase && where(snapshot));
    return { states, at };
  }

  it('fails on a planted leak: another seat’s card anywhere in a message, a role, a pass, an accusation, a live hand passed off as the last one, a seed before its reveal', async () => {
    const { states, at } = await playedGame('traitorOfLove');
    const trickPlay = at('trickPlay', (snapshot) => snapshot.context.hand!.tricks.length > 0);
    const accusing = at('accusation', (snapshot) => snapshot.context.hand!.accusations!.filter((each) => each !== null).length === 1);
    const snapshot = states[trickPlay];
    const hand = snapshot.context.hand!;
    const traitor = hand.roles!.indexOf(7);
    // A seat that is not the Traitor, so the Traitor's role is hidden from it.
    const seat = traitor === 0 ? 1 : 0;
    const [other, another] = [1, 2].map((step) => (seat + step) % snapshot.context.seatCount);
    const message = (version: number, viewer: Viewer) => ({
      type: 'view',
      version,
      view: viewFor(states[version], viewer),
      turnDeadline: null,
    });
    const honest = message(trickPlay, seat);
    const watching = message(accusing, 'spectator');
    expect(() => expectNoLeak(honest, seat, states)).not.toThrow();
    expect(() => expectNoLeak(watching, 'spectator', states)).not.toThrow();

    const othersCard = hand.holdings[other][0];
    const accused = states[accusing].context.hand!.accusations!.find((each) => each !== null);
    const planted: [string, Message, Viewer, number][] = [
      ['a card in a field beside the view', { ...honest, turnDeadline: othersCard }, seat, trickPlay],
      [
        'a card in the trick',
        {
          ...honest,
          view: { ...honest.view, hand: { ...honest.view.hand, trick: { leader: other, plays: [{ seat: other, card: othersCard }] } } },
        },
        seat,
        trickPlay,
      ],
      [
        'a hand shown to the spectator',
        { ...watching, view: { ...watching.view, hand: { ...watching.view.hand, cards: [] } } },
        'spectator',
        accusing,
      ],
      [
        'the Traitor’s role',
        {
          ...honest,
          view: { ...honest.view, seats: honest.view.seats.map((each, i) => (i === traitor ? { ...each, role: 'traitor' } : each)) },
        },
        seat,
        trickPlay,
      ],
      ['the Traitor before the reveal', { ...honest, view: { ...honest.view, hand: { ...honest.view.hand, traitor } } }, seat, trickPlay],
      ['the Traitor’s role card', { ...honest, view: { ...honest.view, hand: { ...honest.view.hand, roleCard: 7 } } }, seat, trickPlay],
      [
        'a pass between two other seats',
        {
          ...honest,
          view: { ...honest.view, hand: { ...honest.view.hand, passesReceived: [{ from: other, to: another, card: othersCard }] } },
        },
        seat,
        trickPlay,
      ],
      [
        'an accusation before all are in',
        { ...watching, view: { ...watching.view, hand: { ...watching.view.hand, accusation: accused } } },
        'spectator',
        accusing,
      ],
      [
        'the hand in play as the last hand',
        {
          ...honest,
          view: {
            ...honest.view,
            lastHand: { index: hand.index, trump: null, antiCupid: null, finalTrick: null, traitor: null, accusations: null },
          },
        },
        seat,
        trickPlay,
      ],
      [
        'the seed of the hand in play, revealed early',
        { ...honest, view: { ...honest.view, revealedDeals: [...honest.view.revealedDeals, { index: hand.index, ...hand.fairness! }] } },
        seat,
        trickPlay,
      ],
      [
        'the seed of the hand in play, anywhere in the message',
        { ...honest, turnDeadline: `deadline ${hand.fairness!.seed}` },
        seat,
        trickPlay,
      ],
      [
        'the seed of the hand in play, in the last hand',
        { ...honest, view: { ...honest.view, lastHand: { ...honest.view.lastHand!, seed: hand.fairness!.seed } } },
        seat,
        trickPlay,
      ],
      [
        'a 256-bit value that is no public commitment or seed',
        { ...honest, view: { ...honest.view, hand: { ...honest.view.hand!, commitment: 'ab'.repeat(32) } } },
        seat,
        trickPlay,
      ],
    ];
    // Each leak is caught by the scan alone (as if viewFor itself had leaked it), and by the whole check.
    for (const [what, leaky, viewer, version] of planted) {
      expect(() => expectNothingHidden(leaky, viewer, states[version]), what).toThrow();
      expect(() => expectNoLeak(leaky, viewer, states), what).toThrow();
    }

    // A seat's contribution to the hand in play is as secret as its seed; once the hand is scored it is public.
    const contribution = 'cd'.repeat(32);
    const contributions = (hand.fairness!.contributions ?? hand.deal.map(() => null)).map((each, i) => (i === other ? contribution : each));
    const contributed = {
      ...snapshot,
      context: { ...snapshot.context, hand: { ...hand, fairness: { ...hand.fairness!, contributions } } },
    };
    expect(() => expectNothingHidden({ ...honest, turnDeadline: contribution }, seat, contributed as typeof snapshot)).toThrow(
      `seat ${other}'s contribution to hand ${hand.index} before its reveal`,
    );
    const scored = { ...contributed.context, revealedDeals: [{ index: hand.index, ...contributed.context.hand.fairness }] };
    expect(() =>
      expectNothingHidden({ ...honest, turnDeadline: contribution }, seat, { ...contributed, context: scored } as typeof snapshot),
    ).not.toThrow();
  });

  it('fails on a refusal that names a card neither the seat’s own nor in its command, and on refusals that tell holders apart', async () => {
    const { states, at } = await playedGame('sevenSuitors');
    const passing = at('passing');
    const [, one, two] = states[passing].context.hand!.holdings;
    const own = states[passing].context.hand!.holdings[0][0];
    const refusal = (message: string, named: string[]): SentRefusal => ({
      refusal: { error: 'illegal', message },
      viewer: 0,
      from: passing,
      to: passing,
      named,
    });
    expect(() => expectRefusalLeaksNothing(refusal(`${one[0]} is not in seat 0's hand`, [one[0]]), states)).not.toThrow();
    expect(() =>
      expectRefusalLeaksNothing(refusal(`seat 0 must follow Clubs, the suit led (4): its card (${own}) is in its hand`, []), states),
    ).not.toThrow();
    expect(() =>
      expectRefusalLeaksNothing(refusal(`${one[0]} is not in seat 0's hand; seat 2 holds ${two[0]}`, [one[0]]), states),
    ).toThrow();
    expect(() =>
      expectAlike('held by 1 and 2', [
        { card: one[0], error: 'illegal', message: `${one[0]} is not in seat 0's hand` },
        { card: two[0], error: 'illegal', message: `${two[0]} is not in seat 0's hand` },
      ]),
    ).not.toThrow();
    expect(() =>
      expectAlike('held by 1 and 2', [
        { card: one[0], error: 'illegal', message: `${one[0]} is held by seat 1` },
        { card: two[0], error: 'illegal', message: `${two[0]} is held by seat 2` },
      ]),
    ).toThrow();
    expect(cardsNamedIn(JSON.stringify({ tables: [{ tableId: 't-12345678-9abc', hand: 3 }] }))).toEqual([]);
    expect(cardsNamedIn(`{"openSeats":[1],"note":"${one[0]}"}`)).toEqual([one[0]]);
  });
});
