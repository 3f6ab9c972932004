/**
 * The small defects of issue 33, each in a real headless Chromium: the
 * keyboard reaches "Open table" in a few presses; a replay watched as a seat
 * names that seat by its player, never "You", and so does "Play on from
 * here". Each failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { finishedBotGame } from '../../drivers/browser/pageFlows.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
}

describe('small defects in Chromium', { timeout: 120_000 }, () => {
  it('reaches "Open table" from the top of the lobby in at most 12 Tab presses, whatever tables are listed', async () => {
    const url = session.service.url;
    // Tables listed in the lobby, each with its buttons, that the keyboard should not have to pass first.
    for (let i = 0; i < 4; i++) await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    const { page, errors } = await openPage();
    await page.goto(`${url}/#/`);
    await settle(() => page.locator('.tables li, .tables tr').count()).toBeGreaterThan(0);
    let presses = 0;
    while (presses < 40 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Open table') {
      await page.keyboard.press('Tab');
      presses++;
    }
    expect(presses).toBeLessThanOrEqual(12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('names the seat a replay is watched as by its player, on the felt, in the note and in "Play on from here"', async () => {
    const url = session.service.url;
    const tableId = await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    const { page, errors } = await openPage();
    await page.goto(`${url}/#/replay/${tableId}?at=20&seat=2`);
    await settle(() => page.locator('.replay-note').textContent()).toBe(
      'As Heuristic bot 2 (seat 2) saw it: their own hand and role, and what they could do.',
    );
    expect(await page.locator('.felt .seat[data-seat="2"] .seat-name').textContent()).toBe('Heuristic bot 2');
    expect(await page.locator('.felt .seat-name').allTextContents()).not.toContain('You');
    await page.getByRole('button', { name: 'Play on from here' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.locator('select option').allTextContents()).toContain('Seat 2 · in place of Heuristic bot 2');
    expect(await dialog.textContent()).not.toContain('in place of You');
    expect(errors).toEqual([]);
    await page.close();
  });
});
