/**
 * "Play on from here" in a real headless Chromium: from a step of a finished
 * game's replay, a new table forked from the log up to that step, the person
 * seated there with the hand the seat held then.
 */
import { describe, expect, it } from 'vitest';
import type { ReplayStep } from '../../services/gateway/web/src/api.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { screenshot } from './artifacts.js';
import { finishedBotGame, PLAYABLE } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

describe('playing on from a replay in Chromium', { timeout: 120_000 }, () => {
  it('opens a new table from a step of a finished game, seated with the hand that seat held then', async () => {
    const url = session.service.url;
    const tableId = await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    const { events } = await apiCall<{ events: { type: string }[] }>(url, 'GET', `/api/tables/${tableId}/log`);
    const at = events.findIndex((event, index) => index > 20 && event.type === 'card.played') + 1;
    const step = await apiCall<ReplayStep>(url, 'GET', `/api/tables/${tableId}/replay?at=${at}`);
    const seat = step.view.hand!.turn!;
    const own = step.view.openHands!.find((hand) => hand.seat === seat)!;

    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/replay/${tableId}?at=${at}`);
    await settle(() => page.locator('.open-hands li').count()).toBe(4);
    await page.getByRole('button', { name: 'Play on from here' }).click();
    const dialog = page.getByRole('dialog', { name: `Play on from event ${at}` });
    await dialog.getByLabel('Your seat').selectOption(String(seat));
    await dialog.getByLabel('Your name').fill('Ada');
    await screenshot(page, 'play-on-dialog');
    await dialog.getByRole('button', { name: 'Play on' }).click();

    await page.waitForURL((address) => /#\/table\/t-/.test(address.hash) && !address.hash.includes(tableId));
    const forked = decodeURIComponent(page.url().split('#/table/')[1]);
    await settle(() => page.locator('.hand-cards .card-button').count()).toBe(own.cards.length);
    await settle(() => page.locator(PLAYABLE).count()).toBeGreaterThan(0);
    expect(await page.locator('.seat.own').getAttribute('data-seat')).toBe(String(seat));
    const { view } = await apiCall<{ view: { seats: { occupant: { name: string; bot: boolean } | null }[] } }>(
      url,
      'GET',
      `/api/tables/${forked}/view`,
    );
    expect(view.seats[seat].occupant).toEqual({ name: 'Ada', bot: false });
    // The new table's log says where it was forked from.
    const forkedLog = await apiCall<{ events: { type: string; data: { settings?: { forkedFrom?: unknown } } }[] }>(
      url,
      'GET',
      `/api/tables/${forked}/log`,
      undefined,
      session.service.admin,
    );
    expect(forkedLog.events[0].type).toBe('table.created');
    expect(forkedLog.events[0].data.settings?.forkedFrom).toEqual({ tableId, at });
    expect(errors).toEqual([]);
    await page.close();
  });
});
