/**
 * The web client's router. Pages are hash routes, so the gateway serves one
 * index.html for all of them:
 *   #/                  lobby
 *   #/table/<id>        a table, as the seat this browser holds there (else as a spectator)
 *   #/watch/<id>        a table, as a spectator
 *   #/join/<id>/<seat>  an invite: asks a name and takes the seat
 *   #/replay/<id>?at=N&seat=S  a finished table, event by event, as everyone or as seat S saw it
 *   #/fleet/<game>      the fleet's tables on the game's diagram, live (#/fleet: the first game's)
 *   #/operator          the operator's page (admin token)
 */
import { GAME_NAMES, isGameName } from '../../../../machines/games/rules/index.js';
import { h, replaceChildren } from './dom.js';
import { LANGUAGE_NAMES, language, setLanguage, words } from './i18n/index.js';
import { showFleet } from './fleetPage.js';
import { showJoin } from './invites.js';
import { showLobby } from './lobby.js';
import { showOperator } from './operatorPage.js';
import { showReplay } from './replayPage.js';
import { showTable } from './tablePage.js';

const root = document.getElementById('app')!;
let closePage: () => void = () => {};

/** The pages beside the lobby, linked below every page (after it in the tab order); drawn again with each page, in its language. */
const siteLinks = h('nav', { class: 'site-links' });

function route(): void {
  closePage();
  siteLinks.setAttribute('aria-label', words().servicePages);
  replaceChildren(
    siteLinks,
    h('a', { href: '#/fleet' }, words().fleetPage.link),
    ' · ',
    h('a', { href: '#/operator' }, words().operatorPage.link),
  );
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
  } else if (page === 'fleet' && (id === '' || isGameName(id))) {
    // The first game registered, so the page names no game of its own.
    closePage = showFleet(root, id === '' ? GAME_NAMES[0] : id);
  } else if (page === 'operator') closePage = showOperator(root);
  else if (page === undefined || page === '') closePage = showLobby(root);
  else {
    replaceChildren(root, h('p', { class: 'error' }, words().noPage(location.hash)), h('a', { href: '#/' }, words().toLobby));
    closePage = () => {};
  }
}

/** The header's language control, labelled in both languages so either reader finds it; a switch redraws the page. */
function languageControl(): HTMLElement {
  const select = h(
    'select',
    { id: 'language' },
    Object.entries(LANGUAGE_NAMES).map(([value, name]) => h('option', { value, lang: value, selected: value === language() }, name)),
  );
  const label = h('label', { for: 'language' }, words().languageLabel);
  select.addEventListener('change', () => {
    setLanguage(select.value);
    label.textContent = words().languageLabel;
    route();
  });
  return h('p', { class: 'language' }, label, ' ', select);
}

document.documentElement.lang = language();
document.querySelector('header.site')?.append(languageControl());
document.body.append(h('footer', { class: 'site' }, siteLinks));
window.addEventListener('hashchange', route);
route();
