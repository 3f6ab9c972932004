/**
 * The lobby: the tables the service holds, a form to open a new one (game,
 * rules options, which seats bots take), and a seat or a spectator's place
 * at any of them.
 */
import type { GameName } from '../../../../machines/table/options.js';
import { api, type LobbyTable } from './api.js';
import { h, replaceChildren } from './dom.js';
import { teamOf } from './sides.js';
import { heldSeat, holdSeat, playerName, rememberPlayerName } from './seatTokens.js';

interface GameChoice {
  readonly title: string;
  readonly seats: number;
  /** Each rules option (RULES.md, "Table options at a glance"), default first. */
  readonly options: Record<string, readonly { value: string; label: string }[]>;
}

const GAMES: Record<GameName, GameChoice> = {
  sevenSuitors: {
    title: 'Seven Suitors',
    seats: 4,
    options: {
      end: [
        { value: 'allSuits', label: 'first team to mark all seven suits' },
        { value: 'hands:1', label: 'one hand' },
        { value: 'hands:3', label: '3 hands' },
        { value: 'hands:7', label: '7 hands' },
        { value: 'marriages:10', label: 'first to 10 marriages' },
      ],
      specials: [
        { value: 'off', label: 'no special cards' },
        { value: 'plain', label: 'plain special cards' },
        { value: 'powers', label: 'special cards with powers' },
      ],
    },
  },
  antiCupid: {
    title: 'Anti-Cupid',
    seats: 5,
    options: {
      specials: [
        { value: 'plain', label: 'plain special cards' },
        { value: 'powers', label: 'special cards with powers' },
      ],
      passing: [
        { value: 'none', label: 'no passing' },
        { value: 'oneEach', label: 'pass one card to each player' },
      ],
    },
  },
  traitorOfLove: {
    title: 'A Traitor of Love',
    seats: 6,
    options: {
      specials: [
        { value: 'plain', label: 'plain special cards' },
        { value: 'powers', label: 'special cards with powers' },
      ],
    },
  },
};

const OPTION_LABELS: Record<string, string> = { end: 'Game ends after', specials: 'Special cards', passing: 'Passing' };

type SeatChoice = 'me' | 'bot' | 'open';

function gameTitle(game: string): string {
  return GAMES[game as GameName]?.title ?? game;
}

export function showLobby(root: HTMLElement): () => void {
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const tables = h('div', { class: 'tables' }, h('p', {}, 'Loading tables…'));
  const nameInput = h('input', { id: 'player-name', name: 'name', autocomplete: 'nickname', required: true, maxlength: 40, value: playerName() });
  nameInput.addEventListener('change', () => rememberPlayerName(nameInput.value.trim()));

  const fail = (error: unknown) => {
    message.textContent = error instanceof Error ? error.message : String(error);
    message.hidden = false;
  };
  const name = (): string | null => {
    const given = nameInput.value.trim();
    if (given === '') {
      fail('Enter your name first: the other players see it at the table.');
      nameInput.focus();
      return null;
    }
    rememberPlayerName(given);
    return given;
  };

  const sit = async (tableId: string, seat: number) => {
    const player = name();
    if (player === null) return;
    try {
      const taken = await api.takeSeat(tableId, seat, player);
      holdSeat(tableId, { seat: taken.seat, token: taken.token });
      location.hash = `#/table/${tableId}`;
    } catch (error) {
      fail(error);
    }
  };

  const refresh = async () => {
    try {
      const list = await api.listTables();
      replaceChildren(tables, list.length === 0 ? h('p', {}, 'No tables yet: open one below.') : tableList(list, sit));
    } catch (error) {
      fail(error);
    }
  };

  replaceChildren(
    root,
    h(
      'div',
      { class: 'lobby' },
      h('h2', {}, 'Lobby'),
      message,
      h('p', {}, h('label', { for: 'player-name' }, 'Your name '), nameInput),
      h('section', { 'aria-labelledby': 'tables-heading' }, h('h3', { id: 'tables-heading' }, 'Tables ', h('button', { type: 'button', class: 'link', onclick: () => void refresh() }, 'refresh')), tables),
      createForm(name, fail),
    ),
  );
  void refresh();
  const timer = window.setInterval(() => void refresh(), 5_000);
  return () => window.clearInterval(timer);
}

function tableList(list: readonly LobbyTable[], sit: (tableId: string, seat: number) => void): HTMLElement {
  return h(
    'table',
    { class: 'table-list' },
    h('thead', {}, h('tr', {}, ['Table', 'Game', 'State', 'Seats', ''].map((heading) => h('th', {}, heading)))),
    h(
      'tbody',
      {},
      list.map((table) => {
        const held = heldSeat(table.tableId);
        return h(
          'tr',
          { 'data-table': table.tableId },
          h('td', {}, h('code', {}, table.tableId)),
          h('td', {}, gameTitle(table.game)),
          h('td', {}, table.finished ? 'finished' : table.phase, table.hand > 0 ? ` · hand ${table.hand}` : ''),
          h(
            'td',
            {},
            table.openSeats.length === 0
              ? 'full'
              : table.openSeats.map((seat) => h('button', { type: 'button', onclick: () => sit(table.tableId, seat) }, `Sit at seat ${seat}`)),
          ),
          h(
            'td',
            {},
            held !== null && !table.finished ? h('a', { href: `#/table/${table.tableId}` }, `Back to seat ${held.seat}`) : null,
            ' ',
            h('a', { href: `#/watch/${table.tableId}` }, 'Watch'),
            ' ',
            table.finished ? h('a', { href: `#/replay/${table.tableId}` }, 'Replay') : null,
          ),
        );
      }),
    ),
  );
}

function createForm(name: () => string | null, fail: (error: unknown) => void): HTMLElement {
  const gameSelect = h(
    'select',
    { id: 'new-game', name: 'game' },
    (Object.keys(GAMES) as GameName[]).map((game) => h('option', { value: game }, `${GAMES[game].title} (${GAMES[game].seats} players)`)),
  );
  const optionsBox = h('div', { class: 'options' });
  const clockSelect = h(
    'select',
    { id: 'turn-clock', name: 'turnSeconds' },
    [['', 'none'], ['30', '30 seconds'], ['60', 'a minute'], ['300', '5 minutes']].map(([value, label]) => h('option', { value }, label)),
  );
  const seatsBox = h('fieldset', { class: 'seat-choices' });
  const seatChoices: SeatChoice[] = [];

  const drawGame = () => {
    const game = GAMES[gameSelect.value as GameName];
    replaceChildren(
      optionsBox,
      Object.entries(game.options).map(([option, values]) =>
        h(
          'p',
          {},
          h('label', { for: `option-${option}` }, `${OPTION_LABELS[option] ?? option} `),
          h('select', { id: `option-${option}`, name: option }, values.map(({ value, label }) => h('option', { value }, label))),
        ),
      ),
    );
    seatChoices.length = 0;
    for (let seat = 0; seat < game.seats; seat++) seatChoices.push(seat === 0 ? 'me' : 'bot');
    drawSeats();
  };

  const drawSeats = () => {
    replaceChildren(
      seatsBox,
      h('legend', {}, 'Who sits where'),
      seatChoices.map((choice, seat) => {
        const select = h(
          'select',
          { id: `seat-${seat}`, name: `seat-${seat}` },
          (['me', 'bot', 'open'] as const).map((value) =>
            h('option', { value, selected: value === choice }, value === 'me' ? 'me' : value === 'bot' ? 'a bot' : 'open for a person'),
          ),
        );
        select.addEventListener('change', () => {
          const chosen = select.value as SeatChoice;
          // One browser holds one seat: choosing "me" here frees the seat chosen before.
          if (chosen === 'me') for (const [index, other] of seatChoices.entries()) if (other === 'me') seatChoices[index] = 'open';
          seatChoices[seat] = chosen;
          drawSeats();
        });
        const team = gameSelect.value === 'antiCupid' ? '' : ` (team ${teamOf(seat)})`;
        return h('p', {}, h('label', { for: `seat-${seat}` }, `Seat ${seat}${team} `), select);
      }),
    );
  };

  gameSelect.addEventListener('change', drawGame);
  drawGame();

  const submit = async (event: Event) => {
    event.preventDefault();
    const mine = seatChoices.indexOf('me');
    const player = mine === -1 ? '' : name();
    if (player === null) return;
    const game = gameSelect.value as GameName;
    const options = Object.fromEntries([...optionsBox.querySelectorAll('select')].map((select) => [select.name, select.value]));
    const bots = seatChoices.flatMap((choice, seat) => (choice === 'bot' ? [seat] : []));
    try {
      const turnSeconds = clockSelect.value === '' ? {} : { turnSeconds: Number(clockSelect.value) };
      const { tableId } = await api.createTable({ game, options, bots, ...turnSeconds });
      if (mine !== -1) {
        const taken = await api.takeSeat(tableId, mine, player);
        holdSeat(tableId, { seat: taken.seat, token: taken.token });
        location.hash = `#/table/${tableId}`;
      } else {
        location.hash = `#/watch/${tableId}`;
      }
    } catch (error) {
      fail(error);
    }
  };

  return h(
    'form',
    { class: 'create', 'aria-labelledby': 'create-heading', onsubmit: (event: Event) => void submit(event) },
    h('h3', { id: 'create-heading' }, 'Open a table'),
    h('p', {}, h('label', { for: 'new-game' }, 'Game '), gameSelect),
    optionsBox,
    h('p', {}, h('label', { for: 'turn-clock' }, 'Turn clock (a bot moves for a seat that lets it run out) '), clockSelect),
    seatsBox,
    h('button', { type: 'submit', class: 'primary' }, 'Open table'),
  );
}
