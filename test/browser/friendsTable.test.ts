/**
 * A table of friends in a real headless Chromium against the real service:
 * a seat left stays left (none of that table's pop-ups follow the person to
 * the lobby), and a rematch proposed by one person reaches everyone at the
 * table, two people in two browser contexts. Screenshots:
 * test-artifacts/browser/friends-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { openTableAsPerson } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { takeSeat } from './remoteSeat.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
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
});
