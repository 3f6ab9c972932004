/**
 * The lobby's form to open a table: the game, its rules options, a turn
 * clock, and who sits where (me, a person to invite, a strong or an easy
 * bot: POST /api/tables `bots: [{ seat, kind }]`).
 */
import { GAME_NAMES, rulesOf } from '../../../../machines/games/rules/index.js';
import { parseOptions, type GameName } from '../../../../machines/table/options.js';
import { api, type BotKind } from './api.js';
import { showRules } from './tableHeader.js';
import { h, replaceChildren } from './dom.js';
import { words } from './i18n/index.js';
import { joinSeat } from './seatJoin.js';
import { rememberOpenedTable } from './seatTokens.js';
import { teamOf } from './sides.js';
import { gameTitle } from './words.js';

type SeatChoice = 'me' | 'open' | BotKind;

/** Who may sit at a seat, in the chosen language. */
function seatChoices(): readonly { value: SeatChoice; label: string }[] {
  return [
    { value: 'me', label: words().seatMe },
    { value: 'heuristic', label: words().seatStrongBot },
    { value: 'random', label: words().seatEasyBot },
    { value: 'open', label: words().seatOpen },
  ];
}

export function createForm(name: () => string | null, fail: (error: unknown) => void): HTMLElement {
  const gameSelect = gameChoice();
  const optionsBox = h('div', { class: 'options' });
  const clockSelect = clockChoice();
  const seatsBox = h('fieldset', { class: 'seat-choices' });
  const seatChoices: SeatChoice[] = [];

  const drawGame = () => {
    const game = rulesOf(gameSelect.value as GameName);
    replaceChildren(optionsBox, optionFields(game.options));
    seatChoices.length = 0;
    for (let seat = 0; seat < game.seats; seat++) seatChoices.push(seat === 0 ? 'me' : 'heuristic');
    drawSeats();
  };

  const drawSeats = () => {
    replaceChildren(
      seatsBox,
      h('legend', {}, words().whoSitsWhere),
      seatChoices.map((choice, seat) =>
        seatField(seat, choice, fixedTeamWords(gameSelect.value as GameName, seat), (chosen) => {
          // One browser holds one seat: choosing "me" here frees the seat chosen before.
          if (chosen === 'me') for (const [index, other] of seatChoices.entries()) if (other === 'me') seatChoices[index] = 'open';
          seatChoices[seat] = chosen;
          drawSeats();
        }),
      ),
    );
  };

  gameSelect.addEventListener('change', drawGame);
  drawGame();

  /** The rules as the table would play them with the options chosen so far. */
  const chosenRules = () => {
    const game = gameSelect.value as GameName;
    const chosen = Object.fromEntries([...optionsBox.querySelectorAll('select')].map((select) => [select.name, select.value]));
    // The form offers only values the game takes, so they always parse.
    const parsed = parseOptions(game, chosen);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const rules = rulesOf(game);
    return { game, options: parsed.options, endWords: rules.words.end(parsed.options), rulesSummary: rules.words.summary };
  };

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
    h('h3', { id: 'create-heading' }, words().openATable),
    h(
      'p',
      {},
      h('label', { for: 'new-game' }, words().game),
      gameSelect,
      ' ',
      h('button', { type: 'button', class: 'lobby-rules', onclick: () => showRules(chosenRules()) }, words().rulesOfThisGame),
    ),
    optionsBox,
    h('p', {}, h('label', { for: 'turn-clock' }, words().turnClock), clockSelect),
    seatsBox,
    h('button', { type: 'submit', class: 'primary' }, words().openTable),
  );
}

function gameChoice(): HTMLSelectElement {
  return h(
    'select',
    { id: 'new-game', name: 'game' },
    GAME_NAMES.map((game) => h('option', { value: game }, `${gameTitle(game)} (${words().players(rulesOf(game).seats)})`)),
  );
}

function clockChoice(): HTMLSelectElement {
  return h(
    'select',
    { id: 'turn-clock', name: 'turnSeconds' },
    [
      ['', words().clockNone],
      ['30', words().clock30],
      ['60', words().clock60],
      ['300', words().clock300],
    ].map(([value, label]) => h('option', { value }, label)),
  );
}

/** A select per option of the game, each offering the values it takes. */
function optionFields(options: ReturnType<typeof rulesOf>['options']): HTMLElement[] {
  return Object.entries(options).map(([option, { label, choices }]) =>
    h(
      'p',
      {},
      h('label', { for: `option-${option}` }, `${words().games.optionLabels[option] ?? label} `),
      h(
        'select',
        { id: `option-${option}`, name: option },
        choices.map((choice) => h('option', { value: choice.value }, words().games.choiceLabels[choice.value] ?? choice.label)),
      ),
    ),
  );
}

/** The seat's team where the game fixes it ("team A"), in the reader's words. */
function fixedTeamWords(game: GameName, seat: number): string | null {
  return rulesOf(game).words.fixedTeam(seat) === null ? null : words().games.teamLower(teamOf(seat));
}

/** Who sits at `seat`: the player, a bot, or open for a person; `fixedTeam` names the seat's team where the game fixes it. */
function seatField(seat: number, choice: SeatChoice, fixedTeam: string | null, onChoose: (chosen: SeatChoice) => void): HTMLElement {
  const select = h(
    'select',
    { id: `seat-${seat}`, name: `seat-${seat}` },
    seatChoices().map(({ value, label }) => h('option', { value, selected: value === choice }, label)),
  );
  select.addEventListener('change', () => onChoose(select.value as SeatChoice));
  const team = fixedTeam === null ? '' : ` (${fixedTeam})`;
  return h('p', {}, h('label', { for: `seat-${seat}` }, `${words().seatLabel(seat)}${team} `), select);
}
