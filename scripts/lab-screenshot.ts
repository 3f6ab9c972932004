/**
 * The README's pictures of the designer's lab: plays a small corpus (Seven
 * Suitors with specials off and with powers, random and heuristic bots) on
 * worker threads, renders report.html, and photographs it in headless
 * Chromium: a section on a phone's width, and the options side by side.
 *
 *   npx tsx scripts/lab-screenshot.ts [--games N]     writes docs/lab/*.png
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../drivers/browser/chromium.js';
import { readFlags, wholeNumber } from '../drivers/flags.js';
import { labStatsOf } from '../services/lab/labStats.js';
import { defaultWorkers, playOnWorkers } from '../services/lab/play/labRun.js';
import { reportHtml } from '../services/lab/report/reportHtml.js';

const { games } = readFlags({ games: wholeNumber({ default: 300 }) }, 'npx tsx scripts/lab-screenshot.ts [--games N]');

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'lab');
const SHOTS = [
  { name: 'report-phone', viewport: { width: 390, height: 844 }, selector: 'section.section', showing: 'specials: off' },
  { name: 'side-by-side', viewport: { width: 900, height: 900 }, selector: 'section.comparison', showing: 'specials off →' },
];

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const plan = {
    game: 'sevenSuitors',
    optionSets: [
      { end: 'allSuits', specials: 'off' },
      { end: 'allSuits', specials: 'powers' },
    ],
    bots: ['random', 'heuristic'],
    games,
    seed: 'readme',
    maxHands: 200,
  } as const;
  const corpus = await playOnWorkers(plan, { workers: defaultWorkers(), onProgress: () => undefined });
  const total = games * plan.optionSets.length * plan.bots.length;
  const page = reportHtml(labStatsOf(corpus, { source: `${total} games played by random and heuristic bots, seed readme` }));
  const file = join(OUT, 'report.html');
  await writeFile(file, page);
  const browser = await launchChromium();
  try {
    for (const shot of SHOTS) {
      const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: 2 });
      const tab = await context.newPage();
      await tab.goto(pathToFileURL(file).href);
      const path = join(OUT, `${shot.name}.png`);
      await tab.locator(shot.selector).filter({ hasText: shot.showing }).first().screenshot({ path });
      console.log(`  ${relative(process.cwd(), path)}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
