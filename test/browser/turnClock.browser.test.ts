/**
 * The turn clock in a real headless Chromium against the real service: a
 * bar on the acting seat for the player and a spectator alike, a warning
 * for the player once 10 s are left, and, when the time runs out, everyone
 * told what the bot did for whom. The service's clock is real: the test
 * waits the 12 s of a turn, twice.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();
const TURN_SECONDS = 12;

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
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
    for (const page of [ada.page, watcher.page]) {
      await settle(() => page.locator('.seat-clock').count()).toBe(1);
      expect(await page.locator('.seat[data-seat="0"] .seat-clock').getAttribute('role')).toBe('timer');
    }
    const first = await barShare(watcher.page);
    await settle(() => barShare(watcher.page)).toBeLessThan(first);
    await screenshot(watcher.page, 'clock-running');

    await settle(() => ada.page.locator('.status .clock-warning').textContent()).toMatch(
      /^\d+ s left: when your time runs out, a bot moves for you\.$/,
    );
    expect(await watcher.page.locator('.clock-warning').count()).toBe(0);
    await settle(() => ada.page.locator('.seat-clock.hurry').count()).toBe(1);
    await screenshot(ada.page, 'clock-warning');

    // Out of time, the bot passes for Ada: what was passed stays hers to see.
    await settle(() => ada.page.locator('.timed-out').textContent()).toBe('Time ran out: a bot passed cards for you.');
    await settle(() => watcher.page.locator('.timed-out').textContent()).toBe('Time ran out: a bot passed cards for Ada (seat 0).');

    // Her first turn to play runs out too: the card the bot played is named to everyone.
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
