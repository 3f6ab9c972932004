/**
 * The operator's page (#/operator) in a real headless Chromium against the
 * real service: without a token it says how to sign in; a wrong token is
 * refused and forgotten, with how to sign in again; with the admin token it
 * shows this process's figures, the tables in play by state, each table
 * with what it waits on and a link to its replay, and no card or token;
 * signing out forgets the token. Screenshot: test-artifacts/browser/operator-page.png.
 */
import { describe, expect, it } from 'vitest';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { screenshot } from './artifacts.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

describe("the operator's page", { timeout: 120_000 }, () => {
  it('asks for the admin token, refuses a wrong one, and shows the tables in play with what each waits on', async () => {
    const { url, admin } = session.service;
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3, 4] });
    const page = await session.newPage();
    const errors = pageErrors(page);
    await page.goto(`${url}/#/operator`);
    await page.getByText('Sign in with the admin token').waitFor();

    await page.getByLabel('Admin token').fill('not-the-admin-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/^The token was refused: .+ Sign in with the admin token\.$/);
    expect(await page.evaluate(() => sessionStorage.getItem('suitors.operator'))).toBeNull();

    const adminToken = admin.authorization.replace(/^Bearer /, '');
    await page.getByLabel('Admin token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const row = page.locator(`tr[data-table="${tableId}"]`);
    await row.waitFor();
    expect(await row.locator('.waiting-on').textContent()).toBe('people');
    expect(await row.getByRole('link').getAttribute('href')).toBe(`/#/replay/${tableId}`);
    await settle(() => page.locator('.operator-counts').textContent()).toContain(
      '1 in play: 1 waiting on people, 0 on the service; 0 stuck',
    );
    expect(await page.locator('.operator-process').textContent()).toMatch(/MB resident/);
    expect(await page.locator('.operator-states tr[data-state="antiCupid.seating"] td.count').textContent()).toBe('1');
    expect(await page.getByText('This process holds every table itself').count()).toBe(1);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toMatch(/\b\d-[0-9a-z]{1,3}\b/);
    expect(text).not.toContain(adminToken);
    await screenshot(page, 'operator-page');

    // Kept for the tab: a reload stays signed in; signing out forgets it.
    await page.reload();
    await row.waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('suitors.operator'))).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });
});
