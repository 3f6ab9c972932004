/**
 * How the table fits the screen, in a real headless Chromium: dialogs open
 * at their top; on a phone (390×844) every seat shows its number and its
 * whole name, wrapped between words only, the cards are big enough to tap and the passing panel leaves
 * the felt in view; at 1280×720 the hand's dock does not cover one's own
 * seat; the lobby has the rules of the game being chosen.
 * Screenshots: test-artifacts/browser/layout-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { openTableAsPerson } from '../../drivers/browser/pageFlows.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();
const PHONE = { width: 390, height: 844 };
const SMALL_DESKTOP = { width: 1280, height: 720 };

async function openPage(viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage({ viewport });
  return { page, errors: pageErrors(page) };
}

/** Where the dialog's title is, and how far the dialog is scrolled. */
function dialogTop(page: Page) {
  return page.locator('dialog').evaluate((dialog) => ({
    scrollTop: dialog.scrollTop,
    titleTop: dialog.querySelector('h2')!.getBoundingClientRect().top,
    dialogTop: dialog.getBoundingClientRect().top,
  }));
}

describe('the table on small screens in Chromium', { timeout: 120_000 }, () => {
  it('opens a long dialog at its top, its title in view, on a phone and at 1280×720', async () => {
    for (const viewport of [PHONE, SMALL_DESKTOP]) {
      const { page, errors } = await openPage(viewport);
      await openTableAsPerson(page, session.service.url, 'traitorOfLove', { 'Special cards': 'powers' });
      await page.getByRole('button', { name: 'Rules', exact: true }).click();
      await page.locator('dialog h2').waitFor();
      const top = await dialogTop(page);
      expect(top.scrollTop).toBe(0);
      expect(top.titleTop).toBeGreaterThanOrEqual(top.dialogTop);
      // Focus is still on the dialog's button, ready for Enter or Escape.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('names every seat with its number and whole name on a phone, as the pass slots name them', async () => {
    const { page, errors } = await openPage(PHONE);
    await openTableAsPerson(page, session.service.url, 'traitorOfLove');
    await page.getByText('Your turn: choose one card').waitFor();
    const seats = await page.locator('.felt .seat').evaluateAll((boxes) =>
      boxes.map((box) => {
        const name = box.querySelector<HTMLElement>('.seat-name strong')!;
        const mark = box.querySelector<HTMLElement>('.seat-mark');
        // A word the name wraps inside ("Heuristi" / "c bot 3") takes two lines: two boxes for its one range.
        const words = [...(name.textContent ?? '').matchAll(/\S+/g)];
        const broken = words.filter((word) => {
          const range = document.createRange();
          range.setStart(name.firstChild!, word.index);
          range.setEnd(name.firstChild!, word.index + word[0].length);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
        });
        return {
          seat: box.getAttribute('data-seat'),
          mark: mark === null || mark.getBoundingClientRect().width === 0 ? null : mark.textContent,
          cut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
          broken: broken.map((word) => word[0]),
        };
      }),
    );
    expect(seats).toEqual(['0', '1', '2', '3', '4', '5'].map((seat) => ({ seat, mark: `seat ${seat}`, cut: false, broken: [] })));
    const slots = await page.locator('.recipient').evaluateAll((buttons) =>
      buttons.map((button) => ({
        text: button.textContent,
        colour: button.getAttribute('data-seat-colour'),
        // What shows on the phone, the player's name being for screen readers there: no separator left dangling.
        shown: (button.textContent ?? '').replace(button.querySelector('.recipient-name')?.textContent ?? '', ''),
      })),
    );
    expect(slots.length).toBeGreaterThan(0);
    for (const { text, colour, shown } of slots) {
      expect(text).toMatch(new RegExp(`^To Seat ${colour} · `));
      expect(shown).toBe(`To Seat ${colour}: pick a card`);
    }
    await screenshot(page, 'layout-phone-seats');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('gives a phone cards big enough to tap and a passing panel that leaves the felt in view', async () => {
    const { page, errors } = await openPage(PHONE);
    await openTableAsPerson(page, session.service.url, 'sevenSuitors');
    await page.getByText('Your turn: choose one card').waitFor();
    const sizes = await page
      .locator('.hand-cards .card-button .card')
      .evaluateAll((cards) =>
        cards.map((card) => ({ width: card.getBoundingClientRect().width, height: card.getBoundingClientRect().height })),
      );
    for (const size of sizes) {
      expect(size.width).toBeGreaterThanOrEqual(44);
      expect(size.height).toBeGreaterThanOrEqual(60);
    }
    await screenshot(page, 'layout-phone-passing');
    const dock = await page.locator('.hand-dock').evaluate((element) => element.getBoundingClientRect());
    expect(dock.height).toBeLessThanOrEqual(PHONE.height * 0.3);
    const own = await page.locator('.felt .seat.own').evaluate((element) => element.getBoundingClientRect());
    expect(own.bottom).toBeLessThanOrEqual(dock.top);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps one’s own seat clear of the hand at 1280×720', async () => {
    const { page, errors } = await openPage(SMALL_DESKTOP);
    await openTableAsPerson(page, session.service.url, 'traitorOfLove');
    await page.getByText('Your turn: choose one card').waitFor();
    await screenshot(page, 'layout-1280-passing');
    await settle(async () => {
      const dock = await page.locator('.hand-dock').evaluate((element) => element.getBoundingClientRect().top);
      const own = await page.locator('.felt .seat.own').evaluate((element) => element.getBoundingClientRect().bottom);
      return own <= dock;
    }).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has the rules of the game being chosen in the lobby', async () => {
    const { page, errors } = await openPage(SMALL_DESKTOP);
    await page.goto(`${session.service.url}/#/`);
    await page.getByLabel('Game', { exact: true }).selectOption('antiCupid');
    await page.getByRole('button', { name: 'Rules of this game' }).click();
    const dialog = page.getByRole('dialog', { name: 'How to play' });
    await dialog.waitFor();
    expect(await dialog.locator('h3').first().textContent()).toBe('Anti-Cupid');
    expect(await dialog.textContent()).toContain('The game ends: five hands: everyone is Anti-Cupid once.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
