/**
 * Every word of the client in French (issue 33), in a real headless
 * Chromium with a French browser: the lobby, its rules dialog, the invite
 * page, a table from the pass through trick play to game over, the replay
 * and "Play on from here", and A Traitor of Love's role, accusation and
 * hand summary. On each page the test reads every text node and every
 * label a person or a screen reader meets, and flags any word the English
 * catalogue uses that the French one does not: a word left in English.
 *
 * Not read: the game titles (the games' published names), code (seeds,
 * commitments, a command line), the language control (each language in its
 * own), and the live state diagram, whose state names are the machines'.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { GAME_NAMES, rulesOf } from '../../machines/games/rules/index.js';
import { DEFAULT_OPTIONS } from '../../machines/table/options.js';
import type { TableOptions } from '../../machines/table/options.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { finishedBotGame } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { en } from '../../services/gateway/web/src/i18n/en.js';
import { fr } from '../../services/gateway/web/src/i18n/fr.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

/** Each entry of a catalogue by its path: a string as it is, a function by the literal text inside it. */
function entries(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') out.set(path, value);
  else if (typeof value === 'function') {
    // The transform may rewrite a literal's quotes, so all three kinds are read.
    const literals = value.toString().matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g);
    const text = [...literals].map((match) => match[1] ?? match[2] ?? match[3]).join(' ');
    // A function that words nothing itself (it passes on the game's own words, below) is no entry.
    if (text !== '') out.set(path, text);
  } else if (typeof value === 'object' && value !== null)
    for (const [key, each] of Object.entries(value)) entries(each, `${path}.${key}`, out);
  return out;
}

/** Each game's own words (what ends it, its rules in short) in English or French, as the rules object has them. */
function gameWords(language: 'en' | 'fr'): Map<string, string> {
  return new Map(
    GAME_NAMES.flatMap((game) => {
      const { words } = rulesOf(game);
      const options = DEFAULT_OPTIONS[game] as unknown as TableOptions;
      const own = language === 'en' ? words : words.translations.fr!;
      return [[`.rules.${game}.end`, own.end(options)], ...own.summary.map((line, index) => [`.rules.${game}.summary.${index}`, line])];
    }) as [string, string][],
  );
}

/** The entries French writes as English does, on purpose: names, numbers, emotes, and words both languages share. */
const SAME_IN_BOTH = [
  '.games.titles.sevenSuitors',
  '.games.titles.antiCupid',
  '.games.titles.traitorOfLove',
  '.games.antiCupid',
  '.games.specials.rival',
  '.table.points',
  '.table.pointsHeading',
  '.table.total',
  '.table.seconds',
  '.table.pause',
  '.friends.phrases.thinking.shown',
  '.friends.phrases.laugh.shown',
  '.friends.phrases.wow.shown',
  '.friends.phrases.cheer.shown',
  '.tables',
  '.tablesRegion',
  '.clock300',
  '.tableWord',
  '.tableNav',
  '.volume',
  '.scores',
  '.teamColumns.0',
  '.playerColumns.0',
  '.playerColumns.2',
  // The fleet's and the operator's pages: "Tables", "Table" and the units of a duration read the same.
  '.fleetPage.duration',
  '.fleetPage.stateColumns.1',
  '.operatorPage.columns.0',
  '.operatorPage.milliseconds',
  '.operatorPage.seconds',
];

function catalogueTexts(catalogue: unknown): string[] {
  return [...entries(catalogue).values()];
}

const TITLES = [...new Set([...Object.values(en.games.titles), ...Object.values(fr.games.titles)])].sort((a, b) => b.length - a.length);

/** Names that read the same in every language: the games' titles, and the file a record downloads as. */
const NAMES = [...TITLES, 'record.json'];

function wordsOf(text: string): string[] {
  let rest = text;
  for (const name of NAMES) rest = rest.split(name).join(' ');
  return (rest.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => word.length >= 3);
}

/** The English words the client shows: the English catalogue's and the games' own rules words (shown in English by the service). */
const ENGLISH_TEXTS = [...catalogueTexts(en), ...gameWords('en').values()];
const FRENCH_WORDS = new Set([...catalogueTexts(fr), ...gameWords('fr').values()].flatMap(wordsOf));
const ENGLISH_ONLY = new Set(ENGLISH_TEXTS.flatMap(wordsOf).filter((word) => !FRENCH_WORDS.has(word)));

/** What the page says to a person or a screen reader: text, labels, descriptions, tooltips, and the document's title. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skipped = 'code, script, style, noscript, #diagram, #language';
    const texts = [document.title];
    for (const element of document.body.querySelectorAll('*')) {
      if (element.closest(skipped) !== null) continue;
      for (const child of element.childNodes) if (child.nodeType === Node.TEXT_NODE) texts.push(child.textContent ?? '');
      for (const name of ['aria-label', 'aria-description', 'aria-valuetext', 'title', 'placeholder', 'alt', 'data-from'])
        texts.push(element.getAttribute(name) ?? '');
    }
    return texts;
  });
}

/** The English words on the page, each with the text it was found in. */
async function englishOn(page: Page): Promise<string[]> {
  const found = new Set<string>();
  for (const text of await pageTexts(page))
    for (const word of wordsOf(text)) if (ENGLISH_ONLY.has(word)) found.add(`${word} ← "${text.trim()}"`);
  return [...found];
}

async function frenchPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage({ locale: 'fr-FR' });
  return { page, errors: pageErrors(page) };
}

const PLAYABLE = '.hand-cards button.legal:not([aria-disabled="true"])';

/** Opens a table from the French lobby form with Ada at seat 0 and bots elsewhere. */
async function openFrenchTable(page: Page, url: string, game: string, options: Record<string, string>): Promise<string> {
  await page.goto(`${url}/#/`);
  await page.getByLabel('Votre nom').fill('Ada');
  await page.getByLabel('Jeu', { exact: true }).selectOption(game);
  for (const [label, value] of Object.entries(options)) await page.getByLabel(label).selectOption(value);
  await page.getByRole('button', { name: 'Ouvrir la table' }).click();
  await page.waitForURL(/#\/table\/t-/);
  return decodeURIComponent(page.url().split('#/table/')[1]);
}

/** Chooses a card for each recipient and passes them. */
async function passInFrench(page: Page, recipients: number): Promise<void> {
  await page.getByText('À vous : choisissez une carte').waitFor();
  const cards = page.locator('.hand-cards .card-button');
  for (let i = 0; i < recipients; i++) await cards.nth(i).click();
  await page.getByRole('button', { name: 'Passer ces cartes' }).click();
  await page.getByText('À vous : choisissez une carte').waitFor({ state: 'detached' });
}

/** Plays the first playable card whenever it is Ada's turn, until `done` shows; `onTurn` looks at the page first. */
async function playUntil(page: Page, done: string, onTurn: (turn: number) => Promise<void> = async () => {}): Promise<void> {
  for (let turn = 0; ; turn++) {
    await page.locator(`${PLAYABLE}, ${done}`).first().waitFor();
    if ((await page.locator(done).count()) > 0) return;
    await onTurn(turn);
    const before = await page.locator('.hand-cards .card-button').count();
    await page.locator(PLAYABLE).first().click();
    await settle(
      async () => (await page.locator('.hand-cards .card-button').count()) < before || (await page.locator(done).count()) > 0,
    ).toBe(true);
  }
}

describe('every word in French, in Chromium', { timeout: 240_000 }, () => {
  it('words every French entry in French: none is a copy of the English but those the same in both languages', () => {
    const french = new Map([...entries(fr), ...gameWords('fr')]);
    const copied = [...entries(en), ...gameWords('en')].filter(([path, text]) => french.get(path) === text).map(([path]) => path);
    expect(copied.sort()).toEqual([...SAME_IN_BOTH].sort());
  });

  it('has no English word left on the lobby, the invite page, a table, game over, the replay and "Play on from here"', async () => {
    const url = session.service.url;
    const finished = await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });
    const waiting = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'antiCupid', options: {}, bots: [1, 2, 3, 4] });
    const { page, errors } = await frenchPage();
    const english: Record<string, string[]> = {};
    const look = async (where: string) => {
      english[where] = await englishOn(page);
    };

    await page.goto(`${url}/#/`);
    await settle(() => page.locator('.tables tr, .tables li').count()).toBeGreaterThan(1);
    await look('lobby');
    await page.getByLabel('Jeu', { exact: true }).selectOption('traitorOfLove');
    await page.getByLabel('Cartes spéciales').selectOption('powers');
    await page.getByRole('button', { name: 'Règles de ce jeu' }).click();
    await page.getByRole('dialog').waitFor();
    await look('the rules of the game being chosen');
    await page.keyboard.press('Escape');

    await page.goto(`${url}/#/join/${waiting.tableId}/0`);
    await settle(() => page.locator('.join p.muted').textContent()).toContain('à la table');
    await look('the invite page');
    await page.goto(`${url}/#/watch/${waiting.tableId}`);
    await page.locator('.invites').waitFor();
    await look('a table waiting for a player, watched');

    await openFrenchTable(page, url, 'sevenSuitors', { 'La partie se termine après': 'hands:1', 'Cartes spéciales': 'powers' });
    await page.locator('.quick-chat summary').click();
    await page.getByRole('button', { name: 'Bonjour !' }).click();
    await page.locator('.chat-bubble').waitFor();
    await look('a table, passing');
    await passInFrench(page, 3);
    await playUntil(page, '.game-over-dialog', async (turn) => {
      if (turn !== 1) return;
      // A card that cannot be played says why.
      const held = page.locator('.hand-cards .card-button:not(.legal)');
      if ((await held.count()) > 0) await held.first().dispatchEvent('click');
      await look('a table, playing tricks');
    });
    await page.locator('.game-over-dialog .deal-check').waitFor({ state: 'attached' });
    await look('the game-over screen');
    await page.keyboard.press('Escape');
    await page.locator('.game-over-panel, .game-over').first().waitFor();
    await look('the game-over panel');

    await page.goto(`${url}/#/replay/${finished}?at=20&seat=2`);
    await page.locator('.replay-hand').waitFor();
    await look('a replay as a seat saw it');
    await page.getByRole('button', { name: 'Rejouer à partir d’ici' }).click();
    await page.getByRole('dialog').waitFor();
    await look('"Play on from here"');
    await page.keyboard.press('Escape');
    await page.goto(`${url}/#/replay/${finished}?at=30`);
    await page.locator('.open-hands').waitFor();
    await look('a replay with every hand open');

    expect(english).toEqual(Object.fromEntries(Object.keys(english).map((where) => [where, []])));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("has no English word left on A Traitor of Love's role, accusation and hand summary", async () => {
    const url = session.service.url;
    const { page, errors } = await frenchPage();
    const english: Record<string, string[]> = {};
    await openFrenchTable(page, url, 'traitorOfLove', {});
    await passInFrench(page, 3);
    await playUntil(page, '.accusation');
    english['the accusation'] = await englishOn(page);
    await page.locator('.accusation button').first().click();
    await page.locator('.summary-dialog').waitFor();
    english['the hand summary'] = await englishOn(page);
    expect(english).toEqual({ 'the accusation': [], 'the hand summary': [] });
    expect(errors).toEqual([]);
    await page.close();
  });
});
