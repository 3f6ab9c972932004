/**
 * A person at a table played by the test itself over HTTP, one move at a
 * time: the service's own bots move at once, so a seat the test holds is how
 * a test keeps a game from running to its end before it has looked, and
 * says when a page is sent a new view.
 */
import type { Page } from 'playwright-core';
import type { TableView } from '../../machines/view.js';
import { commandFor } from '../../drivers/players/moves.js';
import { apiCall } from '../../drivers/browser/webService.js';
import { settle } from './session.js';

export interface RemoteSeat {
  readonly seat: number;
  readonly token: string;
  view(): Promise<TableView>;
  /** Makes this seat's moves until `done` holds of its view (waiting out the bots between them). */
  playUntil(done: (view: TableView) => boolean): Promise<TableView>;
}

export async function takeSeat(url: string, tableId: string, seat: number, name: string): Promise<RemoteSeat> {
  const { token } = await apiCall<{ token: string }>(url, 'POST', `/api/tables/${tableId}/seats/${seat}`, { name });
  return seatPlayedWith(url, tableId, seat, token);
}

/** A seat someone holds (a page's, its token read from the page), played from the test. */
export function seatPlayedWith(url: string, tableId: string, seat: number, token: string): RemoteSeat {
  const headers = { authorization: `Bearer ${token}` };
  const view = async () => (await apiCall<{ view: TableView }>(url, 'GET', `/api/tables/${tableId}/view`, undefined, headers)).view;
  return {
    seat,
    token,
    view,
    async playUntil(done) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const seen = await view();
        if (done(seen)) return seen;
        if (Date.now() > deadline) throw new Error(`seat ${seat} at ${tableId}: what was awaited never came (phase ${seen.phase})`);
        const action = seen.awaiting.find((awaited) => awaited.seat === seat)?.action;
        const command = action === undefined ? null : commandFor(seen, action);
        if (command === null) await new Promise((resolve) => setTimeout(resolve, 50));
        else await apiCall(url, 'POST', `/api/tables/${tableId}/commands`, command, headers);
      }
    },
  };
}

/**
 * Ada takes seat 0 on `page`, Bea seat 1 played from the test, bots the rest, at a one-hand Seven Suitors table:
 * while Ada chooses her pass the page changes only when the test has Bea act (passBea).
 */
export async function adaAndBea(page: Page, url: string): Promise<{ tableId: string; bea: RemoteSeat }> {
  const { tableId } = await apiCall<{ tableId: string }>(url, 'POST', '/api/tables', {
    game: 'sevenSuitors',
    options: { end: 'hands:1' },
    bots: [2, 3],
  });
  await page.goto(`${url}/#/join/${tableId}/0`);
  await page.getByLabel('Your name').fill('Ada');
  await page.getByRole('button', { name: 'Take the seat' }).click();
  const bea = await takeSeat(url, tableId, 1, 'Bea');
  await page.getByText('Your turn: choose one card').waitFor();
  return { tableId, bea };
}

/** Bea passes, and the view it makes reaches the page, which is drawn anew (its header is a new element). */
export async function passBea(page: Page, bea: RemoteSeat): Promise<void> {
  await page.evaluate(() => document.querySelector('.table-header')?.setAttribute('data-drawn-before', ''));
  await bea.playUntil((view) => !view.awaiting.some((awaited) => awaited.seat === bea.seat));
  await settle(() => page.locator('[data-drawn-before]').count()).toBe(0);
}
