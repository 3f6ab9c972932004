/**
 * Screenshots of the web client for the README, taken in headless Chromium
 * (Debian's, as the browser tests use) against the real service run
 * in-process: the lobby, a table mid-trick for each game, a hand's summary,
 * the game-over screen, a replay watched as one seat, a table of two friends
 * (the turn clock running on their seats, one's quick-chat phrase by his
 * seat, the first-game coach's tip; the same table in French, as the friend
 * whose browser speaks it sees it), the phone layout, the lobby in French, the
 * fleet overlay on a game's diagram and the operator's page, and the
 * operator's page of the distributed service (a secured loopback cluster
 * of three nats-server, two workers and a gateway, as `npm run cluster`
 * runs it), where it lists each worker with its figures and tables.
 *
 *   npm run screenshots            writes docs/screenshots/*.png
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../drivers/browser/chromium.js';
import { finishedBotGame, openTableAsPerson, passByClicking, PLAYABLE, playByClicking } from '../drivers/browser/pageFlows.js';
import { readFlags } from '../drivers/flags.js';
import { waitFor } from '../drivers/polling.js';
import { apiCall, PAGE_WAIT, startWebService } from '../drivers/browser/webService.js';
import { startServiceProcesses } from '../drivers/serviceProcesses.js';
import { GAMES } from '../machines/table/options.js';
import { gameOf } from '../drivers/remotePlay.js';

readFlags({}, 'npm run screenshots');

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path });
  console.log(`  ${relative(process.cwd(), path)}`);
}

/** Waits for the person's turn with at least `cards` cards already in the trick. */
async function midTrick(page: Page, cards: number): Promise<void> {
  for (;;) {
    await page.locator(PLAYABLE).first().waitFor();
    if ((await page.locator('.trick-area .trick-card:not(.taken)').count()) >= cards) return;
    const before = await page.locator('.hand-cards .card-button').count();
    await page.locator(PLAYABLE).first().click();
    await waitFor(async () => (await page.locator('.hand-cards .card-button').count()) < before, 'the card to be played', PAGE_WAIT);
  }
}

/** A page in a context of its own; `locale` is the browser's language, which the client speaks on a first visit. */
async function newPage(browser: Browser, viewport = DESKTOP, locale = 'en-US'): Promise<Page> {
  // Reduced motion: each picture shows the table at rest, not a card in flight.
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale, deviceScaleFactor: viewport === PHONE ? 2 : 1 });
  return context.newPage();
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const started = Date.now();
  console.log('starting the service and Chromium…');
  const service = await startWebService();
  const browser = await launchChromium();
  try {
    const url = service.url;
    console.log('finishing bot games for the lobby and the replay…');
    const replayTable = await finishedBotGame(url, 'traitorOfLove');
    await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    await apiCall(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3, 4] });
    await apiCall(url, 'POST', '/api/tables', { game: 'traitorOfLove', bots: [0, 1, 2, 3, 5] });

    console.log('tables mid-trick…');
    const games = [
      ['sevenSuitors', 3, { 'Game ends after': 'hands:3' }],
      ['antiCupid', 0, {}],
      ['traitorOfLove', 3, {}],
    ] as const;
    for (const [game, passes, options] of games) {
      const page = await newPage(browser);
      await openTableAsPerson(page, url, game, options);
      await page.locator('.hand-cards .card-button').first().waitFor();
      if (passes > 0) await passByClicking(page, passes);
      await midTrick(page, 2);
      await shoot(page, `table-${game}`);
      if (game === 'sevenSuitors') {
        console.log('a hand summary…');
        await playByClicking(page, '.summary-dialog');
        await page.locator('.summary-dialog').waitFor();
        await shoot(page, 'hand-summary');
      }
      await page.context().close();
    }

    console.log('the lobby…');
    const lobby = await newPage(browser);
    await lobby.goto(`${url}/#/`);
    await lobby.getByLabel('Your name').fill('Ada');
    await lobby.locator('.table-list tbody tr').nth(3).waitFor();
    await lobby.locator('.table-list td.state', { hasText: 'hand 1 of' }).first().waitFor();
    await shoot(lobby, 'lobby');
    await lobby.context().close();

    console.log('the lobby in French…');
    const french = await newPage(browser, DESKTOP, 'fr-FR');
    await french.goto(`${url}/#/`);
    await french.getByLabel('Votre nom').fill('Ada');
    await french.locator('.table-list td.state', { hasText: 'donne 1 sur' }).first().waitFor();
    await shoot(french, 'lobby-fr');
    await french.context().close();

    console.log('game over…');
    const over = await newPage(browser);
    await openTableAsPerson(over, url, 'sevenSuitors', { 'Game ends after': 'hands:1' });
    await passByClicking(over, 3);
    await playByClicking(over, '.game-over-dialog');
    await over.locator('.game-over-dialog').waitFor();
    await shoot(over, 'game-over');
    await over.context().close();

    console.log('a replay as a seat…');
    const replay = await newPage(browser);
    const { events } = await apiCall<{ events: { type: string }[] }>(url, 'GET', `/api/tables/${replayTable}/log`);
    const middle = events.findIndex((event, index) => index > events.length / 3 && event.type === 'card.played') + 3;
    await replay.goto(`${url}/#/replay/${replayTable}?at=${middle}&seat=2`);
    await replay.locator('.replay-hand .card').first().waitFor();
    await replay.locator('#diagram svg g.state.active').first().waitFor();
    await shoot(replay, 'replay-as-seat');
    await replay.context().close();

    console.log('a table of friends: the clock running, a phrase of quick chat, one friend in French…');
    const { tableId: friends } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', {
      game: 'sevenSuitors',
      options: { end: 'hands:3', specials: 'plain' },
      bots: [1, 3],
      turnSeconds: 60,
    });
    // Bob's browser speaks French: the same table, every word of it in French.
    const [ada, bob] = [await newPage(browser), await newPage(browser, DESKTOP, 'fr-FR')];
    const joins = [
      { page: ada, seat: 0, name: 'Ada', nameLabel: 'Your name', take: 'Take the seat', turn: 'Your turn: choose one card' },
      { page: bob, seat: 2, name: 'Bob', nameLabel: 'Votre nom', take: 'Prendre la place', turn: 'À vous : choisissez une carte' },
    ];
    for (const { page, seat, name, nameLabel, take } of joins) {
      await page.goto(`${url}/#/join/${friends}/${seat}`);
      await page.getByLabel(nameLabel).fill(name);
      await page.getByRole('button', { name: take }).click();
      await page.waitForURL(/#\/table\//);
    }
    // The hand is dealt once both sit.
    for (const { page, turn } of joins) await page.getByText(turn).waitFor();
    await bob.locator('.quick-chat summary').click();
    await bob.getByRole('button', { name: 'Bonne chance !' }).click();
    await ada.locator('.seat[data-seat="2"] .chat-bubble').waitFor();
    await ada.locator('.seat[data-seat="0"] .seat-clock').waitFor();
    // A first visit: the coach's passing tip is beside the felt.
    await ada.locator('.coach-tip:visible').waitFor();
    await shoot(ada, 'friends-table');
    await bob.locator('.seat[data-seat="2"] .seat-clock').waitFor();
    await bob.locator('.coach-tip:visible').waitFor();
    await shoot(bob, 'friends-table-fr');
    await ada.context().close();
    await bob.context().close();

    console.log('the phone layout…');
    const phone = await newPage(browser, PHONE);
    await openTableAsPerson(phone, url, 'traitorOfLove', {});
    await passByClicking(phone, 3);
    await midTrick(phone, 2);
    await shoot(phone, 'phone-table');
    await phone.context().close();
    console.log("the fleet on a diagram, and the operator's page…");
    const fleet = await newPage(browser);
    await fleet.goto(`${url}/#/fleet/sevenSuitors`);
    await fleet.locator('#fleet-diagram svg g.state.fleet').first().waitFor();
    await shoot(fleet, 'fleet-overlay');
    await fleet.goto(`${url}/#/operator`);
    await fleet.getByLabel('Admin token').fill(service.admin.authorization.replace(/^Bearer /, ''));
    await fleet.getByRole('button', { name: 'Sign in' }).click();
    await fleet.locator('.operator-list tr[data-table]').first().waitFor();
    await shoot(fleet, 'operator-page');
    await fleet.context().close();
    await operatorPageOnNats(browser);
    console.log(`screenshots written to ${relative(process.cwd(), OUT)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await browser.close();
    await service.close();
  }
}

/** The operator's page over two workers on a loopback NATS cluster, once both say they hold tables. */
async function operatorPageOnNats(browser: Browser): Promise<void> {
  console.log("the operator's page of the distributed service (3 nats-server, 2 workers, a gateway)…");
  const adminToken = 'screenshots-admin-token';
  // The gateway takes its settings from this environment (asConfigured), as an operator's would.
  process.env.SUITORS_ADMIN_TOKEN = adminToken;
  const cluster = await startServiceProcesses('nats', { workers: 2, gateways: 1, asConfigured: true }, () => undefined);
  try {
    const url = cluster.gateways[0].baseUrl;
    for (let index = 0; index < 5; index++) {
      const game = gameOf(index);
      await apiCall(url, 'POST', '/api/tables', { game, bots: Array.from({ length: GAMES[game].seats }, (_, seat) => seat) });
    }
    const page = await newPage(browser, { width: 1280, height: 1250 });
    await page.goto(`${url}/#/operator`);
    await page.getByLabel('Admin token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitFor(async () => (await page.locator('.worker-tables').count()) === 2, 'both workers to list their tables', PAGE_WAIT);
    await page.locator('#operator-workers').scrollIntoViewIfNeeded();
    await shoot(page, 'operator-page-nats');
    await page.context().close();
  } finally {
    await cluster.stop();
  }
}

await main();
