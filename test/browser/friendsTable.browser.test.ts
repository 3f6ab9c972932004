/**
 * A table of friends in a real headless Chromium against the real service:
 * a seat left stays left (none of that table's pop-ups follow the person to
 * the lobby), and a rematch proposed by one person reaches everyone at the
 * table, two people in two browser contexts. Screenshots:
 * test-artifacts/browser/friends-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { openTableAsPerson } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { seatPlayedWith, takeSeat } from './remoteSeat.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
}

async function spectatorView(tableId: string): Promise<TableView> {
  return (await apiCall<{ view: TableView }>(session.service.url, 'GET', `/api/tables/${tableId}/view`)).view;
}

/** The seat and token a page holds at a table, as the client keeps them. */
async function heldBy(page: Page, tableId: string): Promise<{ seat: number; token: string }> {
  const kept = await page.evaluate((id) => localStorage.getItem(`suitors.seat.${id}`), tableId);
  return JSON.parse(kept ?? 'null') as { seat: number; token: string };
}

/** A game of one hand with Ada (seat 0, who opens it) and Bob (seat 2, by the invite link), each in a browser context of their own, played to its end. */
async function finishedGameOfTwo(): Promise<{ ada: Page; bob: Page; tableId: string; errors: string[] }> {
  const url = session.service.url;
  const ada = await openPage();
  const tableId = await openTableAsPerson(ada.page, url, 'sevenSuitors', {
    'Game ends after': 'hands:1',
    'Special cards': 'plain',
    'Seat 2 (team A)': 'open',
  });
  const bob = await openPage();
  await bob.page.goto(`${url}/#/join/${tableId}/2`);
  await bob.page.getByLabel('Your name').fill('Bob');
  await bob.page.getByRole('button', { name: 'Take the seat' }).click();
  await bob.page.waitForURL(new RegExp(`#/table/${tableId}$`));
  // Their moves are made from the test, with the tokens their pages hold: the rematch is what is tried here.
  const seats = await Promise.all([ada.page, bob.page].map(async (page) => heldBy(page, tableId)));
  await Promise.all(
    seats.map(({ seat, token }) => seatPlayedWith(url, tableId, seat, token).playUntil((view) => view.outcome?.finished === true)),
  );
  for (const page of [ada.page, bob.page]) await page.locator('.game-over-dialog').waitFor();
  return { ada: ada.page, bob: bob.page, tableId, errors: [...ada.errors, ...bob.errors] };
}

/** Counts every dialog the page opens from now on, however briefly it stays. */
async function countDialogs(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const counted = window as unknown as { dialogsOpened: number };
    counted.dialogsOpened = 0;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node instanceof HTMLDialogElement) counted.dialogsOpened++;
    }).observe(document.body, { childList: true });
  });
  return () => page.evaluate(() => (window as unknown as { dialogsOpened: number }).dialogsOpened);
}

/** Keeps count of the page's WebSockets still open or opening, from its first script on. */
async function countSockets(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const open = new Set<WebSocket>();
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        open.add(this);
        this.addEventListener('close', () => open.delete(this));
      }
    };
    (window as unknown as { socketsOpen: () => number }).socketsOpen = () => open.size;
  });
  return () => page.evaluate(() => (window as unknown as { socketsOpen: () => number }).socketsOpen());
}

/**
 * Leaving closes the seat's socket (4001) before the leave is answered, and each restarts the page as a spectator.
 * The answer is held until the restart of the closed socket is asking for its first view, and that view until the
 * answer is in: both restarts are then under way at once, the order in which a slow network puts them.
 */
async function holdLeaveUntilSocketRestarts(page: Page, tableId: string): Promise<void> {
  let viewAsked = () => {};
  const viewRequested = new Promise<void>((resolve) => (viewAsked = resolve));
  let leaveAnswered = () => {};
  const answered = new Promise<void>((resolve) => (leaveAnswered = resolve));
  let leaving = false;
  await page.route(`**/api/tables/${tableId}/seats/0`, async (route) => {
    leaving = true;
    const response = await route.fetch();
    await viewRequested;
    await route.fulfill({ response });
    leaveAnswered();
  });
  await page.route(`**/api/tables/${tableId}/view`, async (route) => {
    if (leaving) {
      viewAsked();
      await answered;
    }
    await route.continue();
  });
}

describe('a table of friends in Chromium', { timeout: 180_000 }, () => {
  it('shows none of a left table’s pop-ups, on the table or over the lobby, while the game plays on', async () => {
    const url = session.service.url;
    const { page, errors } = await openPage();
    const socketsOpen = await countSockets(page);
    const tableId = await openTableAsPerson(page, url, 'sevenSuitors', {
      'Game ends after': 'hands:2',
      'Special cards': 'plain',
      'Seat 3 (team B)': 'open',
    });
    // Bo is played by the test, so the game moves on only when the test has looked.
    const bo = await takeSeat(url, tableId, 3, 'Bo');
    await page.getByText('Your turn: choose one card').waitFor();
    await holdLeaveUntilSocketRestarts(page, tableId);
    await page.getByRole('button', { name: 'Leave seat' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave seat' }).click();
    await page.getByText('You left seat 0').waitFor();
    const dialogsOpened = await countDialogs(page);
    await bo.playUntil((view) => view.handResults.length === 1);
    // The end of a hand must not cover the way back to the seat with its summary.
    await settle(() => page.locator('.last-hand').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Take seat 0 back' }).click({ trial: true });
    expect(await dialogsOpened()).toBe(0);
    await page.getByRole('link', { name: '← Lobby' }).click();
    await page.waitForURL(/#\/$/);
    // Leaving restarts the page as a spectator twice (the leave, and the seat's socket closed by it): neither follow may outlive it.
    await settle(socketsOpen).toBe(0);
    // Nor may the table, left behind, open them over the lobby while its game goes on to the end.
    await bo.playUntil((view) => view.outcome?.finished === true);
    await settle(() => page.locator('.lobby').count()).toBe(1);
    await settle(async () =>
      (await apiCall<{ tables: { tableId: string }[] }>(url, 'GET', '/api/tables/recent')).tables.map(({ tableId: id }) => id),
    ).toContain(tableId);
    expect(await dialogsOpened()).toBe(0);
    expect(await page.locator('dialog').count()).toBe(0);
    await screenshot(page, 'friends-left-lobby');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('takes a rematch proposed by one person to everyone at the table; declined, it makes nothing; accepted, both sit again', async () => {
    const { ada, bob, tableId, errors } = await finishedGameOfTwo();
    await ada.locator('.game-over-dialog').getByRole('button', { name: 'Propose a rematch' }).click();
    // Bob is asked at once: the game-over screen gives way to the question, his answer focused.
    const offer = bob.locator('.rematch-offer');
    await settle(() => offer.locator('.rematch-headline').textContent()).toBe('Ada (seat 0) proposes a rematch.');
    expect(await bob.locator('.game-over-dialog').count()).toBe(0);
    await settle(() => bob.evaluate(() => document.activeElement?.textContent)).toBe('Accept the rematch');
    await settle(() => ada.locator('.rematch-offer .rematch-headline').textContent()).toBe('You propose a rematch.');
    expect(await ada.locator('.rematch-offer li[data-seat="2"]').textContent()).toBe('Bob (seat 2): has not answered yet');
    expect(await ada.locator('.rematch-offer .accept').count()).toBe(0);
    await screenshot(bob, 'friends-rematch-asked');

    await offer.getByRole('button', { name: 'Decline' }).click();
    for (const page of [ada, bob])
      await settle(() => page.locator('.rematch-offer .rematch-headline').textContent()).toBe('The rematch was declined.');
    expect(await ada.locator('.rematch-offer li[data-seat="2"]').textContent()).toBe('Bob (seat 2): declined');
    expect(ada.url()).toContain(`#/table/${tableId}`);

    // Proposed again, from the panel this time, and accepted: both are seated at the new table, each in their own seat.
    await bob.getByRole('button', { name: 'Propose a rematch' }).click();
    await settle(() => ada.locator('.rematch-offer .rematch-headline').textContent()).toBe('Bob (seat 2) proposes a rematch.');
    await ada.getByRole('button', { name: 'Accept the rematch' }).click();
    for (const page of [ada, bob]) await page.waitForURL((address) => /#\/table\/t-/.test(address.hash) && !address.hash.includes(tableId));
    const next = decodeURIComponent(ada.url().split('#/table/')[1]);
    expect(decodeURIComponent(bob.url().split('#/table/')[1])).toBe(next);
    await settle(() => ada.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 0/);
    await settle(() => bob.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 2/);
    const rematch = await spectatorView(next);
    expect(rematch.options).toEqual((await spectatorView(tableId)).options);
    expect(rematch.seats.map((seat) => seat.occupant)).toEqual([
      { name: 'Ada', bot: false },
      { name: 'Heuristic bot 1', bot: true },
      { name: 'Bob', bot: false },
      { name: 'Heuristic bot 3', bot: true },
    ]);
    expect(errors).toEqual([]);
    await ada.close();
    await bob.close();
  });

  it('tells a spectator how a rematch stands, and offers them no answer', async () => {
    const url = session.service.url;
    const { ada, bob, tableId, errors } = await finishedGameOfTwo();
    const watcher = await openPage();
    await watcher.page.goto(`${url}/#/watch/${tableId}`);
    await watcher.page.locator('.game-over').waitFor();
    await ada.locator('.game-over-dialog').getByRole('button', { name: 'Propose a rematch' }).click();
    await settle(() => watcher.page.locator('.rematch-offer .rematch-headline').textContent()).toBe('Ada (seat 0) proposes a rematch.');
    expect(await watcher.page.locator('.rematch-offer button').count()).toBe(0);
    // Nobody but Ada accepted: no table is made.
    await bob.getByRole('button', { name: 'Decline' }).click();
    await settle(() => watcher.page.locator('.rematch-offer .rematch-headline').textContent()).toBe('The rematch was declined.');
    const { rematch } = await apiCall<{ rematch: { status: string; rematchTableId: string | null } }>(
      url,
      'GET',
      `/api/tables/${tableId}/rematch`,
    );
    expect(rematch).toMatchObject({ status: 'declined', rematchTableId: null });
    expect([...errors, ...watcher.errors]).toEqual([]);
    for (const page of [ada, bob, watcher.page]) await page.close();
  });

  it('shows a quick-chat phrase by its sender’s seat to everyone at or watching the table, and never logs it', async () => {
    const url = session.service.url;
    const { ada, bob, tableId, errors } = await finishedGameOfTwo();
    const watcher = await openPage();
    await watcher.page.goto(`${url}/#/watch/${tableId}`);
    await watcher.page.locator('.game-over').waitFor();
    for (const page of [ada, bob]) {
      await page.keyboard.press('Escape');
      await page.locator('.game-over-dialog').waitFor({ state: 'detached' });
    }
    await ada.locator('.quick-chat summary').click();
    await ada.getByRole('button', { name: 'Well played!' }).click();
    for (const page of [bob, watcher.page]) {
      await settle(() => page.locator('.seat[data-seat="0"] .chat-bubble').textContent()).toBe('Well played!');
      expect(await page.locator('.chat-log').textContent()).toBe('Ada (seat 0): Well played!');
    }
    await settle(() => ada.locator('.seat[data-seat="0"] .chat-bubble').count()).toBe(1);
    // The button used keeps the focus, and the panel stays open through the redraw.
    expect(await ada.evaluate(() => document.activeElement?.getAttribute('data-phrase'))).toBe('wellPlayed');
    expect(await ada.locator('.quick-chat').getAttribute('open')).toBe('');
    // A spectator sees the chat but has nothing to send.
    expect(await watcher.page.locator('.chat-phrases button:visible').count()).toBe(0);
    await screenshot(bob, 'friends-chat');

    // Bob mutes this table: Ada's next phrase reaches the spectator, not him.
    await bob.locator('.quick-chat summary').click();
    await bob.getByRole('button', { name: 'Mute chat at this table' }).click();
    expect(await bob.getByRole('button', { name: 'Mute chat at this table' }).getAttribute('aria-pressed')).toBe('true');
    await ada.getByRole('button', { name: 'laughs' }).click();
    await settle(() => watcher.page.locator('.seat[data-seat="0"] .chat-bubble').textContent()).toBe('😂');
    expect(await bob.locator('.chat-bubble').count()).toBe(0);

    // Six phrases a minute per seat; the seventh is refused, and says when the next may go.
    const { token } = await heldBy(ada, tableId);
    const say = (phrase: string) =>
      fetch(`${url}/api/tables/${tableId}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ phrase }),
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await say('thanks')).status);
    expect(statuses).toEqual([204, 204, 204, 204, 429]);
    expect(await (await say('thanks')).json()).toMatchObject({
      error: 'rateLimited',
      message: expect.stringMatching(/^a seat may send 6 chat phrases a minute; seat 0 may send the next in \d+ s$/),
    });
    expect((await say('shout')).status).toBe(400);
    const spectatorSays = await fetch(`${url}/api/tables/${tableId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phrase: 'hello' }),
    });
    expect(spectatorSays.status).toBe(401);
    // Not a game event: the log and the record know nothing of it.
    const log = await apiCall<{ events: { type: string }[] }>(url, 'GET', `/api/tables/${tableId}/log`);
    expect(log.events.map(({ type }) => type).filter((type) => /chat/i.test(type))).toEqual([]);
    expect(JSON.stringify(await apiCall(url, 'GET', `/api/tables/${tableId}/record`))).not.toMatch(/wellPlayed|thanks|laugh/);
    expect([...errors, ...watcher.errors]).toEqual([]);
    for (const page of [ada, bob, watcher.page]) await page.close();
  });
});
