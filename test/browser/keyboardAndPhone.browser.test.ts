/**
 * Playing without a mouse and on a phone, in a real headless Chromium: a
 * player passes three cards and plays a trick with the keyboard alone, focus
 * staying in the hand (and on "Go to your hand" when a view draws the table
 * anew), and a card that cannot be played says why; on a
 * 390×844 screen the hand and the trick are in view without scrolling and
 * nothing scrolls sideways; under prefers-reduced-motion nothing moves.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { screenshot } from './artifacts.js';
import { openTableAsPerson, passByClicking, PLAYABLE } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { adaAndBea, passBea } from './remoteSeat.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

interface Focused {
  readonly inHand: boolean;
  readonly card: string | null;
  readonly legal: boolean;
  readonly text: string;
}

function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return {
      inHand: active?.closest('.hand-cards') != null,
      card: active?.getAttribute('data-card') ?? null,
      legal: active?.classList.contains('legal') === true && active.getAttribute('aria-disabled') !== 'true',
      text: active?.textContent ?? '',
    };
  });
}

/** Presses `key` until `reached` holds for the focused element, at most `limit` times. */
async function pressUntil(page: Page, key: string, reached: (now: Focused) => boolean, limit = 20): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    const now = await focused(page);
    if (reached(now)) return now;
    await page.keyboard.press(key);
  }
  const now = await focused(page);
  if (!reached(now)) throw new Error(`pressing ${key} ${limit} times did not get there; focus is on "${now.text}"`);
  return now;
}

async function spectatorView(tableId: string): Promise<TableView> {
  return (await apiCall<{ view: TableView }>(session.service.url, 'GET', `/api/tables/${tableId}/view`)).view;
}

describe('keyboard, phone and motion in Chromium', { timeout: 120_000 }, () => {
  it('passes three cards and plays a trick with the keyboard alone, focus staying in the hand, and says why a card cannot be played', async () => {
    const page = await session.newPage();
    const errors = pageErrors(page);
    const tableId = await openTableAsPerson(page, session.service.url, 'sevenSuitors', { 'Game ends after': 'hands:1' });
    await page.getByText('Your turn: choose one card').waitFor();
    const cards = page.locator('.hand-cards .card-button');
    // The title says so too, for a player whose tab is in the background.
    expect(await page.title()).toBe('● Your turn: pass cards · Seven Suitors');

    // A few Tabs from the top reach "Go to your hand"; Enter puts focus on the hand.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await pressUntil(page, 'Tab', (now) => now.text === 'Go to your hand', 4);
    await page.keyboard.press('Enter');
    expect((await focused(page)).inHand).toBe(true);

    // The focus ring is not the playable highlight: a blue outline, where playable cards have a gold border.
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { color: style.outlineColor, style: style.outlineStyle, width: style.outlineWidth };
    });
    expect(ring).toEqual({ color: 'rgb(26, 95, 214)', style: 'solid', width: '3px' });

    // Enter picks; the arrows move; focus stays in the hand after every pick although the hand is drawn anew.
    const picked: string[] = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) await page.keyboard.press('ArrowRight');
      const before = await focused(page);
      await page.keyboard.press('Enter');
      await settle(() => page.locator('.hand-cards .card-button.selected').count()).toBe(i + 1);
      expect(await focused(page)).toMatchObject({ inHand: true, card: before.card });
      picked.push(before.card!);
    }
    expect(new Set(picked).size).toBe(3);
    await screenshot(page, 'keyboard-passing');
    await pressUntil(page, 'Shift+Tab', (now) => now.text === 'Pass these cards', 8);
    await page.keyboard.press('Enter');

    // Once the pass is made, focus comes back to the hand; the arrows find a playable card and Enter plays it.
    await page.locator(PLAYABLE).first().waitFor();
    await settle(async () => (await focused(page)).inHand).toBe(true);
    await page.keyboard.press('Home');
    const chosen = await pressUntil(page, 'ArrowRight', (now) => now.legal, 15);
    await page.keyboard.press('Enter');
    await settle(() => cards.count()).toBe(13);
    expect((await focused(page)).inHand).toBe(true);
    await settle(async () => (await spectatorView(tableId)).hand?.tricks.length ?? 0).toBeGreaterThan(0);
    expect((await spectatorView(tableId)).hand!.tricks[0].plays.map((play) => play.card)).toContain(chosen.card);

    // Until a turn comes with a card that may not be played: Enter on it says why and plays nothing.
    let explained = false;
    while (!explained && (await cards.count()) > 1) {
      await page.locator(PLAYABLE).first().waitFor();
      await page.locator(PLAYABLE).first().focus();
      await page.keyboard.press('Home');
      const blocked = await page.evaluate(() =>
        [...document.querySelectorAll('.hand-cards .card-button')].findIndex((button) => !button.classList.contains('legal')),
      );
      const count = await cards.count();
      if (blocked === -1) {
        await pressUntil(page, 'ArrowRight', (now) => now.legal, 15);
        await page.keyboard.press('Enter');
        await settle(() => cards.count()).toBe(count - 1);
        continue;
      }
      for (let i = 0; i < blocked; i++) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await settle(() => page.locator('.hand-hint').textContent()).toMatch(/^You must follow \w+: you hold the .+ of \w+\.$/);
      expect(await cards.count()).toBe(count);
      expect((await focused(page)).inHand).toBe(true);
      explained = true;
    }
    expect(explained).toBe(true);
    await screenshot(page, 'keyboard-why-not');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the focus on "Go to your hand" while the table is drawn again, so Enter still reaches the hand', async () => {
    const page = await session.newPage();
    const errors = pageErrors(page);
    const { bea } = await adaAndBea(page, session.service.url);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await pressUntil(page, 'Tab', (now) => now.text === 'Go to your hand', 4);
    await passBea(page, bea);
    expect((await focused(page)).text).toBe('Go to your hand');
    await page.keyboard.press('Enter');
    await settle(async () => (await focused(page)).inHand).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a six-seat table on a 390×844 phone: hand and trick in view, nothing scrolls sideways, the diagram folded', async () => {
    const page = await session.newPage({ viewport: { width: 390, height: 844 } });
    const errors = pageErrors(page);
    await openTableAsPerson(page, session.service.url, 'traitorOfLove');
    await passByClicking(page, 3);
    await page.locator(PLAYABLE).first().waitFor();

    const layout = await page.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect() ?? null;
      const buttons = [...document.querySelectorAll('.hand-cards .card-button')].map((button) => button.getBoundingClientRect());
      return {
        scrollWidth: document.documentElement.scrollWidth,
        bodyScrollWidth: document.body.scrollWidth,
        scrollY: window.scrollY,
        felt: box('.felt'),
        dock: box('.hand-dock'),
        buttons: buttons.map((rect) => ({ top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right })),
        diagramOpen: (document.querySelector('.diagram-panel') as HTMLDetailsElement | null)?.open ?? null,
      };
    });
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    expect(layout.bodyScrollWidth).toBeLessThanOrEqual(390);
    expect(layout.scrollY).toBe(0);
    expect(layout.buttons).toHaveLength(10);
    for (const button of layout.buttons) {
      expect(button.top).toBeGreaterThanOrEqual(0);
      expect(button.bottom).toBeLessThanOrEqual(844);
      expect(button.left).toBeGreaterThanOrEqual(0);
      expect(button.right).toBeLessThanOrEqual(390);
    }
    // The whole felt, trick included, is above the docked hand.
    expect(layout.felt!.top).toBeGreaterThanOrEqual(0);
    expect(layout.felt!.bottom).toBeLessThanOrEqual(layout.dock!.top);
    expect(layout.diagramOpen).toBe(false);
    // Each seat's card of a trick, placed as the felt places it whether or not that seat has played yet, is seen
    // whole: no seat's panel lies over its face (a phone's felt has no room to keep them apart).
    const covered = await page.evaluate(() => {
      const area = document.querySelector('.trick-area')!;
      return [...document.querySelectorAll<HTMLElement>('.felt .seat')].flatMap((seat) => {
        const probe = document.createElement('div');
        probe.className = 'trick-card';
        probe.setAttribute('style', seat.getAttribute('style') ?? '');
        probe.innerHTML =
          '<span class="card suit-H"><span class="face"><span class="rank">7</span><span class="pip">♥</span></span></span><span class="who">Heuristic bot 5</span>';
        area.append(probe);
        const face = probe.querySelector('.card')!.getBoundingClientRect();
        const points = [
          [face.left + 2, face.top + 2],
          [face.right - 2, face.top + 2],
          [face.left + 2, face.bottom - 2],
          [face.right - 2, face.bottom - 2],
          [(face.left + face.right) / 2, (face.top + face.bottom) / 2],
        ];
        const hidden = points.filter(([x, y]) => !probe.contains(document.elementFromPoint(x, y))).length;
        probe.remove();
        return hidden === 0 ? [] : [`seat ${seat.dataset.seat}'s card: ${hidden} of 5 points hidden`];
      });
    });
    expect(covered).toEqual([]);
    await screenshot(page, 'phone-table');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves cards only without prefers-reduced-motion', async () => {
    const animationOf = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await session.newPage({ reducedMotion });
      await page.goto(`${session.service.url}/#/`);
      await page.getByRole('heading', { name: 'Lobby' }).waitFor();
      const names = await page.evaluate(() => {
        const probe = (className: string) => {
          const element = document.createElement('div');
          element.className = className;
          document.body.append(element);
          const style = getComputedStyle(element);
          const name = `${style.animationName}|${style.transitionDuration}`;
          element.remove();
          return name;
        };
        return { played: probe('trick-card arrive'), taken: probe('trick-card taken sweep'), card: probe('card-button') };
      });
      await page.close();
      return names;
    };
    expect(await animationOf('no-preference')).toEqual({ played: 'arrive|0s', taken: 'sweep|0s', card: 'none|0.12s' });
    expect(await animationOf('reduce')).toEqual({ played: 'none|0s', taken: 'none|0s', card: 'none|0s' });
  });
});
