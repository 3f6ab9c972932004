/**
 * The fleet overlay drawn, in a real headless Chromium: /machines/<game>.svg?fleet=1
 * over a fleet of every game shows each state with live tables shaded and
 * labelled with their count, and the transitions taken drawn thicker the more
 * they are taken. Screenshot: test-artifacts/browser/fleet-sevenSuitors.png.
 */
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, pageErrors } from '../../drivers/browser/chromium.js';
import { httpBaseOf, listen, startService } from '../../drivers/embeddedService.js';
import { createMemoryEventStore } from '../../services/eventstore/memoryEventStore.js';
import { TableHost } from '../../services/host/tableHost.js';
import { seatFleet, tickingClock } from '../../services/projections/fleet/fixtures/fleetInPlay.js';
import type { FleetReport } from '../../services/projections/fleet/fleetReport.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SCREENSHOTS } from './artifacts.js';

let browser: Browser | undefined;
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  await browser?.close();
  for (const close of closing) await close();
});

interface Drawn {
  /** State id → the text of its box. */
  readonly labels: Record<string, string>;
  /** Ids of the states drawn as holding tables. */
  readonly shaded: string[];
  /** Stroke widths of the edges drawn as taken. */
  readonly takenWidths: number[];
  /** Stroke widths of the other edges. */
  readonly otherWidths: number[];
}

describe('the fleet overlay on a diagram', () => {
  it('shades and labels each state with its live tables, and draws each transition as thick as it is taken', async () => {
    const store = createMemoryEventStore();
    const host = new TableHost({ store, now: tickingClock() });
    const service = startService({ store, host });
    closing.push(() => service.close());
    await seatFleet(host);
    const base = httpBaseOf(await listen(service.app));
    const fleet = (await (await fetch(`${base}/api/fleet`)).json()) as FleetReport;
    const sevenSuitors = fleet.games.find((game) => game.game === 'sevenSuitors')!;

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = pageErrors(page);
    const response = await page.goto(`${base}/machines/sevenSuitors.svg?fleet=1`);
    expect(response?.status()).toBe(200);
    const drawn: Drawn = await page.evaluate(() => {
      const widthOf = (edge: Element) => Number.parseFloat(getComputedStyle(edge.querySelector('path')!).strokeWidth);
      const states = [...document.querySelectorAll('g.state')];
      const edges = [...document.querySelectorAll('g.transition')];
      return {
        labels: Object.fromEntries(states.map((state) => [state.id, state.textContent ?? ''])),
        shaded: states.filter((state) => state.classList.contains('fleet')).map((state) => state.id),
        takenWidths: edges.filter((edge) => edge.classList.contains('fleet')).map(widthOf),
        otherWidths: edges.filter((edge) => !edge.classList.contains('fleet')).map(widthOf),
      };
    });
    // The viewport only: a full-page shot of a bare SVG document never finishes in Chromium.
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'fleet-sevenSuitors.png') });
    expect(errors).toEqual([]);

    const leaves = sevenSuitors.states.filter(({ state }) => drawn.labels[state] !== undefined && !state.includes('trickPlay.'));
    expect(leaves.length).toBeGreaterThan(0);
    for (const { state, tables } of sevenSuitors.states) {
      if (drawn.labels[state] === undefined) continue;
      expect(drawn.labels[state]).toContain(`${tables} ${tables === 1 ? 'table' : 'tables'}`);
      expect(drawn.shaded).toContain(state);
    }
    expect(drawn.takenWidths.length).toBeGreaterThan(1);
    expect(Math.max(...drawn.takenWidths)).toBeGreaterThan(Math.max(...drawn.otherWidths));
    expect(Math.max(...drawn.takenWidths)).toBeGreaterThan(Math.min(...drawn.takenWidths));
  });
});
