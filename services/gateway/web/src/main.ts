/**
 * The web client's router. Pages are hash routes, so the gateway serves one
 * index.html for all of them:
 *   #/                  lobby
 *   #/table/<id>        a table, as the seat this browser holds there (else as a spectator)
 *   #/watch/<id>        a table, as a spectator
 *   #/join/<id>/<seat>  an invite: asks a name and takes the seat
 *   #/replay/<id>?at=N&seat=S  a finished table, event by event, as everyone or as seat S saw it
 */
import { h, replaceChildren } from './dom.js';
import { showJoin } from './invites.js';
import { showLobby } from './lobby.js';
import { showReplay } from './replayPage.js';
import { showTable } from './tablePage.js';

const root = document.getElementById('app')!;
let closePage: () => void = () => {};

function route(): void {
  closePage();
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const [, page, tableId, seat] = path.split('/');
  const id = decodeURIComponent(tableId ?? '');
  window.scrollTo(0, 0);
  if (page === 'table' && id !== '') closePage = showTable(root, id, false);
  else if (page === 'watch' && id !== '') closePage = showTable(root, id, true);
  else if (page === 'join' && id !== '' && /^\d+$/.test(seat ?? '')) closePage = showJoin(root, id, Number(seat));
  else if (page === 'replay' && id !== '') {
    const search = new URLSearchParams(query);
    const at = Number(search.get('at'));
    const asSeat = search.get('seat');
    closePage = showReplay(
      root,
      id,
      Number.isInteger(at) && at > 0 ? at : null,
      asSeat !== null && /^\d+$/.test(asSeat) ? Number(asSeat) : null,
    );
  } else if (page === undefined || page === '') closePage = showLobby(root);
  else {
    replaceChildren(root, h('p', { class: 'error' }, `There is no page "${location.hash}". `), h('a', { href: '#/' }, 'Go to the lobby'));
    closePage = () => {};
  }
}

window.addEventListener('hashchange', route);
route();
