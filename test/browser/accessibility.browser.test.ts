/**
 * No accessibility violation of any impact (axe-core, WCAG 2.1 A and AA
 * rules and its best practices) on any page of the web client, in a real
 * headless Chromium at 1280x720 and on a phone: the lobby, an invite, a table seated and watched, a hand's summary, the
 * rules, the game-over screen, a replay as a seat, the phone layout, the
 * fleet page and the operator's page (signed out and in).
 * axe-core is injected from node_modules, nothing is fetched from elsewhere.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { finishedBotGame, openTableAsPerson, passByClicking, playByClicking } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { browserSession } from './session.js';

const session = browserSession();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly string[];
}

/** Every violation axe-core finds on the page as it is now, of any impact (minor ones too). */
async function violationsOn(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  // A card still fading in would be measured half transparent: judge the page at rest.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

describe('accessibility of the web client (axe-core) in Chromium', { timeout: 120_000 }, () => {
  it('finds no violation on the lobby, an invite, a table seated and watched, a summary, the rules and game over', async () => {
    const url = session.service.url;
    // A laptop's screen, where the passing panel once covered the player's own seat.
    const page = await session.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = pageErrors(page);
    // A lobby with a table listed: its rows and their column headers are judged too.
    await apiCall(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3, 4] });
    await page.goto(`${url}/#/`);
    await page.locator('.table-list tbody tr').first().waitFor();
    expect(await violationsOn(page), 'lobby').toEqual([]);

    const tableId = await openTableAsPerson(page, url, 'sevenSuitors', { 'Game ends after': 'hands:2', 'Special cards': 'powers' });
    await page.getByText('Your turn: choose one card').waitFor();
    expect(await violationsOn(page), 'table, passing').toEqual([]);

    await page.getByRole('button', { name: 'Rules' }).click();
    await page.locator('.rules-dialog').waitFor();
    expect(await violationsOn(page), 'rules').toEqual([]);
    // 7a and 7b explained, and each special card's power, in the rules and on every card as its tooltip.
    const rules = await page.locator('.rules-dialog').textContent();
    expect(rules).toContain('Every suit has two 7s, written 7a and 7b. The letters only tell the two cards apart');
    for (const card of ['Cupid (powers)', 'Chaperone (powers)', 'Rival (powers)', 'Go-Between (powers)']) expect(rules).toContain(card);
    const titles = await page
      .locator('.hand-cards .card')
      .evaluateAll((cards) => cards.map((card) => [card.getAttribute('data-card'), card.getAttribute('title')]));
    for (const [card, title] of titles) {
      if (/-7[ab]$/.test(card!))
        expect(title).toMatch(/one of the two 7s of \w+ \(a and b only tell them apart; if both would win, the first played wins\)/);
      if (!/^\d-/.test(card!)) expect(title).toContain('With powers:');
    }
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await passByClicking(page, 3);
    await playByClicking(page, '.summary-dialog');
    expect(await violationsOn(page), 'hand summary').toEqual([]);
    await page.getByRole('button', { name: 'Next hand' }).click();
    await page.getByText('Your turn: choose one card').waitFor();
    await passByClicking(page, 3);
    expect(await violationsOn(page), 'table, trick play').toEqual([]);

    const watcher = await session.newPage();
    await watcher.goto(`${url}/#/watch/${tableId}`);
    await watcher.getByText('Spectating').waitFor();
    await watcher.locator('.seat').first().waitFor();
    expect(await violationsOn(watcher), 'table, spectator').toEqual([]);
    await watcher.close();

    await playByClicking(page, '.game-over-dialog');
    expect(await violationsOn(page), 'game over').toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('finds no violation on an invite, a replay as a seat, and the phone layout', async () => {
    const url = session.service.url;
    const { tableId: open } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [0, 1, 2, 3] });
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/join/${open}/4`);
    await page.getByText('Anti-Cupid at table').waitFor();
    expect(await violationsOn(page), 'invite').toEqual([]);

    const finished = await finishedBotGame(url, 'traitorOfLove');
    await page.goto(`${url}/#/replay/${finished}?at=60&seat=3`);
    await page.locator('.replay-hand').waitFor();
    await page.locator('#diagram svg').waitFor();
    expect(await violationsOn(page), 'replay as a seat').toEqual([]);
    await page.close();

    const phone = await session.newPage({ viewport: { width: 390, height: 844 } });
    await openTableAsPerson(phone, url, 'traitorOfLove');
    await phone.getByText('Your turn: choose one card').waitFor();
    expect(await violationsOn(phone), 'phone').toEqual([]);
    expect(errors).toEqual([]);
    await phone.close();
  });

  it("finds no violation on the fleet page and the operator's page, signed out and in", async () => {
    const { url, admin } = session.service;
    await apiCall(url, 'POST', '/api/tables', { game: 'sevenSuitors', bots: [1, 2, 3] });
    await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/fleet/sevenSuitors`);
    await page.locator('#fleet-diagram svg').waitFor();
    await page.locator('.fleet-states-table').waitFor();
    await page.locator('.finished-table').first().waitFor();
    expect(await violationsOn(page), 'fleet page').toEqual([]);

    await page.goto(`${url}/#/operator`);
    await page.getByLabel('Admin token').waitFor();
    expect(await violationsOn(page), "operator's page, signed out").toEqual([]);
    await page.getByLabel('Admin token').fill(admin.authorization.replace(/^Bearer /, ''));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.operator-list tr[data-table]').first().waitFor();
    expect(await violationsOn(page), "operator's page").toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
