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
import { words } from './i18n/index.js';
import { failureWords } from './i18n/refusals.js';
import { gameTitle, handProgress, phaseWords, type OptionsLike } from './words.js';

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
  const lobby = new Lobby(root);
  return () => lobby.close();
}

/** The lobby's filters, made once: which game, what state, my tables only. */
function lobbyFilters() {
  const game = h(
    'select',
    { id: 'filter-game' },
    h('option', { value: '' }, words().allGames),
    Object.entries(words().games.titles).map(([name, title]) => h('option', { value: name }, title)),
  );
  const state = h(
    'select',
    { id: 'filter-state' },
    [
      ['all', words().anyState],
      ['open', words().withOpenSeat],
      ['playing', words().beingPlayed],
      ['finished', words().finishedRecent],
    ].map(([value, label]) => h('option', { value }, label)),
  );
  const mine = h('input', { type: 'checkbox', id: 'filter-mine' });
  const element = h(
    'div',
    { class: 'filters', role: 'group', 'aria-label': words().filters },
    h('label', { for: 'filter-game' }, words().showGame),
    game,
    h('label', { for: 'filter-state' }, words().showTables),
    state,
    h('label', { class: 'check' }, mine, words().myTablesOnly),
  );
  return { element, game, state, mine };
}

class Lobby {
  private readonly message = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly tables = h('div', { class: 'tables' }, h('p', {}, words().loadingTables));
  private readonly nameInput = h('input', {
    id: 'player-name',
    name: 'name',
    autocomplete: 'nickname',
    required: true,
    maxlength: 40,
    value: playerName(),
  });
  private readonly filters = lobbyFilters();
  private readonly pager = h('p', { class: 'pager', hidden: true });
  private list: readonly LobbyTable[] = [];
  private page = 1;
  private pages = 1;
  private readonly timer: number;

  constructor(root: HTMLElement) {
    this.nameInput.addEventListener('change', () => rememberPlayerName(this.nameInput.value.trim()));
    for (const filter of [this.filters.game, this.filters.mine]) filter.addEventListener('change', () => this.draw());
    this.filters.state.addEventListener('change', () => this.turnTo(1));
    replaceChildren(root, this.layout());
    void this.refresh();
    this.timer = window.setInterval(() => void this.refresh(), 5_000);
  }

  close(): void {
    window.clearInterval(this.timer);
  }

  /** The form to open a table comes first, so the keyboard reaches "Open table" before every table's buttons. */
  private layout(): HTMLElement {
    const refresh = h('button', { type: 'button', class: 'link', onclick: () => void this.refresh() }, words().refresh);
    return h(
      'div',
      { class: 'lobby' },
      h('h2', {}, words().lobby),
      this.message,
      h('p', { class: 'name-row' }, h('label', { for: 'player-name' }, words().yourName), this.nameInput),
      h(
        'div',
        { class: 'lobby-columns' },
        createForm(
          () => this.name(),
          (error) => this.fail(error),
        ),
        h(
          'section',
          { class: 'card-panel', 'aria-labelledby': 'tables-heading' },
          h('h3', { id: 'tables-heading' }, words().tables, refresh),
          this.filters.element,
          this.tables,
          this.pager,
        ),
      ),
    );
  }

  private fail(error: unknown): void {
    this.message.textContent = failureWords(error);
    this.message.hidden = false;
  }

  private name(): string | null {
    const given = this.nameInput.value.trim();
    if (given === '') {
      this.fail(words().nameFirst);
      this.nameInput.focus();
      return null;
    }
    rememberPlayerName(given);
    return given;
  }

  private async sit(tableId: string, seat: number): Promise<void> {
    const player = this.name();
    if (player === null) return;
    try {
      await sitAt(tableId, seat, player);
    } catch (error) {
      this.fail(error);
    }
  }

  private shown(): LobbyTable[] {
    const { game, mine, state } = this.filters;
    return this.list.filter((table) => {
      if (game.value !== '' && table.game !== game.value) return false;
      if (mine.checked && !isMyTable(table.tableId)) return false;
      const filter = state.value as StateFilter;
      if (filter === 'open') return !table.finished && table.openSeats.length > 0;
      if (filter === 'playing') return !table.finished && table.hand > 0;
      if (filter === 'finished') return table.finished;
      return true;
    });
  }

  private draw(): void {
    const shown = this.shown();
    const { page, pages } = this;
    this.pager.hidden = pages <= 1;
    replaceChildren(
      this.pager,
      h('button', { type: 'button', disabled: page <= 1, onclick: () => this.turnTo(page - 1) }, words().previous),
      words().pageOf(page, pages),
      h('button', { type: 'button', disabled: page >= pages, onclick: () => this.turnTo(page + 1) }, words().next),
    );
    replaceChildren(
      this.tables,
      this.list.length === 0
        ? h('p', {}, this.filters.state.value === 'finished' ? words().noFinished : words().noTables)
        : shown.length === 0
          ? h('p', {}, words().noMatch)
          : tableList(shown, (tableId, seat) => this.sit(tableId, seat)),
    );
  }

  private async learnDetails(): Promise<void> {
    const wanted = this.list.filter((table) => details.get(table.tableId)?.version !== table.version).slice(0, DETAILS_PER_REFRESH);
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
    if (wanted.length > 0) this.draw();
  }

  private async refresh(): Promise<void> {
    try {
      // Finished games leave the lobby after a while for the recent games, newest first.
      const recent = this.filters.state.value === 'finished';
      const answer: LobbyPage = recent ? await api.recentTables(this.page) : await api.listTables(this.page);
      this.pages = answer.pages;
      // Games under way first, then those waiting for players, finished last.
      const rank = (table: LobbyTable) => (table.finished ? 2 : table.hand > 0 ? 0 : 1);
      this.list = recent ? answer.tables : [...answer.tables].sort((a, b) => rank(a) - rank(b));
      this.draw();
      void this.learnDetails();
    } catch (error) {
      this.fail(error);
    }
  }

  private turnTo(next: number): void {
    this.page = next;
    void this.refresh();
  }
}

/** A table's state in words: "Playing tricks · hand 2 of 5", "Waiting for players: 2 open seats", "Finished". */
function stateWords(table: LobbyTable): string {
  if (table.finished) return words().finished;
  const options = details.get(table.tableId)?.options;
  if (table.phase === 'seating') return words().seatingState(phaseWords('seating'), table.openSeats.length);
  return `${phaseWords(table.phase)}${table.hand > 0 ? ` · ${handProgress(table.hand, table.game, options)}` : ''}`;
}

/** "just now", "5 min ago", "2 h ago", "3 days ago": how long since an ISO time. */
function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) return words().justNow;
  if (seconds < 3600) return words().minutesAgo(Math.floor(seconds / 60));
  if (seconds < 86_400) return words().hoursAgo(Math.floor(seconds / 3600));
  return words().daysAgo(Math.floor(seconds / 86_400));
}

function tableList(list: readonly LobbyTable[], sit: (tableId: string, seat: number) => void): HTMLElement {
  return h(
    'div',
    { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': words().tablesRegion },
    h(
      'table',
      { class: 'table-list' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          words().columns.map((heading) => h('th', { scope: 'col' }, heading)),
          h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, words().actionsColumn)),
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
              h('span', { class: 'muted small when' }, (table.finished ? words().ended : words().lastMove)(timeAgo(table.lastEventAt))),
            ),
            h('td', { class: 'state' }, stateWords(table)),
            h('td', {}, players.length === 0 ? h('span', { class: 'muted' }, words().botsOnly) : players.join(', ')),
            h(
              'td',
              {},
              table.finished
                ? null
                : held === null && left !== null
                  ? h('button', { type: 'button', class: 'primary', onclick: () => sit(table.tableId, left) }, words().takeSeatBack(left))
                  : table.openSeats.length === 0
                    ? h('span', { class: 'muted' }, words().full)
                    : table.openSeats.map((seat) =>
                        h('button', { type: 'button', onclick: () => sit(table.tableId, seat) }, words().sitAt(seat)),
                      ),
            ),
            h(
              'td',
              { class: 'links' },
              held !== null && !table.finished ? h('a', { href: `#/table/${table.tableId}` }, words().backToSeat(held.seat)) : null,
              ' ',
              h('a', { href: `#/watch/${table.tableId}` }, table.finished ? words().seeTheEnd : words().watch),
              ' ',
              table.finished ? h('a', { href: `#/replay/${table.tableId}` }, words().replay) : null,
            ),
          );
        }),
      ),
    ),
  );
}
