/**
 * The lobby's form to open a table: the game, its rules options, a turn
 * clock, and who sits where (me, a person to invite, a strong or an easy
 * bot: POST /api/tables `bots: [{ seat, kind }]`).
 */
import type { GameName } from '../../../../machines/table/options.js';
import { api, type BotKind } from './api.js';
import { h, replaceChildren } from './dom.js';
import { joinSeat } from './seatJoin.js';
import { rememberOpenedTable } from './seatTokens.js';
import { teamOf } from './sides.js';
import { GAME_TITLES } from './words.js';

interface GameChoice {
  readonly seats: number;
  /** Each rules option (RULES.md, "Table options at a glance"), default first. */
  readonly options: Record<string, readonly { value: string; label: string }[]>;
}

const GAMES: Record<GameName, GameChoice> = {
  sevenSuitors: {
    seats: 4,
    options: {
      end: [
        { value: 'allSuits', label: 'first team to mark all seven suits' },
        { value: 'hands:1', label: 'one hand' },
        { value: 'hands:2', label: '2 hands' },
        { value: 'hands:3', label: '3 hands' },
        { value: 'hands:5', label: '5 hands' },
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

type SeatChoice = 'me' | 'open' | BotKind;

const SEAT_CHOICES: readonly { value: SeatChoice; label: string }[] = [
  { value: 'me', label: 'me' },
  { value: 'heuristic', label: 'a strong bot' },
  { value: 'random', label: 'an easy bot (plays at random)' },
  { value: 'open', label: 'open for a person (invite link)' },
];

export function createForm(name: () => string | null, fail: (error: unknown) => void): HTMLElement {
  const gameSelect = h(
    'select',
    { id: 'new-game', name: 'game' },
    (Object.keys(GAMES) as GameName[]).map((game) => h('option', { value: game }, `${GAME_TITLES[game]} (${GAMES[game].seats} players)`)),
  );
  const optionsBox = h('div', { class: 'options' });
  const clockSelect = h(
    'select',
    { id: 'turn-clock', name: 'turnSeconds' },
    [
      ['', 'none'],
      ['30', '30 seconds'],
      ['60', 'a minute'],
      ['300', '5 minutes'],
    ].map(([value, label]) => h('option', { value }, label)),
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
          h(
            'select',
            { id: `option-${option}`, name: option },
            values.map(({ value, label }) => h('option', { value }, label)),
          ),
        ),
      ),
    );
    seatChoices.length = 0;
    for (let seat = 0; seat < game.seats; seat++) seatChoices.push(seat === 0 ? 'me' : 'heuristic');
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
          SEAT_CHOICES.map(({ value, label }) => h('option', { value, selected: value === choice }, label)),
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
    const bots = seatChoices.flatMap((choice, seat) => (choice === 'heuristic' || choice === 'random' ? [{ seat, kind: choice }] : []));
    try {
      const turnSeconds = clockSelect.value === '' ? null : Number(clockSelect.value);
      const { tableId } = await api.createTable({ game, options, bots, ...(turnSeconds === null ? {} : { turnSeconds }) });
      rememberOpenedTable(tableId, { turnSeconds });
      if (mine !== -1) {
        await joinSeat(tableId, mine, player);
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
    { class: 'create card-panel', 'aria-labelledby': 'create-heading', onsubmit: (event: Event) => void submit(event) },
    h('h3', { id: 'create-heading' }, 'Open a table'),
    h('p', {}, h('label', { for: 'new-game' }, 'Game '), gameSelect),
    optionsBox,
    h('p', {}, h('label', { for: 'turn-clock' }, 'Turn clock (a bot moves for a seat that lets it run out) '), clockSelect),
    seatsBox,
    h('button', { type: 'submit', class: 'primary' }, 'Open table'),
  );
}
