/**
 * A hand of A Traitor of Love from the seat's side, in a real headless
 * Chromium against the real service: six seats with the hand on screen at
 * 1200×900, the "your turn" chime once the player turns it on, the tricks of
 * the hand so far beside the felt, and at the hand's end a summary (the
 * Traitor revealed, who named whom, the last trick) that stays until the
 * player goes on (or its countdown runs out) although the service has dealt
 * the next hand, with the score sheet's first row; and an Anti-Cupid hand's summary in words (whom
 * each marriage scored for, the split suits that scored for Anti-Cupid).
 * Screenshots: test-artifacts/browser/between-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Suit } from '../../machines/cards/card.js';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { finishedBotGame, openTableAsPerson, passByClicking, playByClicking } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { SUMMARY_SECONDS } from '../../services/gateway/web/src/betweenHands.js';
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
  it('shows six seats with the hand on screen, chimes when asked, lists the tricks so far, and holds the summary after the Traitor’s reveal through the next deal until its countdown runs out', async () => {
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
    // The page's clock runs as any clock does, and jumps only where the test says (the summary's countdown).
    await page.clock.install();
    const tableId = await openTableAsPerson(page, session.service.url, 'traitorOfLove');
    await page.getByText('Your turn: choose one card').waitFor();

    // Six seats at 1200×900: every card of the hand in view without scrolling.
    const layout = await page.evaluate(() => ({
      scrollY: window.scrollY,
      seats: document.querySelectorAll('.felt .seat').length,
      cards: [...document.querySelectorAll('.hand-cards .card-button')]
        .map((button) => button.getBoundingClientRect())
        .map((rect) => ({ top: rect.top, bottom: rect.bottom, right: rect.right })),
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
    expect(await page.getByRole('button', { name: 'Sounds', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await page.getByRole('button', { name: 'Sounds', exact: true }).click();
    expect(await page.getByRole('button', { name: 'Sounds', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('suitors.sound'))).toBe('on');
    await passByClicking(page, 3);

    let tricksChecked = false;
    await playByClicking(page, '.accusation', async (plays) => {
      if (plays !== 2) return;
      await settle(() => tonesStarted(page)).toBeGreaterThanOrEqual(2);
      // By the player's second card the first trick is taken: the panel lists it, newest first, as the service has it.
      const newest = async () => ({
        count: await page.locator('.tricks-so-far .trick-list > li').count(),
        cards: await page
          .locator('.tricks-so-far .trick-list > li')
          .first()
          .locator('.card')
          .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-card'))),
        service: (await spectatorView(tableId)).hand!.tricks,
      });
      await settle(async () => {
        const now = await newest();
        return (
          now.count === now.service.length &&
          now.count > 0 &&
          JSON.stringify(now.cards) === JSON.stringify(now.service.at(-1)!.plays.map((play) => play.card))
        );
      }).toBe(true);
      const count = await page.locator('.tricks-so-far .trick-list > li').count();
      expect(await page.locator('.tricks-so-far summary').textContent()).toBe(`Tricks this hand (${count})`);
      tricksChecked = true;
    });
    expect(tricksChecked).toBe(true);

    await page.locator('.accusation button').first().click();
    const summary = page.locator('.summary-dialog');
    await summary.waitFor();
    // The page's clock stops here, so the countdown moves only when the test says.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
    const scored = await spectatorView(tableId);
    const last = scored.lastHand!;
    expect(last.index).toBe(0);
    const traitorName = scored.seats[last.traitor!].occupant!.name;
    expect(await summary.locator('.reveal-line').textContent()).toBe(
      last.traitor === 0 ? 'You were the Traitor.' : `The Traitor was ${traitorName}.`,
    );
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

    // Nobody presses "Next hand": the countdown runs out and the next hand shows by itself.
    const left = Number(/in (\d+) s/.exec((await summary.locator('.countdown').textContent()) ?? '')![1]);
    expect(left).toBeGreaterThan(SUMMARY_SECONDS - 10);
    await page.clock.runFor((left - 1) * 1_000);
    expect(await summary.locator('.countdown').textContent()).toBe('The next hand shows in 1 s.');
    await page.clock.runFor(1_000);
    await summary.waitFor({ state: 'detached' });
    await page.clock.resume();
    await page.getByText('Your turn: choose one card').waitFor();
    await settle(() => page.evaluate(() => document.activeElement?.closest('.hand-cards') != null)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says whom each marriage of an Anti-Cupid hand scored for, and which split suits scored for Anti-Cupid', async () => {
    const url = session.service.url;
    const tableId = await finishedBotGame(url, 'antiCupid');
    const view = await spectatorView(tableId);
    const last = view.lastHand!;
    const result = view.handResults[last.index];
    const names = view.seats.map((seat) => seat.occupant!.name);
    const antiCupid = names[last.antiCupid!];

    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/watch/${tableId}`);
    const panel = page.locator('aside .last-hand');
    await panel.waitFor();
    expect(await panel.locator('.hand-summary > p').first().textContent()).toMatch(new RegExp(`Anti-Cupid was ${antiCupid}\\.$`));
    const lines = await panel.locator('.marriages li').allTextContents();
    const sides = [...new Set(result.marriages.map((marriage) => marriage.by))];
    expect(lines).toHaveLength(sides.length);
    for (const [index, by] of sides.entries()) {
      const suits = result.marriages.filter((marriage) => marriage.by === by).length;
      const points = `${suits} point${suits === 1 ? '' : 's'}`;
      if (typeof by === 'number') {
        const others = names.filter((_, seat) => seat !== by);
        expect(lines[index]).toMatch(
          new RegExp(`^Anti-Cupid \\(${antiCupid}\\) captured both 7s of .+: ${points} to each of the other four \\(`),
        );
        for (const other of others) expect(lines[index]).toContain(other);
      } else {
        expect(lines[index]).toMatch(new RegExp(`^.+ \\(partnership ${by}\\) married .+: ${points} each\\.$`));
      }
    }
    const married = new Set<Suit>(result.marriages.map((marriage) => marriage.suit));
    const split = ([1, 2, 3, 4, 5, 6, 7] as Suit[]).filter((suit) => !married.has(suit));
    if (split.length === 0) expect(await panel.locator('.split').count()).toBe(0);
    else {
      expect(await panel.locator('.split').textContent()).toMatch(
        new RegExp(`^Not married \\(1 point each to Anti-Cupid, ${antiCupid}\\): `),
      );
      expect(await panel.locator('.split .suit-chip').count()).toBe(split.length);
    }
    expect(await panel.textContent()).not.toMatch(/Anti-Cupid married/);
    // The winner is marked in words in the standings, not by a picture some browsers lack a font for.
    const winners = view.outcome!.winners;
    const marked = await page
      .locator('.game-over-dialog .standings tbody tr')
      .evaluateAll((rows) =>
        rows
          .filter((row) => row.querySelector('.winner-mark')?.textContent === ' winner')
          .map((row) => row.querySelector('th')!.firstChild!.textContent),
      );
    expect(marked.sort()).toEqual(winners.map((seat) => names[seat]).sort());
    await screenshot(page, 'between-anti-cupid-last-hand');
    expect(errors).toEqual([]);
    await page.close();
  });
});
