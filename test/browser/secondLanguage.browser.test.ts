/**
 * The second language (issue 33), in a real headless Chromium: a French
 * browser gets the lobby and its table in French, with <html lang="fr">; the
 * header's control switches to English and back, the choice outlives a
 * reload, and a refusal whose kind the client knows is worded in French.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

const LANGUAGE = 'Langue · Language';

async function frenchPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage({ locale: 'fr-FR' });
  return { page, errors: pageErrors(page) };
}

const headerLine = (page: Page) => page.locator('.table-header p.muted').textContent();

describe('a second language in Chromium', { timeout: 120_000 }, () => {
  it('shows a French browser the lobby and a table in French, switches to English and back, and keeps the choice', async () => {
    const url = session.service.url;
    const { page, errors } = await frenchPage();
    await page.goto(`${url}/#/`);
    await settle(() => page.locator('h2').textContent()).toBe('Salon');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    expect(await page.getByLabel(LANGUAGE).inputValue()).toBe('fr');
    await page.getByLabel('Votre nom').fill('Ada');
    await page.getByLabel('Jeu', { exact: true }).selectOption('sevenSuitors');
    await page.getByRole('button', { name: 'Ouvrir la table' }).click();
    await page.waitForURL(/#\/table\/t-/);
    await settle(() => headerLine(page)).toContain('Vous jouez à la place 0');
    expect(await page.getByRole('button', { name: 'Quitter la place' }).count()).toBe(1);
    await page.getByText('À vous : choisissez une carte pour chaque joueur').first().waitFor();

    await page.getByLabel(LANGUAGE).selectOption('en');
    await settle(() => headerLine(page)).toContain('Playing as seat 0');
    expect(await page.getByRole('button', { name: 'Leave seat' }).count()).toBe(1);
    await page.getByText('Your turn: choose one card for each player').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    // The label names the control in both languages, so the switch back is found by either reader.
    await page.getByLabel('Language · Langue').selectOption('fr');
    await settle(() => headerLine(page)).toContain('Vous jouez à la place 0');

    await page.reload();
    await settle(() => headerLine(page)).toContain('Vous jouez à la place 0');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('link', { name: '← Salon' }).click();
    await settle(() => page.locator('h2').textContent()).toBe('Salon');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('remembers English chosen in a French browser, and words a refusal it knows in the chosen language', async () => {
    const url = session.service.url;
    const { page } = await frenchPage();
    await page.goto(`${url}/#/watch/t-none`);
    await settle(() => page.locator('p.error').textContent()).toBe('Cette table n’existe pas.');
    await page.getByLabel(LANGUAGE).selectOption('en');
    await settle(() => page.locator('p.error').textContent()).toBe('There is no such table.');
    await page.goto(`${url}/#/`);
    await page.reload();
    await settle(() => page.locator('h2').textContent()).toBe('Lobby');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.close();
  });
});
