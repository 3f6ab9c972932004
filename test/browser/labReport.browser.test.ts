/**
 * report.html in a real headless Chromium on a phone's width: the plots are
 * drawn (bars of real height, one per seat and team, a difference per
 * figure), nothing reaches the network, nothing scrolls sideways at 390 px,
 * and the page runs no script; and the service's own page, GET /lab, drawn
 * from its finished games. Screenshot: test-artifacts/browser/lab-report.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, pageErrors } from '../../drivers/browser/chromium.js';
import { httpBaseOf, listen, startService } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { combinedCorpora } from '../../services/lab/corpus.js';
import { labStatsOf } from '../../services/lab/labStats.js';
import { playShare } from '../../services/lab/play/labGames.js';
import { reportHtml } from '../../services/lab/report/reportHtml.js';
import { screenshot } from './artifacts.js';

const scratch = mkdtempSync(join(tmpdir(), 'suitors-lab-report-'));
let browser: Promise<Browser> | undefined;
afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function reportFile(): string {
  const share = { game: 'sevenSuitors', bots: 'random', seed: 'report', from: 1, to: 12, maxHands: 200 } as const;
  const corpus = combinedCorpora(
    playShare({ ...share, options: { end: 'allSuits', specials: 'off' } }),
    playShare({ ...share, options: { end: 'allSuits', specials: 'powers' } }),
  );
  const file = join(scratch, 'report.html');
  writeFileSync(file, reportHtml(labStatsOf(corpus, { source: '24 games played by random bots' })));
  return file;
}

describe('report.html in Chromium', () => {
  it('draws the histogram, the win shares with intervals and the side by side, at 390 px wide, from the file alone', async () => {
    const file = reportFile();
    browser ??= launchChromium();
    const page = await (await browser).newPage({ viewport: { width: 390, height: 844 } });
    const errors = pageErrors(page);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);

    const drawn = await page.evaluate(() => {
      const heights = (selector: string) => [...document.querySelectorAll(selector)].map((bar) => bar.getBoundingClientRect().height);
      const widths = [...document.querySelectorAll('svg.plot')].map((svg) => svg.getBoundingClientRect().width);
      return {
        sections: document.querySelectorAll('section.section').length,
        histogramBars: heights('section.section svg.histogram rect.bar'),
        shareRows: [...document.querySelectorAll('section.section')].map(
          (section) => section.querySelectorAll('svg.shares .share-row').length,
        ),
        shareBars: heights('svg.shares rect.bar'),
        intervals: document.querySelectorAll('svg.shares line.interval').length,
        differenceRows: document.querySelectorAll('svg.differences .difference-row').length,
        widths,
        scrollWidth: document.documentElement.scrollWidth,
        scripts: document.querySelectorAll('script').length,
      };
    });
    expect(drawn.sections).toBe(2);
    expect(drawn.histogramBars.filter((height) => height > 0).length).toBeGreaterThan(1);
    // Four seats, two teams: six bars in each section's chart of who wins; seats of the winning team win together.
    expect(drawn.shareRows).toEqual([6, 6]);
    expect(drawn.shareBars.every((height) => height > 5)).toBe(true);
    expect(drawn.intervals).toBe(2 * 6 * 3);
    // specials off → powers: hands per game, marriages per hand, draws, seat 0, suits marked, team A, team B.
    expect(drawn.differenceRows).toBe(7);
    for (const width of drawn.widths) {
      expect(width).toBeGreaterThan(300);
      expect(width).toBeLessThanOrEqual(390);
    }
    expect(drawn.scrollWidth).toBeLessThanOrEqual(390);
    expect(drawn.scripts).toBe(0);
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(errors).toEqual([]);
    await screenshot(page, 'lab-report');
  });

  it("draws the service's own finished games at GET /lab", async () => {
    const service = startService();
    try {
      const base = httpBaseOf(await listen(service.app));
      const tableIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await service.app.inject({
          method: 'POST',
          url: '/api/tables',
          payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] },
        });
        tableIds.push(created.json().tableId);
      }
      for (const tableId of tableIds) {
        await waitFor(
          async () => (await service.host.snapshot(tableId)).snapshot.context.outcome?.finished === true,
          `table ${tableId} to finish`,
        );
      }
      // The lobby's listing may be a second old, and the lab's figures five: wait until they hold the three games.
      await waitFor(
        async () => (await service.app.inject({ method: 'GET', url: '/api/lab' })).json().sections[0]?.count === 3,
        'the lab to hold the three finished games',
        { everyMs: 250 },
      );
      browser ??= launchChromium();
      const page = await (await browser).newPage({ viewport: { width: 390, height: 844 } });
      const errors = pageErrors(page);
      await page.goto(`${base}/lab`);
      expect(await page.locator('header .meta').textContent()).toContain('this service’s 3 finished games');
      expect(await page.locator('section.section').count()).toBe(1);
      // Three games of one hand each: one bar, the height of the plot.
      const bars = await page
        .locator('svg.histogram rect.bar')
        .evaluateAll((rects) => rects.map((rect) => rect.getBoundingClientRect().height));
      expect(bars).toHaveLength(1);
      expect(bars[0]).toBeGreaterThan(50);
      expect(await page.locator('svg.shares .share-row').count()).toBe(6);
      expect(errors).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
