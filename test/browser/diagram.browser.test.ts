/**
 * The live state diagram in a real headless Chromium against the real
 * service: a table page draws its game's statechart (GET /machines/<game>.svg)
 * and highlights the states of every view it receives, so the highlight
 * moves as cards are played; the replay page's highlight follows the
 * timeline. Screenshots: test-artifacts/browser/diagram-*.png.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { nextVersionOf } from '../../machines/viewChanges.js';
import type { ChangesMessage, ServerMessage, VersionedView } from '../../services/gateway/socketProtocol.js';
import { modelOfGame } from '../../services/diagram/files.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { screenshot, SCREENSHOTS } from './artifacts.js';
import { finishedBotGame, PLAYABLE } from '../../drivers/browser/pageFlows.js';
import { waitFor } from '../../drivers/polling.js';
import { apiCall, PAGE_WAIT } from '../../drivers/browser/webService.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

/** A view as the page received it, over HTTP or the socket: its version and the states it says the table is in. */
interface Received {
  readonly version: number;
  readonly activeStates: readonly string[];
}

interface DiagramPage {
  readonly page: Page;
  readonly errors: string[];
  /** Every view the page received, in order. */
  readonly received: Received[];
}

/**
 * Opens a page that keeps every view it receives (the HTTP view and the
 * socket's view messages) and every highlight the diagram shows, in order
 * (window.highlights: the `data-active` of #diagram at each change).
 */
async function openPage(): Promise<DiagramPage> {
  const page = await session.newPage();
  const errors = pageErrors(page);
  const received: Received[] = [];
  const keep = (message: { type?: string; version?: number; activeStates?: readonly string[] }) => {
    if (typeof message.version === 'number' && Array.isArray(message.activeStates)) {
      received.push({ version: message.version, activeStates: message.activeStates });
    }
  };
  // The page asks for changes (views=changes): each is applied to the view of the version before, as the page does.
  // An HTTP view's body reaches the test after the socket's first frames may have, so changes wait for their base.
  let held: VersionedView | undefined;
  const waiting: ChangesMessage[] = [];
  const applyWaiting = () => {
    for (let next = waiting.findIndex((changes) => changes.from === held?.version); next >= 0 && held !== undefined; ) {
      const [changes] = waiting.splice(next, 1);
      held = nextVersionOf(held, changes) ?? held;
      keep(held);
      next = waiting.findIndex((later) => later.from === held?.version);
    }
  };
  const see = (view: VersionedView) => {
    if (held === undefined || view.version > held.version) {
      held = view;
      keep(view);
    }
    applyWaiting();
  };
  page.on('response', (response) => {
    if (/\/api\/tables\/[^/]+\/view$/.test(new URL(response.url()).pathname) && response.ok()) {
      void response.json().then(see, () => undefined);
    }
  });
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as ServerMessage;
      if (message.type === 'view') see(message);
      else if (message.type === 'changes') {
        waiting.push(message);
        applyWaiting();
      }
    });
  });
  await page.addInitScript(() => {
    const highlights: string[] = [];
    (window as unknown as { highlights: string[] }).highlights = highlights;
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as HTMLElement;
        if (target.id === 'diagram' && record.attributeName === 'data-active') highlights.push(target.dataset.active ?? '');
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-active'] });
  });
  return { page, errors, received };
}

/** The states the diagram highlights now: the ids of the SVG's state groups with the class `active`. */
async function highlighted(page: Page): Promise<string[]> {
  return page.locator('#diagram svg g.state.active').evaluateAll((groups) => groups.map((group) => group.id));
}

async function highlights(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { highlights: string[] }).highlights]);
}

/** Waits until the diagram highlights the states of the latest view the page received (and no others); returns them. */
async function highlightOfLatestView(page: Page, received: readonly Received[]): Promise<readonly string[]> {
  await settle(async () => {
    const latest = received.at(-1);
    return latest !== undefined && (await page.locator('#diagram').getAttribute('data-active')) === latest.activeStates.join(' ');
  }).toBe(true);
  const latest = received.at(-1)!.activeStates;
  expect(await highlighted(page)).toEqual(latest);
  return latest;
}

/** The fill of a state's box (a path when rounded, a polygon for a final state's double border). */
async function fillOf(page: Page, stateId: string): Promise<string> {
  return page
    .locator(`#diagram svg g[id="${stateId}"] :is(path, polygon)`)
    .first()
    .evaluate((shape) => getComputedStyle(shape).fill);
}

const ACTIVE_FILL = 'rgb(255, 224, 138)';
const PLAIN_FILL = 'rgb(255, 255, 255)';

// A hand in a real browser on a busy machine takes a while.
describe('the live state diagram in Chromium', { timeout: 180_000 }, () => {
  it('shows a Seven Suitors table its statechart, highlights passing, and moves the highlight as cards are played', async () => {
    const { page, errors, received } = await openPage();
    const model = modelOfGame('sevenSuitors');
    await page.goto(`${session.service.url}/#/`);
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Game', { exact: true }).selectOption('sevenSuitors');
    await page.getByLabel('Game ends after').selectOption('hands:1');
    await settle(() => page.getByLabel(/^Seat 0/).inputValue()).toBe('me');
    await page.getByRole('button', { name: 'Open table' }).click();
    await page.waitForURL(/#\/table\/t-/);
    await settle(() => page.locator('.hand-cards .card-button').count()).toBe(14);

    // The diagram: one drawing of the whole machine, every state a group with its state id.
    const diagram = page.locator('#diagram');
    await diagram.locator('svg').waitFor();
    expect(await diagram.locator('svg').count()).toBe(1);
    expect((await diagram.locator('svg g.state').evaluateAll((groups) => groups.map((group) => group.id))).sort()).toEqual(
      model.states.map((state) => state.id).sort(),
    );
    // The three bots pass at once; the table waits in passing for Ada.
    expect(await highlightOfLatestView(page, received)).toEqual(['sevenSuitors', 'sevenSuitors.passing']);
    expect(await diagram.locator('.diagram-state').textContent()).toBe('Now in: passing');
    expect(await fillOf(page, 'sevenSuitors.passing')).toBe(ACTIVE_FILL);
    expect(await fillOf(page, 'sevenSuitors.dealing')).toBe(PLAIN_FILL);
    await screenshot(page, 'diagram-passing');
    await diagram.screenshot({ path: join(SCREENSHOTS, 'diagram-passing-detail.png') });

    // Ada passes: the table leaves passing for trick play, and the bots play until it is her turn.
    await page.getByText('Your turn: choose one card').waitFor();
    const cards = page.locator('.hand-cards .card-button');
    for (let i = 0; i < 3; i++) await cards.nth(i).click();
    await page.getByRole('button', { name: 'Pass these cards' }).click();
    const playable = page.locator(PLAYABLE);
    await playable.first().waitFor();
    const before = await highlightOfLatestView(page, received);
    expect(before.slice(0, 2)).toEqual(['sevenSuitors', 'sevenSuitors.trickPlay']);
    expect(['sevenSuitors.trickPlay.leading', 'sevenSuitors.trickPlay.following']).toContain(before[2]);
    expect(await fillOf(page, before[2])).toBe(ACTIVE_FILL);
    expect(await fillOf(page, 'sevenSuitors.passing')).toBe(PLAIN_FILL);
    const versionBefore = received.at(-1)!.version;
    const shownBefore = (await highlights(page)).length;

    // Ada plays a card by clicking; the bots answer until it is her turn again.
    await playable.first().click();
    await settle(() => cards.count()).toBe(13);
    await playable.first().waitFor();
    const after = await highlightOfLatestView(page, received);
    expect(received.at(-1)!.version).toBeGreaterThan(versionBefore);
    // Every highlight since the click is the states of a view the page received, in the order received.
    const shown = (await highlights(page)).slice(shownBefore);
    const views = received.filter((view) => view.version > versionBefore).map((view) => view.activeStates.join(' '));
    expect(withoutRepeats(shown)).toEqual(withoutRepeats(views));
    expect(shown.at(-1)).toBe(after.join(' '));
    // The card moved the table: a lead goes to following; whatever Ada's place, her trick was completed and a new one led.
    expect(shown.some((states) => states !== before.join(' '))).toBe(true);
    if (before[2] === 'sevenSuitors.trickPlay.leading')
      expect(shown[0]).toBe('sevenSuitors sevenSuitors.trickPlay sevenSuitors.trickPlay.following');
    expect(shown).toContain('sevenSuitors sevenSuitors.trickPlay sevenSuitors.trickPlay.leading');
    await screenshot(page, 'diagram-trick-play');
    await diagram.screenshot({ path: join(SCREENSHOTS, 'diagram-trick-play-detail.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves the replay page’s highlight as the timeline is stepped', async () => {
    const tableId = await finishedBotGame(session.service.url, 'sevenSuitors', { end: 'hands:1' });
    const { events } = await apiCall<{ events: { seq: number; type: string }[] }>(session.service.url, 'GET', `/api/tables/${tableId}/log`);
    const dealt = events.find((event) => event.type === 'hand.dealt')!.seq;
    const statesAt = async (at: number) =>
      (await apiCall<{ activeStates: string[] }>(session.service.url, 'GET', `/api/tables/${tableId}/replay?at=${at}`)).activeStates;

    const { page, errors } = await openPage();
    await page.goto(`${session.service.url}/#/replay/${tableId}`);
    const diagram = page.locator('#diagram');
    await diagram.locator('svg').waitFor();
    const position = page.locator('.position');

    // The replay opens at the end of the game.
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${events.length} of ${events.length}: `));
    await highlightIs(page, ['sevenSuitors', 'sevenSuitors.gameOver']);
    expect(await fillOf(page, 'sevenSuitors.gameOver')).toBe(ACTIVE_FILL);

    await page.getByRole('button', { name: 'First event' }).click();
    await settle(() => position.textContent()).toBe(`Event 1 of ${events.length}: table opened`);
    await highlightIs(page, ['sevenSuitors', 'sevenSuitors.seating']);

    // The deal: the table passes.
    await page.locator('#timeline').fill(String(dealt));
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${dealt} of ${events.length}: a hand was dealt$`));
    await highlightIs(page, ['sevenSuitors', 'sevenSuitors.passing']);

    // Event by event through the passes and the first trick: the highlight follows each event's states.
    const seen = new Set<string>();
    for (let at = dealt + 1; at <= dealt + 4 + 4; at++) {
      await page.getByRole('button', { name: 'Next event' }).click();
      await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${at} of `));
      const states = await statesAt(at);
      await highlightIs(page, states);
      seen.add(states.at(-1)!);
    }
    expect([...seen]).toEqual(
      expect.arrayContaining(['sevenSuitors.passing', 'sevenSuitors.trickPlay.leading', 'sevenSuitors.trickPlay.following']),
    );
    await screenshot(page, 'diagram-replay');

    await page.getByRole('button', { name: 'Previous event' }).click();
    await settle(() => position.textContent()).toMatch(new RegExp(`^Event ${dealt + 7} of `));
    await highlightIs(page, await statesAt(dealt + 7));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a spectator of a finished A Traitor of Love table the game over in the diagram, and the last hand: its final trick, the Traitor and who named whom', async () => {
    const { tableId } = await apiCall<{ tableId: string }>(session.service.url, 'POST', '/api/tables', {
      game: 'traitorOfLove',
      bots: [0, 1, 2, 3, 4, 5],
    });
    const { view, activeStates } = await waitFor(
      async () => {
        const answer = await apiCall<{ view: TableView; activeStates: string[] }>(
          session.service.url,
          'GET',
          `/api/tables/${tableId}/view`,
        );
        return answer.view.outcome?.finished && answer;
      },
      'the bot game to finish',
      PAGE_WAIT,
    );
    expect(activeStates).toEqual(['traitorOfLove', 'traitorOfLove.gameOver']);
    const last = view.lastHand!;
    const finalTrick = last.finalTrick!;

    const { page, errors } = await openPage();
    await page.goto(`${session.service.url}/#/watch/${tableId}`);
    await highlightIs(page, activeStates);
    const panel = page.locator('aside .last-hand');
    const name = (seat: number) => view.seats[seat].occupant!.name;
    await settle(() => panel.locator('summary').first().textContent()).toBe(`Last hand (hand ${last.index + 1})`);
    const taker =
      finalTrick.capturedBy === null
        ? 'won; the cards were set aside'
        : finalTrick.capturedBy === finalTrick.winner
          ? 'won'
          : `won, ${name(finalTrick.capturedBy)} captured`;
    expect(await panel.locator('.final-trick h3').textContent()).toBe(`Last trick: ${name(finalTrick.winner)} ${taker}`);
    const plays = panel.locator('.final-trick li');
    expect(await plays.count()).toBe(6);
    for (const [index, play] of finalTrick.plays.entries())
      expect(await plays.nth(index).locator('.who').textContent()).toBe(name(play.seat));
    expect(await panel.locator('.reveal-line').textContent()).toBe(`The Traitor was ${name(last.traitor!)}.`);
    const named = await panel.locator('.reveal li').allTextContents();
    expect(named).toHaveLength(6);
    last.accusations!.forEach((accused, seat) => {
      expect(named[seat]).toBe(`${name(seat)} named ${name(accused!)}${accused === last.traitor ? ' ✓ (the Traitor)' : ''}`);
    });
    const points = await panel.locator('.hand-points tr').allTextContents();
    expect(points).toEqual(view.handResults[last.index].handScores.map((score, seat) => `${name(seat)}${score > 0 ? `+${score}` : score}`));
    await panel.screenshot({ path: join(SCREENSHOTS, 'diagram-last-hand-detail.png') });
    await screenshot(page, 'diagram-game-over');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** Waits until the diagram highlights exactly `states`. */
async function highlightIs(page: Page, states: readonly string[]): Promise<void> {
  await settle(() => page.locator('#diagram').getAttribute('data-active')).toBe(states.join(' '));
  expect(await highlighted(page)).toEqual(states);
}

function withoutRepeats(values: readonly string[]): string[] {
  return values.filter((value, index) => index === 0 || value !== values[index - 1]);
}
