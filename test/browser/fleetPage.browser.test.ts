/**
 * The fleet page (#/fleet/<game>) in a real headless Chromium against the
 * real service: the diagram with the fleet overlay and the table of states
 * follow a table as it moves (seating, then passing once its last seat is
 * taken), asked for again every few seconds while the page is shown; no
 * request once the tab is hidden or the page left; and the games that ended
 * in the last 24 hours, with their stays and transitions. The page's clock
 * is the test's, so each refresh comes when the test says. A control above
 * the diagram draws the games that ended in the last hour, day or week
 * instead of the tables in play.
 * Screenshot: test-artifacts/browser/fleet-page.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { finishedBotGame } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

/** What the page shows of one state: the text of its box in the drawing and its row in the table. */
async function shown(page: Page, state: string): Promise<{ box: string; row: string | null }> {
  return page.evaluate((id) => {
    const box = document.getElementById(id);
    const row = document.querySelector(`tr[data-state="${id}"] td.count`);
    return { box: box?.classList.contains('fleet') === true ? (box.textContent ?? '') : '', row: row?.textContent ?? null };
  }, state);
}

describe('the fleet page', { timeout: 120_000 }, () => {
  it('follows a table from seating to passing, refreshing while shown and not once hidden or left', async () => {
    const url = session.service.url;
    await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'sevenSuitors', bots: [1, 2, 3] });
    const page = await session.newPage();
    const errors = pageErrors(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/fleet|fleet=1/.test(request.url())) asked.push(request.url());
    });
    await page.clock.install();
    await page.goto(`${url}/#/fleet/sevenSuitors`);
    await page.locator('#fleet-diagram svg').waitFor();
    expect(await shown(page, 'sevenSuitors.seating')).toEqual({ box: expect.stringContaining('1 table'), row: '1' });
    expect((await shown(page, 'sevenSuitors.passing')).row).toBeNull();
    await expect.poll(() => page.locator('.fleet-summary').textContent()).toContain('1 table in play · 1 finished');
    // The game that ended: counted, with how long its tables stayed in each state and the transitions it took.
    await expect.poll(() => page.locator('.finished-count').textContent()).toBe('1 game ended.');
    const stays = await page.locator('.finished-table').first().locator('tbody tr').allTextContents();
    expect(stays.some((row) => row.startsWith('passing'))).toBe(true);
    const taken = await page.locator('.finished-table').nth(1).locator('tbody tr').allTextContents();
    expect(taken.some((row) => row.includes('card.played'))).toBe(true);

    await apiCall(url, 'POST', `/api/tables/${tableId}/seats/0`, { name: 'Ada' });
    // The service redraws an overlay at most every 2 s: the page's next refreshes bring it.
    await settle(async () => {
      await page.clock.runFor(5_000);
      return shown(page, 'sevenSuitors.passing');
    }).toEqual({ box: expect.stringContaining('1 table'), row: '1' });
    expect(await shown(page, 'sevenSuitors.seating')).toEqual({ box: '', row: null });
    await screenshot(page, 'fleet-page');

    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => page.locator('.fleet-summary').textContent()).toContain('paused while this page is hidden');
    const whileShown = asked.length;
    await page.clock.runFor(120_000);
    expect(asked.length).toBe(whileShown);
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { value: false, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => asked.length).toBeGreaterThan(whileShown);

    await page.goto(`${url}/#/`);
    await page.locator('.tables').waitFor();
    const whenLeft = asked.length;
    await page.clock.runFor(120_000);
    expect(asked.length).toBe(whenLeft);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the games that ended in a range instead of the tables in play, when the range is picked', async () => {
    const url = session.service.url;
    await finishedBotGame(url, 'antiCupid');
    await apiCall(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3, 4] });
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/fleet/antiCupid`);
    await page.locator('#fleet-diagram svg').waitFor();
    const drawing = () =>
      page.evaluate(() => ({
        drawn: document.getElementById('fleet-diagram')?.dataset.drawn,
        shaded: [...document.querySelectorAll('#fleet-diagram g.state.fleet')].map((state) => state.id),
        taken: [...document.querySelectorAll('#fleet-diagram g.transition.fleet')].map((edge) => edge.id).sort(),
      }));
    const live = await drawing();
    expect(live.drawn).toBe('live');
    expect(live.shaded).toContain('antiCupid.seating');

    await page.getByLabel('The diagram shows').selectOption({ label: 'the games that ended in the last hour' });
    await expect.poll(async () => (await drawing()).drawn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00Z\/\d{4}-/);
    const ended = await drawing();
    // No table is in a state of a game that is over; the game that ended took its transitions, the seated table none.
    expect(ended.shaded).toEqual([]);
    expect(ended.taken.length).toBeGreaterThan(0);
    const [from, to] = ended.drawn!.split('/');
    const report = await apiCall<{ games: { game: string; finished: number }[] }>(url, 'GET', `/api/fleet?from=${from}&to=${to}`);
    expect(report.games.find((game) => game.game === 'antiCupid')?.finished).toBe(1);
    await screenshot(page, 'fleet-page-ended');

    await page.getByLabel('The diagram shows').selectOption({ label: 'the tables in play now' });
    await expect.poll(async () => (await drawing()).shaded).toContain('antiCupid.seating');
    expect(errors).toEqual([]);
    await page.close();
  });
});
