/**
 * Replays in a real headless Chromium: a finished game watched as one seat
 * saw it (the service's view of that seat: its own hand and role, the cards
 * it could play, no other hand), the state diagram beside
 * the timeline lit at each step, autoplay; and a game not over yet, whose
 * timeline says what it can without the log.
 */
import { describe, expect, it } from 'vitest';
import type { ReplayStep } from '../../services/gateway/web/src/api.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { screenshot } from './artifacts.js';
import { finishedBotGame } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

describe('replays in Chromium', { timeout: 120_000 }, () => {
  it('shows a finished game as one seat saw it, with the diagram lit at each step, and plays it on by itself', async () => {
    const url = session.service.url;
    const tableId = await finishedBotGame(url, 'traitorOfLove');
    const { events } = await apiCall<{ events: { type: string }[] }>(url, 'GET', `/api/tables/${tableId}/log`);
    const at = events.findIndex((event, index) => index > events.length / 3 && event.type === 'card.played') + 2;
    const step = await apiCall<ReplayStep>(url, 'GET', `/api/tables/${tableId}/replay?at=${at}`);
    // The seat whose turn it is: what it could play shows only in its own view (GET /replay?seat=).
    const seat = step.view.hand!.turn!;
    const own = step.view.openHands!.find((hand) => hand.seat === seat)!;
    const seen = await apiCall<ReplayStep>(url, 'GET', `/api/tables/${tableId}/replay?at=${at}&seat=${seat}`);
    expect(seen.view.hand!.legalCards.length).toBeGreaterThan(0);

    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/replay/${tableId}?at=${at}`);
    await settle(() => page.locator('.open-hands li').count()).toBe(6);
    const asked = page.waitForRequest((request) => request.url().includes(`/replay?at=${at}&seat=${seat}`));
    await page.getByLabel('Watch as').selectOption(String(seat));
    await asked;
    await settle(() => page.locator('.replay-hand .card').count()).toBe(own.cards.length);
    expect(await page.locator('.replay-hand .card.could-play').count()).toBe(seen.view.hand!.legalCards.length);
    expect(await page.locator('.replay-hand .could-do').textContent()).toMatch(/^Could play: /);
    expect(await page.locator('.open-hands').count()).toBe(0);
    expect(page.url()).toContain(`?at=${at}&seat=${seat}`);
    expect(await page.locator('.seat.own').getAttribute('data-seat')).toBe(String(seat));
    expect(await page.locator('.replay-hand h3').textContent()).toBe(
      `Hand of seat ${seat} · ${own.roleCard === 7 ? 'the Traitor' : 'a Matchmaker'}`,
    );
    // Only the watched seat's role shows, as that seat saw the table before the reveal.
    const roles = await page.locator('.seat .role-traitor, .seat .role-matchmaker').count();
    expect(roles).toBe(step.view.hand?.traitor == null ? 1 : 6);
    await settle(() => page.locator('#diagram').getAttribute('data-active')).toBe(step.activeStates.join(' '));
    await screenshot(page, 'replay-as-seat');

    await page.getByRole('button', { name: '▶ Play' }).click();
    await settle(async () =>
      Number(/^Event (\d+)/.exec((await page.locator('.position').textContent()) ?? '')?.[1]),
    ).toBeGreaterThanOrEqual(at + 2);
    await page.getByRole('button', { name: '⏸ Pause' }).click();
    expect(await page.getByRole('button', { name: '▶ Play' }).getAttribute('aria-pressed')).toBe('false');
    const paused = await page.locator('.position').textContent();
    const shown = Number(/^Event (\d+)/.exec(paused ?? '')?.[1]);
    const later = await apiCall<ReplayStep>(url, 'GET', `/api/tables/${tableId}/replay?at=${shown}`);
    await settle(() => page.locator('#diagram').getAttribute('data-active')).toBe(later.activeStates.join(' '));
    expect(page.url()).toContain(`&seat=${seat}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('steps through a game not over yet as a spectator saw it, with no blank event lines', async () => {
    const url = session.service.url;
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'sevenSuitors', bots: [1, 2, 3] });
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/replay/${tableId}`);
    await settle(() => page.locator('.position').textContent()).toBe('Event 4 of 4');
    expect(await page.locator('.replay-note').textContent()).toContain('The game is not over');
    expect(await page.getByLabel('Watch as').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'First event' }).click();
    await settle(() => page.locator('.position').textContent()).toBe('Event 1 of 4');
    expect(errors).toEqual([]);
    await page.close();
  });
});
