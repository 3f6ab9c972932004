/**
 * A name a table can show (issue 26, item 5): taking a seat or forking a
 * game with a name that breaks a rule is 400 naming the rule, and changes
 * nothing; a name that keeps them is stored as the table shows it (NFC,
 * trimmed).
 */
import { describe, expect, it } from 'vitest';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { createdTable, finishedBotGame } from '../../test/kit/serviceTables.js';

const service = servicesClosedAfterEach();

const REFUSED: [string, string][] = [
  ['Ada\u202Eevol', 'bidi'],
  ['\u200B\u200D\u200B', 'invisible'],
  ['Ada\u0000', 'control'],
  ['Ada\u0007', 'control'],
  ['Ada\r\nLovelace', 'control'],
  ['Ada\uD800', 'unpaired'],
  ['Heuristic bot 1', 'botName'],
  ['Bot for Ada', 'botName'],
  ['\u00E9'.repeat(41), 'length'],
];

describe('player names', () => {
  it('a seat taken with a name that breaks a rule is 400 naming the rule, and the seat stays open', async () => {
    const started = service();
    const tableId = await createdTable(started, { game: 'sevenSuitors' });
    const before = await started.host.events(tableId);
    for (const [name, rule] of REFUSED) {
      const joined = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/1`, payload: { name } });
      expect(joined.statusCode, JSON.stringify(name)).toBe(400);
      expect(joined.json()).toMatchObject({ error: 'badRequest', rule });
      expect(joined.json().message).toMatch(/^body\.name /);
    }
    expect(await started.host.events(tableId)).toEqual(before);
    expect((await started.host.snapshot(tableId)).snapshot.context.occupants).toEqual([null, null, null, null]);
  });

  it('a name that keeps the rules is stored in NFC, trimmed of what is invisible around it', async () => {
    const started = service();
    const tableId = await createdTable(started, { game: 'sevenSuitors' });
    const joined = await started.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/seats/2`,
      payload: { name: ' \u200BJose\u0301\u00A0' },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    expect((await started.host.snapshot(tableId)).snapshot.context.occupants[2]).toEqual({ name: 'Jos\u00E9', bot: false });
  });

  it('a fork with a name that breaks a rule is 400 naming the rule, and makes no table', async () => {
    const started = service();
    const tableId = await finishedBotGame(started);
    for (const [name, rule] of REFUSED) {
      const forked = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at: 10, seat: 0, name } });
      expect(forked.statusCode, JSON.stringify(name)).toBe(400);
      expect(forked.json()).toMatchObject({ error: 'badRequest', rule });
    }
    expect((await started.store.listTables()).map((table) => table.tableId)).toEqual([tableId]);
  });
});
