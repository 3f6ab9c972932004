/**
 * The operator's page (#/operator), on GET /api/admin/fleet with the admin
 * token: this process's figures, on NATS every worker's (its memory, lag,
 * commands/s and the tables it holds), the tables in play by game and state, what
 * each waits on, the stuck ones first, each with a link to its replay, and
 * what cannot be shown here. The token is asked for on the page and kept in
 * sessionStorage (this tab only); a token refused is forgotten, and the
 * page says how to sign in. Asked again every 5 s while shown (pagePolling.ts).
 */
import { ApiError, operatorApi, type OperatorReport, type OperatorTable, type OperatorWorker } from './api.js';
import { h, replaceChildren } from './dom.js';
import { statesTable } from './fleetPage.js';
import { words } from './i18n/index.js';
import { failureWords } from './i18n/refusals.js';
import { pollWhileShown } from './pagePolling.js';
import { gameTitle } from './words.js';

const TOKEN_KEY = 'suitors.operator';
const OPERATOR_REFRESH_MS = 5_000;

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function keepToken(token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Not kept: the page asks again after a reload.
  }
}

export function showOperator(root: HTMLElement): () => void {
  let stopPolling: () => void = () => {};
  const signedIn = (token: string) => {
    const figures = h('div', { class: 'operator-figures' });
    const status = h('p', { class: 'muted', role: 'status' });
    const signOut = h('button', { type: 'button' }, words().operatorPage.signOut);
    signOut.addEventListener('click', () => {
      keepToken(null);
      stopPolling();
      signInForm(null);
    });
    replaceChildren(root, h('h2', {}, words().operatorPage.title), h('p', {}, signOut), status, figures);
    stopPolling = pollWhileShown(
      async () => {
        try {
          const report = await operatorApi.fleet(token);
          status.textContent = words().operatorPage.asOf(new Date(report.asOf).toLocaleTimeString());
          replaceChildren(figures, ...operatorFigures(report));
        } catch (error) {
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
            keepToken(null);
            stopPolling();
            signInForm(error.message);
            return;
          }
          status.textContent = words().operatorPage.failed(failureWords(error));
          throw error;
        }
      },
      { everyMs: OPERATOR_REFRESH_MS },
    );
  };
  const signInForm = (refusal: string | null) => {
    const said = words().operatorPage;
    const input = h('input', { id: 'operator-token', type: 'password', autocomplete: 'off', required: true });
    const form = h(
      'form',
      { class: 'operator-sign-in' },
      h('label', { for: 'operator-token' }, said.tokenLabel),
      input,
      ' ',
      h('button', { type: 'submit' }, said.signIn),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (token === '') return;
      keepToken(token);
      signedIn(token);
    });
    replaceChildren(
      root,
      h('h2', {}, said.title),
      refusal === null ? null : h('p', { class: 'error', role: 'alert' }, said.refused(refusal)),
      h('p', {}, said.signInExplained),
      form,
    );
  };

  const token = storedToken();
  if (token === null) signInForm(null);
  else signedIn(token);
  return () => stopPolling();
}

function operatorFigures(report: OperatorReport): HTMLElement[] {
  const said = words().operatorPage;
  const { process: figures, tables } = report;
  const mb = (bytes: number) => Math.round(bytes / 1_048_576);
  const term = (name: string, value: string) => [h('dt', {}, name), h('dd', {}, value)];
  const games = [...new Set(report.games.map((group) => group.game))];
  return [
    h(
      'section',
      { 'aria-labelledby': 'operator-process' },
      h('h3', { id: 'operator-process' }, said.thisProcess),
      h(
        'dl',
        { class: 'operator-process' },
        term(said.memory, said.memoryFigures(mb(figures.rssBytes), mb(figures.heapUsedBytes))),
        term(said.loopLag, said.milliseconds(figures.eventLoopLagMs)),
        term(said.commandsPerSecond, figures.commandsPerSecond === null ? said.notYetMeasured : String(figures.commandsPerSecond)),
        term(said.fleetBehind, said.events(figures.fleetLag)),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'operator-tables' },
      h('h3', { id: 'operator-tables' }, said.tablesHeading),
      h(
        'p',
        { class: 'operator-counts' },
        said.counts(tables.inPlay, tables.waitingOnPeople, tables.waitingOnService, tables.stuck, tables.quarantined),
      ),
      h('p', { class: 'muted' }, said.stuckExplained),
      h('h4', {}, said.byState),
      h(
        'div',
        { class: 'operator-states' },
        games.map((game) =>
          statesTable(
            report.games.filter((group) => group.game === game),
            gameTitle(game),
          ),
        ),
      ),
      h('h4', {}, said.listHeading),
      tables.listed.length === 0 ? h('p', { class: 'muted' }, said.noTables) : tableList(tables.listed, report.owner === 'workers'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'operator-workers' },
      h('h3', { id: 'operator-workers' }, said.workers),
      report.owner === 'thisProcess' ? h('p', {}, said.noWorkers) : null,
      report.workers.length === 0 ? null : workerList(report.workers),
      report.missing.length === 0
        ? null
        : h(
            'div',
            {},
            h('p', {}, said.notShown),
            h(
              'ul',
              { class: 'operator-missing' },
              report.missing.map((line) => h('li', {}, line)),
            ),
          ),
    ),
  ];
}

/** Each worker's figures in one table, then the tables each holds, each a link to its replay. */
function workerList(workers: readonly OperatorWorker[]): HTMLElement {
  const said = words().operatorPage;
  const mb = (bytes: number) => Math.round(bytes / 1_048_576);
  const figures = ({ worker, status }: OperatorWorker) =>
    status === null
      ? [worker, said.saysNothing, '', '', '', '']
      : [
          worker,
          said.memoryFigures(mb(status.rssBytes), mb(status.heapUsedBytes)),
          said.milliseconds(status.eventLoopLagMs),
          status.commandsPerSecond === null ? said.notYetMeasured : String(status.commandsPerSecond),
          String(status.tablesHeld),
          said.heardAgo(status.heardSecondsAgo),
        ];
  return h(
    'div',
    { class: 'operator-workers' },
    h(
      'table',
      {},
      h('caption', {}, said.workerFiguresCaption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          said.workerColumns.map((column) => h('th', { scope: 'col' }, column)),
        ),
      ),
      h(
        'tbody',
        {},
        workers.map((worker) =>
          h(
            'tr',
            { 'data-worker': worker.worker },
            figures(worker).map((cell) => h('td', {}, cell)),
          ),
        ),
      ),
    ),
    workers.flatMap(({ worker, status }) =>
      status === null || status.tables.length === 0
        ? []
        : [
            h('p', {}, said.workerTables(worker, status.tables.length, status.tablesHeld)),
            h(
              'ul',
              { class: 'worker-tables', 'data-worker': worker },
              status.tables.map((tableId) =>
                h('li', {}, h('a', { href: `#/replay/${encodeURIComponent(tableId)}`, 'aria-label': said.replayOf(tableId) }, tableId)),
              ),
            ),
          ],
    ),
  );
}

function tableList(listed: readonly OperatorTable[], onWorkers: boolean): HTMLElement {
  const said = words().operatorPage;
  const actions: Readonly<Record<string, string>> = words().actions;
  return h(
    'div',
    { class: 'operator-list' },
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [...said.columns, ...(onWorkers ? [said.ownerColumn] : [])].map((column) => h('th', { scope: 'col' }, column)),
        ),
      ),
      h(
        'tbody',
        {},
        listed.map((table) =>
          h(
            'tr',
            { 'data-table': table.tableId, class: table.overdueSeconds === null ? null : 'stuck' },
            h('td', {}, h('a', { href: table.replay, 'aria-label': said.replayOf(table.tableId) }, table.tableId)),
            h('td', {}, gameTitle(table.game)),
            h('td', {}, table.states.map((state) => state.split('.').slice(1).join(' › ')).join(', ')),
            h('td', { class: 'waiting-on' }, said.waitingOn[table.waitingOn] ?? table.waitingOn),
            h('td', {}, table.awaited.map(({ seat, action, bot }) => said.awaitedSeat(seat, actions[action] ?? action, bot)).join('; ')),
            h('td', {}, new Date(table.lastEventAt).toLocaleString()),
            h('td', { class: 'late' }, table.overdueSeconds === null ? '' : said.seconds(table.overdueSeconds)),
            onWorkers ? h('td', { class: 'owner' }, table.owner ?? '') : null,
          ),
        ),
      ),
    ),
  );
}
