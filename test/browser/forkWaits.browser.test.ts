/**
 * A fork waits for its people (issue 33: "after a fork the bots play on at
 * once"), in a real headless Chromium: Ada plays on from a game she played
 * with Bob; Bob's seat is open at the new table, the game waits at its
 * turn, and Ada may let a bot take it ("Play on with bots in the open
 * seats"), after which the game goes on.
 */
import { describe, expect, it } from 'vitest';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { apiCall } from '../../drivers/browser/webService.js';
import type { ReplayStep } from '../../services/gateway/web/src/api.js';
import { takeSeat } from './remoteSeat.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

/** A finished one-hand game Ada (seat 0) and Bob (seat 1) played with two bots, and an event right before Bob's turn. */
async function gameOfTwoPeople(url: string): Promise<{ tableId: string; at: number }> {
  const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', {
    game: 'sevenSuitors',
    options: { end: 'hands:1' },
    bots: [2, 3],
  });
  const people = await Promise.all([takeSeat(url, tableId, 0, 'Ada'), takeSeat(url, tableId, 1, 'Bob')]);
  await Promise.all(people.map((person) => person.playUntil((view) => view.outcome?.finished === true)));
  const { events } = await apiCall<{ events: { type: string }[] }>(url, 'GET', `/api/tables/${tableId}/log`);
  for (let at = 20; at < events.length; at++) {
    if (events[at - 1].type !== 'card.played') continue;
    const step = await apiCall<ReplayStep>(url, 'GET', `/api/tables/${tableId}/replay?at=${at}`);
    if (step.view.phase === 'trickPlay' && step.view.hand?.turn === 1) return { tableId, at };
  }
  throw new Error(`no turn of seat 1 in the trick play of ${tableId}`);
}

describe('a fork that waits for its people, in Chromium', { timeout: 180_000 }, () => {
  it("keeps Bob's seat open when Ada plays on, waits at his turn, and lets her start a bot in it", async () => {
    const url = session.service.url;
    const { tableId, at } = await gameOfTwoPeople(url);
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/replay/${tableId}?at=${at}`);
    await page.getByRole('button', { name: 'Play on from here' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your seat').selectOption('0');
    await dialog.getByLabel('Your name').fill('Ada');
    await dialog.getByRole('button', { name: 'Play on' }).click();
    await page.waitForURL((address) => /#\/table\/t-/.test(address.hash) && !address.hash.includes(tableId));
    const bobSeat = page.locator('.felt .seat[data-seat="1"]');
    await settle(() => bobSeat.locator('.seat-name').textContent()).toBe('Open seat');
    expect(await bobSeat.getAttribute('class')).toContain('to-act');
    await page.getByRole('button', { name: 'Play on with bots in the open seats' }).click();
    await settle(() => bobSeat.locator('.seat-name').textContent()).toBe('Bot for seat 1');
    // The bot plays Bob's card: the turn moves on from seat 1.
    await settle(() => bobSeat.getAttribute('class')).not.toContain('to-act');
    expect(errors).toEqual([]);
    await page.close();
  });
});
