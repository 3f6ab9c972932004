/**
 * What a person does in the web client, as steps the browser tests
 * (test/browser/) and `npm run screenshots` share: open a table from the lobby, pass, play the
 * hand, dismiss a hand's summary; and an all-bot game finished through the
 * API. Every step waits on what the page shows, never on a timer.
 */
import type { Page } from 'playwright-core';
import { GAMES, type GameName } from '../../machines/table/options.js';
import { waitFor } from '../polling.js';
import { apiCall, PAGE_WAIT } from './webService.js';

/** Opens a table from the lobby form with the person at seat 0 and bots in every other seat; returns its id. */
export async function openTableAsPerson(
  page: Page,
  url: string,
  game: string,
  options: Record<string, string> = {},
  name = 'Ada',
): Promise<string> {
  await page.goto(`${url}/#/`);
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Game', { exact: true }).selectOption(game);
  for (const [label, value] of Object.entries(options)) await page.getByLabel(label).selectOption(value);
  await page.getByRole('button', { name: 'Open table' }).click();
  await page.waitForURL(/#\/table\/t-/);
  return decodeURIComponent(page.url().split('#/table/')[1]);
}

/** The playable cards of the hand, the ones a click plays. */
export const PLAYABLE = '.hand-cards button.legal:not([aria-disabled="true"])';

/** Clicks one card for each pass recipient, then passes. */
export async function passByClicking(page: Page, recipients: number): Promise<void> {
  await page.getByText('Your turn: choose one card').waitFor();
  const cards = page.locator('.hand-cards .card-button');
  for (let i = 0; i < recipients; i++) await cards.nth(i).click();
  await page
    .locator('.hand-cards .card-button.selected')
    .nth(recipients - 1)
    .waitFor();
  await page.getByRole('button', { name: 'Pass these cards' }).click();
  await page.getByText('Your turn: choose one card').waitFor({ state: 'detached' });
}

/**
 * Plays the first playable card each time it is the person's turn, until
 * `done` (a selector) shows. Returns how many cards were played; calls
 * `onPlay` after each, once the hand has one card fewer.
 */
export async function playByClicking(page: Page, done: string, onPlay?: (plays: number) => Promise<void>): Promise<number> {
  const cards = page.locator('.hand-cards .card-button');
  let plays = 0;
  for (;;) {
    await page.locator(`${PLAYABLE}, ${done}`).first().waitFor();
    if ((await page.locator(done).count()) > 0) return plays;
    const before = await cards.count();
    const card = page.locator(PLAYABLE).first();
    const label = await card.getAttribute('aria-label');
    if (!/^(\d+|7a|7b) of \w+$|^(Cupid|Chaperone|Rival|Go-Between)$/.test(label ?? ''))
      throw new Error(`a card is labelled "${label}", not by its name`);
    await card.click();
    plays++;
    await waitFor(
      async () => (await cards.count()) < before || (await page.locator(done).count()) > 0,
      'the card to leave the hand',
      PAGE_WAIT,
    );
    await onPlay?.(plays);
  }
}

/** A table whose seats are all bots, played to its end through the API; returns its id. */
export async function finishedBotGame(url: string, game: GameName, options: Record<string, string> = {}): Promise<string> {
  const { seats } = GAMES[game];
  const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', {
    game,
    options,
    bots: Array.from({ length: seats }, (_, seat) => seat),
  });
  await waitFor(
    async () => {
      const { tables } = await apiCall<{ tables: { tableId: string; finished: boolean }[] }>(url, 'GET', '/api/tables');
      return tables.find((table) => table.tableId === tableId)?.finished;
    },
    'the bot game to finish',
    { ...PAGE_WAIT, timeoutMs: 120_000 },
  );
  return tableId;
}
