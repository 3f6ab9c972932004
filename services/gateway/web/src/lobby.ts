/**
 * The lobby: the tables the service holds, filtered (game, what state,
 * "my tables"), each said in words ("Playing tricks · hand 2 of 5"), with a
 * seat, a seat taken back, a spectator's place or a replay; and the form to
 * open a table (newTableForm.ts).
 */
import { api, type LobbyPage, type LobbyTable } from './api.js';
import { h, replaceChildren } from './dom.js';
import { sitAt } from './invites.js';
import { createForm } from './newTableForm.js';
import { heldSeat, isMyTable, leftSeat, playerName, rememberPlayerName } from './seatTokens.js';
import { GAME_TITLES, gameTitle, handProgress, phaseWords, type OptionsLike } from './words.js';

/** What the lobby learns of a table from its spectator view: its options and who sits there (cached by version). */
interface TableDetails {
  readonly version: number;
  readonly options: OptionsLike;
  readonly players: readonly string[];
}

const details = new Map<string, TableDetails>();
/** Views asked for per refresh, to stay well inside the service's rate limit. */
const DETAILS_PER_REFRESH = 12;

type StateFilter = 'all' | 'open' | 'playing' | 'finished';

export function showLobby(root: HTMLElement): () => void {
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const tables = h('div', { class: 'tables' }, h('p', {}, 'Loading tables…'));
  const nameInput = h('input', {
    id: 'player-name',
    name: 'name',
    autocomplete: 'nickname',
    required: true,
    maxlength: 40,
    value: playerName(),
  });
  nameInput.addEventListener('change', () => rememberPlayerName(nameInput.value.trim()));
  const gameFilter = h(
    'select',
    { id: 'filter-game' },
    h('option', { value: '' }, 'All games'),
    Object.entries(GAME_TITLES).map(([game, title]) => h('option', { value: game }, title)),
  );
  const stateFilter = h(
    'select',
    { id: 'filter-state' },
    [
      ['all', 'Any'],
      ['open', 'With an open seat'],
      ['playing', 'Being played'],
      ['finished', 'Finished (most recent first)'],
    ].map(([value, label]) => h('option', { value }, label)),
  );
  const mineFilter = h('input', { type: 'checkbox', id: 'filter-mine' });
  let list: readonly LobbyTable[] = [];
  let page = 1;
  let pages = 1;
  const pager = h('p', { class: 'pager', hidden: true });

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
      await sitAt(tableId, seat, player);
    } catch (error) {
      fail(error);
    }
  };

  const draw = () => {
    const shown = list.filter((table) => {
      if (gameFilter.value !== '' && table.game !== gameFilter.value) return false;
      if (mineFilter.checked && !isMyTable(table.tableId)) return false;
      const filter = stateFilter.value as StateFilter;
      if (filter === 'open') return !table.finished && table.openSeats.length > 0;
      if (filter === 'playing') return !table.finished && table.hand > 0;
      if (filter === 'finished') return table.finished;
      return true;
    });
    pager.hidden = pages <= 1;
    replaceChildren(
      pager,
      h('button', { type: 'button', disabled: page <= 1, onclick: () => turnTo(page - 1) }, '◀ Previous'),
      ` Page ${page} of ${pages} `,
      h('button', { type: 'button', disabled: page >= pages, onclick: () => turnTo(page + 1) }, 'Next ▶'),
    );
    replaceChildren(
      tables,
      list.length === 0
        ? h('p', {}, stateFilter.value === 'finished' ? 'No finished games yet.' : 'No tables yet: open one.')
        : shown.length === 0
          ? h('p', {}, 'No table matches these filters.')
          : tableList(shown, sit),
    );
  };

  const learnDetails = async () => {
    const wanted = list.filter((table) => details.get(table.tableId)?.version !== table.version).slice(0, DETAILS_PER_REFRESH);
    await Promise.all(
      wanted.map(async (table) => {
        try {
          const { view, version } = await api.view(table.tableId, null);
          const players = view.seats.flatMap((seat) => (seat.occupant === null || seat.occupant.bot ? [] : [seat.occupant.name]));
          details.set(table.tableId, { version, options: view.options, players });
        } catch {
          // The lobby shows the table without its details.
        }
      }),
    );
    if (wanted.length > 0) draw();
  };

  const refresh = async () => {
    try {
      // Finished games leave the lobby after a while for the recent games, newest first.
      const recent = stateFilter.value === 'finished';
      const answer: LobbyPage = recent ? await api.recentTables(page) : await api.listTables(page);
      pages = answer.pages;
      // Games under way first, then those waiting for players, finished last.
      const rank = (table: LobbyTable) => (table.finished ? 2 : table.hand > 0 ? 0 : 1);
      list = recent ? answer.tables : [...answer.tables].sort((a, b) => rank(a) - rank(b));
      draw();
      void learnDetails();
    } catch (error) {
      fail(error);
    }
  };
  const turnTo = (next: number) => {
    page = next;
    void refresh();
  };
  for (const filter of [gameFilter, mineFilter]) filter.addEventListener('change', draw);
  stateFilter.addEventListener('change', () => turnTo(1));

  replaceChildren(
    root,
    h(
      'div',
      { class: 'lobby' },
      h('h2', {}, 'Lobby'),
      message,
      h('p', { class: 'name-row' }, h('label', { for: 'player-name' }, 'Your name '), nameInput),
      h(
        'div',
        { class: 'lobby-columns' },
        h(
          'section',
          { class: 'card-panel', 'aria-labelledby': 'tables-heading' },
          h(
            'h3',
            { id: 'tables-heading' },
            'Tables ',
            h('button', { type: 'button', class: 'link', onclick: () => void refresh() }, 'refresh'),
          ),
          h(
            'div',
            { class: 'filters', role: 'group', 'aria-label': 'Filters' },
            h('label', { for: 'filter-game' }, 'Show game '),
            gameFilter,
            h('label', { for: 'filter-state' }, 'Show tables '),
            stateFilter,
            h('label', { class: 'check' }, mineFilter, ' My tables only'),
          ),
          tables,
          pager,
        ),
        createForm(name, fail),
      ),
    ),
  );
  void refresh();
  const timer = window.setInterval(() => void refresh(), 5_000);
  return () => window.clearInterval(timer);
}

/** A table's state in words: "Playing tricks · hand 2 of 5", "Waiting for players: 2 open seats", "Finished". */
function stateWords(table: LobbyTable): string {
  if (table.finished) return 'Finished';
  const options = details.get(table.tableId)?.options;
  if (table.phase === 'seating')
    return `${phaseWords('seating')}: ${table.openSeats.length} open seat${table.openSeats.length === 1 ? '' : 's'}`;
  return `${phaseWords(table.phase)}${table.hand > 0 ? ` · ${handProgress(table.hand, table.game, options)}` : ''}`;
}

/** "just now", "5 min ago", "2 h ago", "3 days ago": how long since an ISO time. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

function tableList(list: readonly LobbyTable[], sit: (tableId: string, seat: number) => void): HTMLElement {
  return h(
    'div',
    { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'Tables' },
    h(
      'table',
      { class: 'table-list' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Game', 'State', 'Players', 'Seats', ''].map((heading) => h('th', { scope: 'col' }, heading)),
        ),
      ),
      h(
        'tbody',
        {},
        list.map((table) => {
          const held = heldSeat(table.tableId);
          const left = leftSeat(table.tableId);
          const players = details.get(table.tableId)?.players ?? [];
          return h(
            'tr',
            { 'data-table': table.tableId, class: isMyTable(table.tableId) ? 'mine' : '' },
            h(
              'td',
              {},
              h('strong', {}, gameTitle(table.game)),
              h('br'),
              h('code', { class: 'muted small' }, table.tableId),
              h('br'),
              h('span', { class: 'muted small when' }, `${table.finished ? 'ended' : 'last move'} ${timeAgo(table.lastEventAt)}`),
            ),
            h('td', { class: 'state' }, stateWords(table)),
            h('td', {}, players.length === 0 ? h('span', { class: 'muted' }, 'bots only') : players.join(', ')),
            h(
              'td',
              {},
              table.finished
                ? null
                : held === null && left !== null
                  ? h('button', { type: 'button', class: 'primary', onclick: () => sit(table.tableId, left) }, `Take seat ${left} back`)
                  : table.openSeats.length === 0
                    ? h('span', { class: 'muted' }, 'full')
                    : table.openSeats.map((seat) =>
                        h('button', { type: 'button', onclick: () => sit(table.tableId, seat) }, `Sit at seat ${seat}`),
                      ),
            ),
            h(
              'td',
              { class: 'links' },
              held !== null && !table.finished ? h('a', { href: `#/table/${table.tableId}` }, `Back to seat ${held.seat}`) : null,
              ' ',
              h('a', { href: `#/watch/${table.tableId}` }, table.finished ? 'See the end' : 'Watch'),
              ' ',
              table.finished ? h('a', { href: `#/replay/${table.tableId}` }, 'Replay') : null,
            ),
          );
        }),
      ),
    ),
  );
}
