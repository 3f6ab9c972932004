/**
 * The web client's router. Pages are hash routes, so the gateway serves one
 * index.html for all of them:
 *   #/                  lobby
 *   #/table/<id>        a table, as the seat this browser holds there (else as a spectator)
 *   #/watch/<id>        a table, as a spectator
 *   #/replay/<id>?at=N  a finished table, event by event
 */
import { h, replaceChildren } from './dom.js';
import { showLobby } from './lobby.js';
import { showReplay } from './replayPage.js';
import { showTable } from './tablePage.js';

const root = document.getElementById('app')!;
let closePage: () => void = () => {};

function route(): void {
  closePage();
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const [, page, tableId] = path.split('/');
  const id = decodeURIComponent(tableId ?? '');
  if (page === 'table' && id !== '') closePage = showTable(root, id, false);
  else if (page === 'watch' && id !== '') closePage = showTable(root, id, true);
  else if (page === 'replay' && id !== '') {
    const at = Number(new URLSearchParams(query).get('at'));
    closePage = showReplay(root, id, Number.isInteger(at) && at > 0 ? at : null);
  } else if (page === undefined || page === '') closePage = showLobby(root);
  else {
    replaceChildren(root, h('p', { class: 'error' }, `There is no page "${location.hash}". `), h('a', { href: '#/' }, 'Go to the lobby'));
    closePage = () => {};
  }
}

window.addEventListener('hashchange', route);
route();
