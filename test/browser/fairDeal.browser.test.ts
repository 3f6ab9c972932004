/**
 * The browser proves what it says about a deal (docs/fairness.md): a page
 * that saw the hand contributed to it, kept the commitment and its cards,
 * and says the deal, the roles and its contribution match; a fresh browser
 * that never saw the hand says only that the record agrees with itself.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { GameRecord } from '../../machines/record/record.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { openTableAsPerson, passByClicking, playByClicking } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { browserSession, settle } from './session.js';

const session = browserSession();
const VERIFIED = 'verified: the deal, the roles and your contribution match what you were shown during the hand';
const CHECKED_AGAINST_RECORD = 'checked against the record: the seed matches the commitment it reports';

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
}

/** What this page keeps of a hand: its commitment and its own contribution. */
function keptOf(page: Page, tableId: string, hand: number) {
  return page.evaluate(
    (key) =>
      JSON.parse(localStorage.getItem(key) ?? 'null') as { commitment: string; contribution?: { value: string; accepted: boolean } } | null,
    `suitors.deal.${tableId}.${hand}`,
  );
}

describe('a deal checked in Chromium', { timeout: 120_000 }, () => {
  it('contributes to the first hand, keeps what it was shown, and after the hand says the deal, roles and contribution match; a fresh browser says only what the record shows', async () => {
    const url = session.service.url;
    // Seat 3 stays open, so the table waits for it while the player's page contributes to the first deal.
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', {
      game: 'sevenSuitors',
      options: { end: 'hands:1' },
      bots: [1, 2],
    });
    const { page, errors } = await openPage();
    await page.goto(`${url}/#/join/${tableId}/0`);
    await page.getByLabel('Your name').fill('Grace');
    await page.getByRole('button', { name: 'Take the seat' }).click();
    await page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await settle(async () => (await keptOf(page, tableId, 0))?.contribution?.accepted).toBe(true);
    const kept = (await keptOf(page, tableId, 0))!;

    // Bo fills the table (the cut-off: the deal is made now) and leaves it to a bot.
    const { token } = await apiCall<{ token: string }>(url, 'POST', `/api/tables/${tableId}/seats/3`, { name: 'Bo' });
    await apiCall(url, 'DELETE', `/api/tables/${tableId}/seats/3`, undefined, { authorization: `Bearer ${token}` });
    await passByClicking(page, 3);
    await playByClicking(page, '.game-over-dialog');
    expect(await page.locator('.game-over-dialog .deal-check .verdict').textContent()).toBe(VERIFIED);

    const record = await apiCall<GameRecord>(url, 'GET', `/api/tables/${tableId}/record`);
    const fairness = record.hands[0].fairness!;
    expect(fairness.commitment).toBe(kept.commitment);
    expect(fairness.contributions).toEqual([kept.contribution!.value, null, null, null]);
    expect(errors).toEqual([]);

    // A browser that never saw the hand: nothing kept, so it claims no more than the record shows.
    const fresh = await openPage();
    await fresh.page.goto(`${url}/#/table/${tableId}`);
    await settle(() => fresh.page.locator('.deal-check .verdict').first().textContent()).toBe(CHECKED_AGAINST_RECORD);
    expect(await fresh.page.getByText(VERIFIED).count()).toBe(0);
    expect(fresh.errors).toEqual([]);
    await Promise.all([page.close(), fresh.page.close()]);
  });

  it('re-derives the role deal of A Traitor of Love: the role card it kept matches, and a role card it did not get fails the check', async () => {
    const url = session.service.url;
    for (const tampered of [false, true]) {
      const { page, errors } = await openPage();
      const tableId = await openTableAsPerson(page, url, 'traitorOfLove');
      await page.getByText('Your turn: choose one card').waitFor();
      const kept = (await keptOf(page, tableId, 0)) as { roleCard: number } | null;
      expect(kept?.roleCard).toBeGreaterThanOrEqual(1);
      if (tampered) {
        // What this page remembers of its role is changed: another tracking card than the one it was dealt.
        await page.evaluate(
          ([key, roleCard]) => localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key)!), roleCard })),
          [`suitors.deal.${tableId}.0`, kept!.roleCard === 7 ? 1 : 7] as const,
        );
      }
      await passByClicking(page, 3);
      await playByClicking(page, '.accusation');
      await page.locator('.accusation button').first().click();
      const verdict = page.locator('.summary-dialog .deal-check .verdict');
      expect(await verdict.textContent()).toBe(
        tampered ? 'Deal check failed: the seed and the contributions deal you another role card than you were dealt' : VERIFIED,
      );
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
