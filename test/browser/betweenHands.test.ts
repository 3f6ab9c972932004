/**
 * A hand of A Traitor of Love from the seat's side, in a real headless
 * Chromium against the real service: six seats with the hand on screen at
 * 1200×900, the "your turn" chime once the player turns it on, the tricks of
 * the hand so far beside the felt, and at the hand's end a summary (the
 * Traitor revealed, who named whom, the last trick) that stays until the
 * player goes on although the service has dealt the next hand, with the
 * score sheet's first row. Screenshots: test-artifacts/browser/between-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { openTableAsPerson, passByClicking, playByClicking } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

async function spectatorView(tableId: string): Promise<TableView> {
  return (await apiCall<{ view: TableView }>(session.service.url, 'GET', `/api/tables/${tableId}/view`)).view;
}

/** How many tones the page has started: the chime is two. */
function tonesStarted(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { tones: number }).tones);
}

describe('between hands in Chromium', { timeout: 120_000 }, () => {
  it('shows six seats with the hand on screen, chimes when asked, lists the tricks so far, and holds the summary after the Traitor’s reveal until the player goes on', async () => {
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.addInitScript(() => {
      const counted = window as unknown as { tones: number };
      counted.tones = 0;
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (...args: Parameters<OscillatorNode['start']>) {
        counted.tones++;
        return start.apply(this, args);
      };
    });
    const tableId = await openTableAsPerson(page, session.service.url, 'traitorOfLove');
    await page.getByText('Your turn: choose one card').waitFor();

    // Six seats at 1200×900: every card of the hand in view without scrolling.
    const layout = await page.evaluate(() => ({
      scrollY: window.scrollY,
      seats: document.querySelectorAll('.felt .seat').length,
      cards: [...document.querySelectorAll('.hand-cards .card-button')].map((button) => button.getBoundingClientRect()).map((rect) => ({ top: rect.top, bottom: rect.bottom, right: rect.right })),
    }));
    expect(layout.seats).toBe(6);
    expect(layout.cards).toHaveLength(10);
    for (const card of layout.cards) {
      expect(card.top).toBeGreaterThanOrEqual(0);
      expect(card.bottom).toBeLessThanOrEqual(900);
      expect(card.right).toBeLessThanOrEqual(1200);
    }
    expect(layout.scrollY).toBe(0);

    // The chime is off until the player turns it on; then the next turn of theirs chimes.
    expect(await tonesStarted(page)).toBe(0);
    await page.getByRole('button', { name: 'Sound off' }).click();
    expect(await page.getByRole('button', { name: 'Sound on' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('suitors.sound'))).toBe('on');
    await passByClicking(page, 3);

    let tricksChecked = false;
    await playByClicking(page, '.accusation', async (plays) => {
      if (plays !== 2) return;
      await settle(() => tonesStarted(page)).toBeGreaterThanOrEqual(2);
      // By the player's second card the first trick is taken: the panel lists it, newest first, as the service has it.
      const newest = async () => ({
        count: await page.locator('.tricks-so-far .trick-list > li').count(),
        cards: await page.locator('.tricks-so-far .trick-list > li').first().locator('.card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-card'))),
        service: (await spectatorView(tableId)).hand!.tricks,
      });
      await settle(async () => {
        const now = await newest();
        return now.count === now.service.length && now.count > 0 && JSON.stringify(now.cards) === JSON.stringify(now.service.at(-1)!.plays.map((play) => play.card));
      }).toBe(true);
      expect(await page.locator('.tricks-so-far summary').textContent()).toMatch(/^Tricks this hand \(\d+\)$/);
      tricksChecked = true;
    });
    expect(tricksChecked).toBe(true);

    await page.locator('.accusation button').first().click();
    const summary = page.locator('.summary-dialog');
    await summary.waitFor();
    const scored = await spectatorView(tableId);
    const last = scored.lastHand!;
    expect(last.index).toBe(0);
    const traitorName = scored.seats[last.traitor!].occupant!.name;
    expect(await summary.locator('.reveal-line').textContent()).toBe(last.traitor === 0 ? 'You were the Traitor.' : `The Traitor was ${traitorName}.`);
    expect(await summary.locator('.accusations li').count()).toBe(last.accusations!.filter((accused) => accused !== null).length);
    expect(await summary.locator('.final-trick .card').count()).toBe(6);
    expect(await summary.locator('.countdown').textContent()).toMatch(/^The next hand shows in \d+ s\.$/);
    const box = (await summary.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);

    // The service deals the next hand at once; the page has it, and still shows the summary.
    await settle(() => page.locator('.table-header .muted').textContent()).toMatch(/ · hand 2\b/);
    expect(await summary.isVisible()).toBe(true);
    await screenshot(page, 'between-summary');

    // The score sheet has the hand, with each seat's points as the service scored them.
    const points = (await spectatorView(tableId)).handResults[0].handScores.map((score) => (score > 0 ? `+${score}` : String(score)));
    expect(await page.locator('.score-sheet tbody tr').count()).toBe(1);
    expect(await page.locator('.score-sheet tbody tr td.points').allTextContents()).toEqual(points);

    await summary.getByRole('button', { name: 'Next hand' }).click();
    await summary.waitFor({ state: 'detached' });
    await page.getByText('Your turn: choose one card').waitFor();
    await settle(() => page.evaluate(() => document.activeElement?.closest('.hand-cards') != null)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
