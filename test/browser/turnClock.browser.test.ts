/**
 * The turn clock in a real headless Chromium against the real service: a
 * bar on the acting seat for the player and a spectator alike, a warning
 * for the player once 10 s are left (not before), and, when the time runs
 * out, everyone told what the bot did for whom. Time is the test's: the
 * service's tables run on a clock moved by hand (test/kit/manualTimers.ts),
 * and each page's on Playwright's, so nothing waits out the 12 s of a turn
 * and a busy machine changes nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { manualTimers } from '../kit/manualTimers.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const clock = manualTimers(Date.now());
// The bots move without delay: what falls due now is run at once, while the time moves only when the test says.
const runDueTimers = setInterval(() => clock.advance(0), 10);
afterAll(() => clearInterval(runDueTimers));
const session = browserSession({ timers: clock });
const TURN_SECONDS = 12;
/**
 * Where the pages' clocks start: behind the tables', so each can be paused at a moment of the turn ahead of it,
 * however long the pages took to load. (A bar runs from when its page first saw the deadline: here from 72 s.)
 */
const PAGES_BEHIND_MS = 60_000;

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  await page.clock.install({ time: clock.now() - PAGES_BEHIND_MS });
  return { page, errors: pageErrors(page) };
}

/**
 * Moves every page's clock and the tables' on by `ms`, the pages first: what a page is then told (a bot moved for a
 * seat out of time) is not cleared by its own clock's jump (the notice is shown for a few seconds).
 */
async function timePasses(ms: number, pages: readonly Page[]): Promise<void> {
  const until = clock.now() + ms;
  for (const page of pages) await page.clock.pauseAt(until);
  clock.advance(ms);
}

async function spectatorView(tableId: string): Promise<TableView> {
  return (await apiCall<{ view: TableView }>(session.service.url, 'GET', `/api/tables/${tableId}/view`)).view;
}

const barShare = (page: Page) =>
  page.locator('.seat[data-seat="0"] .seat-clock').evaluate((clock) => Number((clock as HTMLElement).style.getPropertyValue('--left')));

describe('the turn clock in Chromium', { timeout: 120_000 }, () => {
  it('shows the acting seat’s time to everyone, warns the player at 10 s, and tells everyone what the bot did', async () => {
    const url = session.service.url;
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', {
      game: 'sevenSuitors',
      options: { end: 'hands:1', specials: 'plain' },
      bots: [1, 2, 3],
      turnSeconds: TURN_SECONDS,
    });
    const ada = await openPage();
    await ada.page.goto(`${url}/#/join/${tableId}/0`);
    await ada.page.getByLabel('Your name').fill('Ada');
    await ada.page.getByRole('button', { name: 'Take the seat' }).click();
    await ada.page.getByText('Your turn: choose one card').waitFor();
    const watcher = await openPage();
    await watcher.page.goto(`${url}/#/watch/${tableId}`);

    // The bar sits on seat 0, the only seat the clock runs for (the bots have passed), on both pages, and shrinks.
    const pages = [ada.page, watcher.page];
    await settle(async () => (await spectatorView(tableId)).awaiting.map((awaited) => awaited.seat)).toEqual([0]);
    const turnStarted = clock.now();
    // 11 s left: a bar on seat 0 for both, and no warning yet.
    await timePasses(1_000, pages);
    for (const page of pages) {
      await settle(() => page.locator('.seat-clock').count()).toBe(1);
      expect(await page.locator('.seat[data-seat="0"] .seat-clock').getAttribute('role')).toBe('timer');
    }
    for (const page of pages) await settle(() => page.locator('.seat-clock-left').textContent()).toBe('11 s');
    expect(await ada.page.locator('.status .clock-warning').textContent()).toBe('');
    expect(await ada.page.locator('.seat-clock.hurry').count()).toBe(0);
    const first = await barShare(watcher.page);
    await screenshot(watcher.page, 'clock-running');

    // 9.5 s left: the bar has shrunk, and the player is warned and her bar hurries; the spectator is not warned.
    await timePasses(1_500, pages);
    await settle(() => barShare(watcher.page)).toBeLessThan(first);
    await settle(() => ada.page.locator('.status .clock-warning').textContent()).toMatch(
      /^\d+ s left: when your time runs out, a bot moves for you\.$/,
    );
    expect(await watcher.page.locator('.clock-warning').count()).toBe(0);
    await settle(() => ada.page.locator('.seat-clock.hurry').count()).toBe(1);
    await screenshot(ada.page, 'clock-warning');

    await timePasses(turnStarted + TURN_SECONDS * 1000 - clock.now(), pages);
    // Out of time, the bot passes for Ada: what was passed stays hers to see.
    await settle(() => ada.page.locator('.timed-out').textContent()).toBe('Time ran out: a bot passed cards for you.');
    await settle(() => watcher.page.locator('.timed-out').textContent()).toBe('Time ran out: a bot passed cards for Ada (seat 0).');

    // Her first turn to play runs out too: the card the bot played is named to everyone.
    await settle(async () => (await spectatorView(tableId)).awaiting.map((awaited) => [awaited.seat, awaited.action])).toEqual([
      [0, 'play'],
    ]);
    await timePasses(TURN_SECONDS * 1000, pages);
    await settle(() => watcher.page.locator('.timed-out').textContent()).toMatch(
      /^Time ran out: a bot played the (\d+|7a|7b) of \w+ for Ada \(seat 0\)\.$|^Time ran out: a bot played the (Cupid|Chaperone|Rival|Go-Between) for Ada \(seat 0\)\.$/,
    );
    const played = (await watcher.page.locator('.timed-out').textContent())!.replace(' for Ada (seat 0).', ' for you.');
    await settle(() => ada.page.locator('.timed-out').textContent()).toBe(played);
    expect([...ada.errors, ...watcher.errors]).toEqual([]);
    await ada.page.close();
    await watcher.page.close();
  });
});
