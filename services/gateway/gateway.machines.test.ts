/**
 * The machine routes: GET /machines lists the games and their options, GET
 * /machines/<game>.<svg|dot|mmd|json> serves each statechart (made once and
 * kept), and every view the gateway sends (socket, HTTP view, replay)
 * carries `activeStates`, the states the table is in as of that view.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, GAME_NAMES, GAMES, parseOptions, type GameName } from '../../machines/table/options.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { toDot } from '../diagram/dot.js';
import { modelOfGame } from '../diagram/files.js';
import { toMermaid } from '../diagram/mermaid.js';
import type { DiagramModel } from '../diagram/model.js';
import { activeStatesOf, machineFile } from './routes/machineRoutes.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { waitFor } from '../../drivers/polling.js';
import { bearer, listen, startService, type TestService } from '../../drivers/embeddedService.js';
import type { Message } from '../../drivers/httpClient.js';
import { statesOfLog } from '../../test/leakChecks.js';

const services: TestService[] = [];
const clients: SocketClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(services.splice(0).map((service) => service.close()));
});

function service(): TestService {
  const started = startService();
  services.push(started);
  return started;
}

/** The actor's own answer, state by state: is the table in this state? */
function statesTheActorIsIn(model: DiagramModel, snapshot: TableSnapshot): string[] {
  return model.states
    .filter((state) => state.parentId === null || snapshot.matches(state.id.slice(model.id.length + 1) as never))
    .map((state) => state.id);
}

const CONTENT_TYPES = {
  svg: 'image/svg+xml; charset=utf-8',
  dot: 'text/vnd.graphviz; charset=utf-8',
  mmd: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

describe('GET /machines', () => {
  it('lists each game with its seats, its rules options (values and default) and its diagram files', async () => {
    const { app } = service();
    const response = await app.inject({ method: 'GET', url: '/machines' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const machines = response.json() as {
      game: GameName;
      title: string;
      seats: number;
      options: Record<string, { values: string[]; default: string }>;
      diagrams: Record<string, string>;
    }[];
    expect(machines.map((machine) => machine.game)).toEqual(GAME_NAMES);
    expect(machines.find((machine) => machine.game === 'sevenSuitors')).toEqual({
      game: 'sevenSuitors',
      title: 'Seven Suitors',
      seats: 4,
      options: {
        end: { values: ['allSuits', 'hands:K', 'marriages:M'], default: 'allSuits' },
        specials: { values: ['off', 'plain', 'powers'], default: 'off' },
      },
      diagrams: {
        svg: '/machines/sevenSuitors.svg',
        dot: '/machines/sevenSuitors.dot',
        mmd: '/machines/sevenSuitors.mmd',
        json: '/machines/sevenSuitors.json',
      },
    });
    for (const machine of machines) {
      expect(machine.title).toBe(GAMES[machine.game].title);
      expect(machine.seats).toBe(GAMES[machine.game].seats);
      expect(Object.keys(machine.options).sort()).toEqual(Object.keys(DEFAULT_OPTIONS[machine.game]).sort());
      for (const [name, { values, default: fallback }] of Object.entries(machine.options)) {
        expect(fallback).toBe(DEFAULT_OPTIONS[machine.game][name]);
        expect(values).toContain(fallback);
        // Every value listed is one a table accepts ("hands:K" and "marriages:M" with a number put in).
        for (const value of values) {
          const given = value.replace(/:[KM]$/, ':3');
          expect(parseOptions(machine.game, { [name]: given }), `${machine.game} ${name}=${given}`).toMatchObject({ ok: true });
        }
      }
    }
  });

  it('are in the OpenAPI document', async () => {
    const { app } = service();
    const docs = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(docs.paths)).toEqual(expect.arrayContaining(['/machines', '/machines/{file}']));
  });
});

describe.each(GAME_NAMES)('the diagram files of %s', (game) => {
  const model = modelOfGame(game);

  it('are served in each format with its content type, made once and kept', async () => {
    const { app } = service();
    const bodies: Record<string, string> = {};
    for (const [extension, contentType] of Object.entries(CONTENT_TYPES)) {
      const response = await app.inject({ method: 'GET', url: `/machines/${game}.${extension}` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe(contentType);
      expect(response.headers['cache-control']).toBe('no-cache');
      const etag = response.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      bodies[extension] = response.body;
      // Asked again with its ETag: nothing has changed, nothing is sent.
      const again = await app.inject({ method: 'GET', url: `/machines/${game}.${extension}`, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
    expect(bodies.dot).toBe(toDot(model));
    expect(bodies.mmd).toBe(toMermaid(model));
    expect(JSON.parse(bodies.json)).toEqual(JSON.parse(JSON.stringify(model)));
    expect(bodies.svg).toMatch(/^<\?xml[\s\S]*<svg [\s\S]*<\/svg>\s*$/);
    // Rendered on the first request and kept: every later one gets the same file.
    expect(machineFile(game, 'svg')).toBe(machineFile(game, 'svg'));
    expect((await machineFile(game, 'svg')).body).toBe(bodies.svg);
  });

  it('draw every state of the machine in the SVG as a group whose id is the state id, none highlighted', async () => {
    const { app } = service();
    const svg = (await app.inject({ method: 'GET', url: `/machines/${game}.svg` })).body;
    const groups = new Map([...svg.matchAll(/<g id="([^"]*)" class="([^"]*)"/g)].map((match) => [match[1], match[2].split(' ')]));
    expect(model.states.length).toBeGreaterThan(5);
    for (const state of model.states) {
      expect(groups.get(state.id), state.id).toEqual(expect.arrayContaining(['state', state.kind]));
    }
    expect([...groups.values()].filter((classes) => classes.includes('active'))).toEqual([]);
  });
});

describe('the machine routes refuse', () => {
  it('an unknown game or format with 404 and the names that would do', async () => {
    const { app } = service();
    const unknownGame = await app.inject({ method: 'GET', url: '/machines/chess.svg' });
    expect(unknownGame.statusCode).toBe(404);
    expect(unknownGame.json()).toEqual({
      error: 'notFound',
      message: 'there is no game "chess": the games are sevenSuitors, antiCupid, traitorOfLove, firstLesson (GET /machines)',
    });
    const unknownFormat = await app.inject({ method: 'GET', url: '/machines/antiCupid.png' });
    expect(unknownFormat.statusCode).toBe(404);
    expect(unknownFormat.json()).toEqual({
      error: 'notFound',
      message:
        'antiCupid has no diagram with ".png": ask for /machines/antiCupid.svg, /machines/antiCupid.dot, /machines/antiCupid.mmd, /machines/antiCupid.json',
    });
    const noFormat = await app.inject({ method: 'GET', url: '/machines/traitorOfLove' });
    expect(noFormat.statusCode).toBe(404);
    expect(noFormat.json().message).toMatch(/^traitorOfLove has no diagram with no extension: ask for \/machines\/traitorOfLove\.svg, /);
    const deeper = await app.inject({ method: 'GET', url: '/machines/sevenSuitors/svg' });
    expect(deeper.statusCode).toBe(404);
    expect(deeper.json().error).toBe('notFound');
  });
});

describe('activeStates in the views', () => {
  it('are the states the actor is in, as of each view: over the socket, the HTTP view and the replay', async () => {
    const { app, host } = service();
    const base = await listen(app);
    const model = modelOfGame('sevenSuitors');
    const { tableId } = (
      await app.inject({
        method: 'POST',
        url: '/api/tables',
        payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] },
      })
    ).json();
    const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } })).json();
    const seat = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${token}`);
    const spectator = await SocketClient.open(`${base}/api/tables/${tableId}/socket`);
    clients.push(seat, spectator);

    const httpView = async () => (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
    const first = await httpView();
    expect(first.view.phase).toBe('passing');
    const { version, snapshot } = await host.snapshot(tableId);
    expect(first.version).toBe(version);
    expect(first.activeStates).toEqual(statesTheActorIsIn(model, snapshot));
    expect(first.activeStates).toEqual(['sevenSuitors', 'sevenSuitors.passing']);
    expect(activeStatesOf(snapshot)).toEqual(first.activeStates);
    // A snapshot as stored (its value only) gives the same states.
    expect(activeStatesOf(JSON.parse(JSON.stringify(snapshot)))).toEqual(first.activeStates);

    // Ann passes and plays her first few cards; the bots answer each move.
    const passes = [1, 2, 3].map((to, i) => ({ to, card: first.view.hand.cards[i] }));
    const passed = await app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/commands`,
      payload: { type: 'cards.passed', passes },
      headers: bearer(token),
    });
    expect(passed.statusCode, passed.body).toBe(200);
    for (let plays = 0; plays < 3; plays++) {
      const current = await waitFor(async () => {
        const answer = await httpView();
        return answer.view.hand.legalCards.length > 0 && answer;
      }, 'Ann’s turn');
      expect(current.activeStates).toEqual(statesTheActorIsIn(model, (await host.snapshot(tableId)).snapshot));
      const played = await app.inject({
        method: 'POST',
        url: `/api/tables/${tableId}/commands`,
        payload: { type: 'card.played', card: current.view.hand.legalCards[0] },
        headers: bearer(token),
      });
      expect(played.statusCode, played.body).toBe(200);
    }
    const last = (await host.snapshot(tableId)).version;
    await seat.next((message) => message.type === 'view' && message.version >= last, 'the seat’s latest view');
    await spectator.next((message) => message.type === 'view' && message.version >= last, 'the spectator’s latest view');

    // Every socket message's states are those of the table at the message's version, folded from the log.
    const states = statesOfLog(await host.events(tableId));
    const seen = new Set<string>();
    for (const message of [...seat.views, ...spectator.views] as Message[]) {
      expect(message.activeStates, `version ${message.version}`).toEqual(statesTheActorIsIn(model, states[message.version]));
      seen.add(message.activeStates.at(-1));
    }
    expect([...seen]).toEqual(
      expect.arrayContaining(['sevenSuitors.passing', 'sevenSuitors.trickPlay.leading', 'sevenSuitors.trickPlay.following']),
    );

    // The replay of any event has them too, beside `state`, XState's own value.
    for (const at of [1, 7, last]) {
      const replay = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=${at}` })).json();
      expect(replay.state).toEqual(states[at].value);
      expect(replay.activeStates).toEqual(statesTheActorIsIn(model, states[at]));
    }
  });
});
