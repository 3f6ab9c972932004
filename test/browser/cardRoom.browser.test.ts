/**
 * The card room in a real headless Chromium against the real service: an
 * invite link seats a friend, leaving asks first and the seat can be taken
 * back, a spectator sees no hand, the game-over screen says won or lost from
 * the player's side, a rematch opens the same game again, and the lobby
 * speaks in words. Screenshots: test-artifacts/browser/room-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { pageErrors } from '../../drivers/browser/chromium.js';
import { screenshot } from './artifacts.js';
import { finishedBotGame, openTableAsPerson, passByClicking, playByClicking } from '../../drivers/browser/pageFlows.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { browserSession, settle } from './session.js';

const session = browserSession();

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.newPage();
  return { page, errors: pageErrors(page) };
}

async function spectatorView(tableId: string): Promise<TableView> {
  return (await apiCall<{ view: TableView }>(session.service.url, 'GET', `/api/tables/${tableId}/view`)).view;
}

describe('the card room in Chromium', { timeout: 120_000 }, () => {
  it('seats a friend who opens an invite link, asks before they leave, and lets them take the seat back', async () => {
    const url = session.service.url;
    // Bo holds seat 3 and never moves, so the game waits in passing while Grace comes and goes.
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'sevenSuitors', bots: [1, 2] });
    await apiCall(url, 'POST', `/api/tables/${tableId}/seats/3`, { name: 'Bo' });

    const host = await openPage();
    await host.page.goto(`${url}/#/watch/${tableId}`);
    const link = await host.page.locator('.invite-link[data-seat="0"]').inputValue();
    expect(link).toBe(`${url}/#/join/${tableId}/0`);
    await screenshot(host.page, 'room-invite');

    const friend = await openPage();
    await friend.page.goto(link);
    await friend.page.getByText(`You are invited to seat 0`).waitFor();
    await settle(() => friend.page.locator('.join').textContent()).toContain('Seven Suitors at table');
    await friend.page.getByLabel('Your name').fill('Grace');
    await friend.page.getByRole('button', { name: 'Take the seat' }).click();
    await friend.page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await settle(() => friend.page.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 0/);
    await settle(() => friend.page.locator('.hand-cards .card-button').count()).toBe(14);
    expect((await spectatorView(tableId)).seats[0].occupant).toEqual({ name: 'Grace', bot: false });

    // The spectator's page: the seat is no longer offered, and no card of any hand is on it.
    await settle(() => host.page.locator('.invite-link').count()).toBe(0);
    await settle(() => host.page.locator('.seat[data-seat="0"] .seat-name').textContent()).toBe('Grace');
    expect(await host.page.locator('.hand-cards, .hand-dock, .skip-link').count()).toBe(0);
    expect(await host.page.locator('.card').count()).toBe(0); // passing: no trick yet, so no card at all

    // Leaving asks first; "Stay" keeps the seat.
    await friend.page.getByRole('button', { name: 'Leave seat' }).click();
    const dialog = friend.page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('A bot plays seat 0 until someone takes it');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await spectatorView(tableId)).seats[0].occupant).toEqual({ name: 'Grace', bot: false });
    expect(await friend.page.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 0/);

    await friend.page.getByRole('button', { name: 'Leave seat' }).click();
    await friend.page.getByRole('dialog').getByRole('button', { name: 'Leave seat' }).click();
    await friend.page.getByText('You left seat 0').waitFor();
    await settle(async () => (await spectatorView(tableId)).seats[0].occupant).toEqual({ name: 'Bot for Grace', bot: true });
    expect(await friend.page.locator('.hand-cards').count()).toBe(0);
    await screenshot(friend.page, 'room-left');

    await friend.page.getByRole('button', { name: 'Take seat 0 back' }).click();
    await settle(() => friend.page.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 0/);
    await settle(() => friend.page.locator('.hand-cards .card-button').count()).toBe(14);
    expect((await spectatorView(tableId)).seats[0].occupant).toEqual({ name: 'Grace', bot: false });
    expect(host.errors).toEqual([]);
    expect(friend.errors).toEqual([]);
    await host.page.close();
    await friend.page.close();
  });

  it('sends a join whose answer was lost again with the token it made, and is given the same seat', async () => {
    const url = session.service.url;
    const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3] });
    const { page, errors } = await openPage();
    const sent: { name: string; token?: string }[] = [];
    const answers: number[] = [];
    // The first join reaches the service and takes the seat, but its answer never reaches the page.
    await page.route(`**/api/tables/${tableId}/seats/0`, async (route) => {
      sent.push(route.request().postDataJSON() as { name: string; token?: string });
      if (sent.length > 1) return route.continue();
      answers.push((await route.fetch()).status());
      return route.abort('connectionreset');
    });
    page.on('response', (response) => {
      if (response.url().endsWith(`/api/tables/${tableId}/seats/0`)) answers.push(response.status());
    });
    await page.goto(`${url}/#/join/${tableId}/0`);
    await page.getByLabel('Your name').fill('Grace');
    await page.getByRole('button', { name: 'Take the seat' }).click();
    await page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await settle(() => page.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 0/);

    expect(answers).toEqual([201, 201]);
    expect(sent).toHaveLength(2);
    expect(sent[0].token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent[1]).toEqual(sent[0]);
    const kept = await page.evaluate(
      (id) => ({
        held: localStorage.getItem(`suitors.seat.${id}`),
        pending: Object.keys(localStorage).filter((key) => key.startsWith('suitors.joining.')),
      }),
      tableId,
    );
    expect(JSON.parse(kept.held!)).toEqual({ seat: 0, token: sent[0].token });
    expect(kept.pending).toEqual([]);
    const { events } = await apiCall<{ events: { type: string; data: { seat?: number } }[] }>(
      url,
      'GET',
      `/api/tables/${tableId}/log`,
      undefined,
      session.service.admin,
    );
    expect(events.filter((event) => event.type === 'seat.joined' && event.data.seat === 0)).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says at the end whether you won or lost, ranks the standings, and opens a rematch with the same options and seats', async () => {
    const url = session.service.url;
    const { page, errors } = await openPage();
    const tableId = await openTableAsPerson(page, url, 'sevenSuitors', {
      'Game ends after': 'hands:1',
      'Special cards': 'plain',
      'Seat 1 (team B)': 'random',
    });
    await passByClicking(page, 3);
    // The hand's commitment is public from the deal on: the "Fair deal" dialog shows it.
    const commitment = (await spectatorView(tableId)).hand!.commitment!;
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Fair deal' }).click();
    expect(await page.locator('.fair-dialog code.hex').first().textContent()).toBe(commitment);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await playByClicking(page, '.game-over-dialog');

    const view = await spectatorView(tableId);
    // Once scored, the seed is revealed and the page checks it against what it saw.
    const check = page.locator('.game-over-dialog .deal-check');
    expect(await check.locator('.verdict').textContent()).toBe(
      'verified: the deal, the roles and your contribution match what you were shown during the hand',
    );
    expect(await check.locator('summary').textContent()).toContain(
      '(the seed hashes to the commitment shown during the hand; the seed and the contributions deal your cards and role)',
    );
    expect(await check.locator('code.hex').allTextContents()).toEqual([view.revealedDeals[0].seed, commitment]);
    expect(await check.textContent()).toContain('npx suitors check record.json');
    expect(view.outcome?.finished).toBe(true);
    const winners = view.outcome!.winners;
    // The line under "You lost" says who won, not "you lose" again; the status line says both.
    const expected =
      winners.length === 0
        ? ['A draw', 'The game is a draw.', 'The game is a draw.']
        : winners.includes(0)
          ? ['You won!', 'Your team wins!', 'Your team wins!']
          : ['You lost', 'Team B wins.', 'Your team loses: team B wins.'];
    const dialog = page.locator('.game-over-dialog');
    expect(await dialog.locator('.headline').textContent()).toBe(expected[0]);
    expect(await dialog.locator('.game-over-headline .outcome').textContent()).toBe(expected[1]);
    const rows = dialog.locator('.standings tbody tr');
    expect(await rows.count()).toBe(2);
    const marked = view.marked!;
    const best =
      marked.A.length > marked.B.length || (marked.A.length === marked.B.length && view.marriageCount!.A >= view.marriageCount!.B)
        ? 'A'
        : 'B';
    expect(await rows.first().getAttribute('data-team')).toBe(best);
    expect(await page.locator('.status').textContent()).toBe(`Game over. ${expected[2]}`);
    await screenshot(page, 'room-game-over');

    await dialog.getByRole('button', { name: 'Rematch' }).click();
    await page.waitForURL((address) => /#\/table\/t-/.test(address.hash) && !address.hash.includes(tableId));
    const next = decodeURIComponent(page.url().split('#/table/')[1]);
    await settle(() => page.locator('.hand-cards .card-button').count()).toBe(15);
    const rematch = await spectatorView(next);
    expect(rematch.options).toEqual(view.options);
    expect(rematch.seats.map((seat) => seat.occupant)).toEqual([
      { name: 'Ada', bot: false },
      { name: 'Random bot 1', bot: true },
      { name: 'Heuristic bot 2', bot: true },
      { name: 'Heuristic bot 3', bot: true },
    ]);
    expect(await page.locator('.table-header .muted').textContent()).toMatch(/^Playing as seat 0 · Passing cards · hand 1 of 1/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says a deal does not check out when the cards it remembers being dealt are not the seed’s', async () => {
    const url = session.service.url;
    const { page, errors } = await openPage();
    const tableId = await openTableAsPerson(page, url, 'sevenSuitors', { 'Game ends after': 'hands:1' });
    await page.getByText('Your turn: choose one card').waitFor();
    // What this page remembers of the deal is changed: one of its cards swapped for a card it was not dealt.
    await page.evaluate((key) => {
      const seen = JSON.parse(localStorage.getItem(key)!) as { commitment: string; dealt: string[] };
      const other = ['1-1', '1-2', '1-3'].find((card) => !seen.dealt.includes(card))!;
      localStorage.setItem(key, JSON.stringify({ ...seen, dealt: [other, ...seen.dealt.slice(1)] }));
    }, `suitors.deal.${tableId}.0`);
    await passByClicking(page, 3);
    await playByClicking(page, '.game-over-dialog');
    expect(await page.locator('.game-over-dialog .deal-check .verdict').textContent()).toBe(
      'Deal check failed: the seed and the contributions deal you other cards than you were dealt',
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists tables in words, with the hand out of the game’s hands, and filters them', async () => {
    const url = session.service.url;
    const { tableId: waiting } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3, 4] });
    const { tableId: playing } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', { game: 'antiCupid', bots: [1, 2, 3, 4] });
    await apiCall(url, 'POST', `/api/tables/${playing}/seats/0`, { name: 'Bo' });
    const finished = await finishedBotGame(url, 'sevenSuitors', { end: 'hands:1' });

    const { page, errors } = await openPage();
    await page.goto(`${url}/#/`);
    const row = (tableId: string) => page.locator(`tr[data-table="${tableId}"]`);
    await settle(() => row(waiting).locator('.state').textContent()).toBe('Waiting for players: 1 open seat');
    await settle(() => row(playing).locator('.state').textContent()).toMatch(/^Playing tricks · hand 1 of 5$/);
    expect(await row(playing).locator('.when').textContent()).toMatch(/^last move (just now|\d+ min ago)$/);
    // Who sits at a table comes from its view, read after the list is drawn: on a busy machine, a moment later.
    await settle(() => row(playing).textContent()).toContain('Bo');
    expect(await page.locator('.table-list').textContent()).not.toMatch(/trickPlay|seating|passing/);

    await page.getByLabel('Show game').selectOption('sevenSuitors');
    await settle(() => row(playing).count()).toBe(0);
    await page.getByLabel('Show game').selectOption('antiCupid');
    await page.getByLabel('Show tables').selectOption('open');
    await settle(() => row(playing).count()).toBe(0);
    expect(await row(waiting).count()).toBe(1);
    // Finished games: the recent games, newest first, each with its replay.
    await page.getByLabel('Show game').selectOption('');
    await page.getByLabel('Show tables').selectOption('finished');
    await settle(() => row(finished).locator('.state').textContent()).toBe('Finished');
    expect(await row(finished).getByRole('link', { name: 'Replay' }).getAttribute('href')).toBe(`#/replay/${finished}`);
    expect(await row(waiting).count()).toBe(0);
    await page.getByLabel('Show tables').selectOption('all');
    await page.getByLabel('My tables only').check();
    await settle(() => page.locator('.table-list, .tables p').first().textContent()).toMatch(/No table matches these filters/);
    await screenshot(page, 'room-lobby');
    // Once this browser sits at a table, "my tables" shows that one alone.
    await page.getByLabel('My tables only').uncheck();
    await page.getByLabel('Your name').fill('Cy');
    await row(waiting).getByRole('button', { name: 'Sit at seat 0' }).click();
    await page.waitForURL(new RegExp(`#/table/${waiting}$`));
    await page.goto(`${url}/#/`);
    await row(playing).waitFor();
    await page.getByLabel('My tables only').check();
    await settle(() => page.locator('tr[data-table]').evaluateAll((rows) => rows.map((each) => each.getAttribute('data-table')))).toEqual([
      waiting,
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
