/**
 * The web client in a real headless Chromium against the real service:
 * a person plays whole hands by clicking, a spectator watches, and a
 * finished game is stepped through on the replay page. Screenshots are
 * kept in test-artifacts/browser/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { screenshot } from './artifacts.js';
import { finishedBotGame, openTableAsPerson as openTable, passByClicking, playByClicking } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { browserSession, settle } from './session.js';

const SUITS = ['Spades', 'Moons', 'Diamonds', 'Clubs', 'Stars', 'Pyramids', 'Hearts'];

const session = browserSession();

const openTableAsPerson = (page: Page, game: string, options: Record<string, string> = {}) =>
  openTable(page, session.service.url, game, options);

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
}

async function spectatorView(tableId: string): Promise<TableView> {
  return (await apiCall<{ view: TableView }>(session.service.url, 'GET', `/api/tables/${tableId}/view`)).view;
}

// Each test plays through a hand in a real browser; on a busy machine that takes a while.
describe('the web client in Chromium', { timeout: 120_000 }, () => {
  it('lets a person open a Seven Suitors table with three bots, play a whole hand by clicking, and see the score', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${session.service.url}/#/`);
    await screenshot(page, 'lobby');
    const tableId = await openTableAsPerson(page, 'sevenSuitors', { 'Game ends after': 'hands:1' });
    await settle(() => page.locator('.hand-cards .card-button').count()).toBe(14);
    await screenshot(page, 'seven-suitors-passing');
    await passByClicking(page, 3);

    const plays = await playByClicking(page, '.outcome', async (played) => {
      if (played !== 5) return;
      await screenshot(page, 'seven-suitors-trick-play');
      const watcher = await openPage();
      await watcher.page.goto(`${session.service.url}/#/watch/${tableId}`);
      await watcher.page.getByText('Spectating').waitFor();
      await settle(() => watcher.page.locator('.seat').count()).toBe(4);
      expect(await watcher.page.locator('.hand-cards, .hand-dock').count()).toBe(0);
      expect(await watcher.page.locator('.seat[data-seat="0"] .seat-name').textContent()).toBe('Ada');
      expect(await watcher.page.locator('.seat[data-seat="0"] .seat-notes').textContent()).toContain('Seat 0');
      await screenshot(watcher.page, 'seven-suitors-spectator');
      await watcher.page.close();
      expect(watcher.errors).toEqual([]);
    });
    expect(plays).toBe(14);

    const view = await spectatorView(tableId);
    expect(view.outcome?.finished).toBe(true);
    await settle(() => page.locator('.status').textContent()).toMatch(/^Game over\./);
    for (const team of ['A', 'B'] as const) {
      const row = page.locator(`.scores tr[data-team="${team}"]`);
      const marked = view.marked![team];
      expect(await row.locator('.marked').textContent()).toContain(`(${marked.length}/7)`);
      for (const suit of marked) expect(await row.locator('.marked').textContent()).toContain(SUITS[suit - 1]);
      expect(await row.locator('.marriage-count').textContent()).toBe(String(view.marriageCount![team]));
    }
    const marriages = view.handResults[0].marriages.length;
    expect(await page.locator('aside .last-hand .marriages .suit-chip').count()).toBe(marriages);
    await screenshot(page, 'seven-suitors-hand-over');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lets a person open a first lesson from the lobby, play its hand by clicking without passing, and see who won', async () => {
    const { page, errors } = await openPage();
    const tableId = await openTableAsPerson(page, 'firstLesson');
    await settle(() => page.locator('.hand-cards .card-button').count()).toBe(14);
    expect(await page.getByText('Your turn: choose one card').count()).toBe(0);
    const plays = await playByClicking(page, '.outcome');
    expect(plays).toBe(14);
    const view = await spectatorView(tableId);
    expect(view.title).toBe('Seven Suitors: a first lesson');
    expect(view.outcome?.finished).toBe(true);
    expect(view.handResults).toHaveLength(1);
    await settle(() => page.locator('.status').textContent()).toMatch(/^Game over\./);
    for (const team of ['A', 'B'] as const) {
      expect(await page.locator(`.scores tr[data-team="${team}"] .marked`).textContent()).toContain(`(${view.marked![team].length}/7)`);
    }
    await screenshot(page, 'first-lesson-over');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lets a person at A Traitor of Love pass to the other team, play the hand and name a teammate', async () => {
    const { page, errors } = await openPage();
    await openTableAsPerson(page, 'traitorOfLove');
    await settle(() => page.locator('.passing .recipient').allTextContents()).toEqual([
      expect.stringMatching(/^To Seat 1 · /),
      expect.stringMatching(/^To Seat 3 · /),
      expect.stringMatching(/^To Seat 5 · /),
    ]);
    expect(await page.locator('.role').textContent()).toMatch(/^Your role this hand: (the Traitor|a Matchmaker)/);
    await passByClicking(page, 3);
    const plays = await playByClicking(page, '.accusation');
    expect(plays).toBe(10);
    const accuse = page.locator('.accusation button');
    expect(await accuse.allTextContents()).toEqual([
      expect.stringMatching(/^Accuse Seat 2 · /),
      expect.stringMatching(/^Accuse Seat 4 · /),
    ]);
    await screenshot(page, 'traitor-of-love-accusation');
    await accuse.first().click();
    await page.locator('aside .last-hand').waitFor();
    const points = await page.locator('aside .last-hand .hand-points tr').allTextContents();
    expect(points).toHaveLength(6);
    expect(points[0]).toMatch(/^You[+-]?\d+$/);
    expect(points[1]).toMatch(/^.+[+-]?\d+$/);
    await screenshot(page, 'traitor-of-love-hand-over');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lets a person take an open seat from the lobby, keep it across a reload, and leave it', async () => {
    const { tableId } = await apiCall<{ tableId: string }>(session.service.url, 'POST', '/api/tables', {
      game: 'antiCupid',
      bots: [0, 3, 4],
    });
    // Bo holds seat 1 and never plays, so the game is still waiting on him when Grace has left (bots alone would finish it at once).
    await apiCall(session.service.url, 'POST', `/api/tables/${tableId}/seats/1`, { name: 'Bo' });
    const { page, errors } = await openPage();
    await page.goto(`${session.service.url}/#/`);
    await page.getByLabel('Your name').fill('Grace');
    await page.locator(`tr[data-table="${tableId}"]`).getByRole('button', { name: 'Sit at seat 2' }).click();
    await page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await settle(() => page.locator('.hand-cards .card-button').count()).toBe(12);
    expect(await page.locator('.seat.own .seat-name').textContent()).toMatch(/^You/);
    await page.reload();
    await settle(() => page.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 2/);
    expect(await page.locator('.seat').allTextContents()).toContainEqual(expect.stringMatching(/Anti-Cupid/));
    await screenshot(page, 'anti-cupid-joined');

    await page.getByRole('button', { name: 'Leave seat' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave seat' }).click();
    await page.getByText('You left seat 2').waitFor();
    await page.goto(`${session.service.url}/#/`);
    const row = page.locator(`tr[data-table="${tableId}"]`);
    await row.waitFor();
    expect(await row.textContent()).not.toContain('Back to seat');
    expect(await row.textContent()).toContain('Take seat 2 back');
    expect(await page.evaluate((id) => localStorage.getItem(`suitors.seat.${id}`), tableId)).toBeNull();
    const seat = (await spectatorView(tableId)).seats[2];
    expect(seat.occupant).toMatchObject({ bot: true }); // a bot plays the seat until someone takes it
    expect(errors).toEqual([]);
    await page.close();
  });

  it('steps through a finished all-bot game on the replay page', async () => {
    const tableId = await finishedBotGame(session.service.url, 'sevenSuitors', { end: 'hands:1' });
    const { events } = await apiCall<{ events: unknown[] }>(session.service.url, 'GET', `/api/tables/${tableId}/log`);
    const last = events.length;

    const { page, errors } = await openPage();
    await page.goto(`${session.service.url}/#/replay/${tableId}`);
    const position = page.locator('.position');
    const status = page.locator('.replay-frame .status');
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${last} of ${last}: `));
    expect(await status.textContent()).toContain('Game over');
    expect(await page.getByRole('button', { name: 'Next event' }).isDisabled()).toBe(true);
    expect(await page.locator('#timeline').inputValue()).toBe(String(last));

    await page.getByRole('button', { name: 'First event' }).click();
    await settle(() => position.textContent()).toBe(`Event 1 of ${last}: table opened`);
    expect(await status.textContent()).toContain('Waiting for players: seats 0, 1, 2, 3 open');

    await page.getByRole('button', { name: 'Next event' }).click();
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event 2 of ${last}: .+ \\(bot\\) sat at seat 0$`));
    expect(await status.textContent()).toContain('seats 1, 2, 3 open');

    const middle = Math.floor(last / 2);
    await page.locator('#timeline').fill(String(middle));
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${middle} of ${last}: .+ \\(seat \\d\\) played the `));
    expect(await status.textContent()).toContain('Playing tricks');
    expect(await page.locator('.felt-info .trump').textContent()).toMatch(/Trump: \S+ (Spades|Moons|Diamonds|Clubs|Stars|Pyramids|Hearts)/);
    expect(page.url()).toContain(`?at=${middle}`);
    await settle(() => page.locator('.open-hands li').count()).toBe(4); // a finished game's replay opens every hand
    // Each hand in words: whose, its cards, and the cards it passed to whom, by name.
    for (const hand of await page.locator('.open-hands li').allTextContents()) {
      expect(hand).toMatch(/^.+: .+ — passed .+ to .+, .+ to .+, .+ to .+$/);
      expect(hand).not.toMatch(/no cards|to seat \d/);
    }
    await screenshot(page, 'replay-middle');

    await page.getByRole('button', { name: 'Previous event' }).click();
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${middle - 1} of ${last}: `));
    await page.getByRole('button', { name: 'Last event' }).click();
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${last} of ${last}: `));
    for (const hand of await page.locator('.open-hands li').allTextContents())
      expect(hand).toMatch(/^.+: all cards played( — passed .+)?$/);
    await screenshot(page, 'replay-end');
    expect(errors).toEqual([]);
    await page.close();
  });
});
