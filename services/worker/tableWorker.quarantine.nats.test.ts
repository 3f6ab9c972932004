/**
 * A quarantined table in the distributed service (one nats-server, a worker,
 * a gateway over RemoteTables, a shared in-memory log): the gateway's copy
 * and the worker both find the refused event, the gateway answers 503
 * naming it, the admin's repair is served by the table's worker (the
 * request names no event), and the table plays on.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRecord } from '../../machines/record/verify.js';
import { ADMIN } from '../../drivers/embeddedService.js';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { createRemoteTable, nextRemoteMove, playRemotely, submitRemoteMove } from '../../drivers/remotePlay.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { isVersionConflict } from '../eventstore/eventStore.js';
import { foldLog } from '../host/replay.js';
import { RemoteTables } from '../bus/remoteTables.js';
import { openLocalStorage } from '../storage/storage.js';
import { createGateway } from '../gateway/gateway.js';
import { isTableRefusal } from '../host/errors.js';
import { isTableQuarantined, type TableQuarantined } from '../host/quarantine.js';
import { startTableWorker } from './tableWorker.js';

describe('a quarantined table on NATS', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];

  beforeAll(async () => {
    nats = await startLocalNats(1);
  });

  afterAll(async () => {
    await Promise.allSettled(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it("is refused by the gateway naming the event, repaired by the table's worker on the admin's request, and played on", async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const workerNc = await nats.connect('worker');
    const gatewayNc = await nats.connect('gateway');
    connections.push(workerNc, gatewayNc);
    const worker = await startTableWorker({ nc: workerNc, store, workerId: 'w-q', leaseTtlMs: 1500 });
    const told: TableQuarantined[] = [];
    const tables = new RemoteTables({ nc: gatewayNc, store, onQuarantined: (verdict) => told.push(verdict) });
    const app = createGateway({
      host: tables,
      tokens: openLocalStorage({ kind: 'memory' }).tokens,
      adminToken: 'admin-secret-for-tests',
      logger: pino({ level: 'silent' }),
      webRoot: '/nonexistent',
    });
    try {
      const { tableId } = await createRemoteTable(tables, { game: 'sevenSuitors', options: { end: 'hands:1' } });
      let moves = 0;
      await playRemotely(tables, tableId, { stop: () => moves >= 8, onAccepted: () => moves++ });
      const good = await store.read(tableId);
      const version = good.length;
      // Seat 9 at a table of four: refused in any state.
      await store.append(tableId, [{ type: 'card.played', at: new Date().toISOString(), data: { seat: 9, card: '1-9' } }], version);
      const bad = version + 1;

      const view = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` });
      expect(view.statusCode).toBe(503);
      expect(view.json()).toMatchObject({ error: 'quarantined', tableId, seq: bad, eventType: 'card.played' });
      expect(told.map((verdict) => verdict.seq)).toEqual([bad]);
      const { tables: lobby } = (await app.inject({ method: 'GET', url: '/api/tables' })).json();
      expect(lobby.find((table: { tableId: string }) => table.tableId === tableId)).toMatchObject({
        game: 'sevenSuitors',
        phase: 'quarantined',
        quarantine: { seq: bad },
      });
      // The worker finds it too, and its refusal comes across the bus with the event named.
      // A move its copy there allows: the first meets the log moved on, and the worker folds the log again.
      const move = nextRemoteMove(foldLog(tableId, good).actor.getSnapshot(), createRng('quarantine'))!;
      const refusals: unknown[] = [];
      for (let i = 0; i < 2; i++) refusals.push(await submitRemoteMove(tables, tableId, move).catch((error: unknown) => error));
      expect(isVersionConflict(refusals[0])).toBe(true);
      const quarantined = refusals.find(isTableQuarantined);
      expect(quarantined?.quarantine).toMatchObject({ tableId, seq: bad, eventType: 'card.played' });
      expect(await store.version(tableId)).toBe(bad);

      expect((await app.inject({ method: 'POST', url: `/api/tables/${tableId}/repair` })).statusCode).toBe(401);
      const repaired = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/repair`, headers: ADMIN });
      expect(repaired.statusCode, repaired.body).toBe(200);
      expect(repaired.json()).toMatchObject({ tableId, voided: [bad], version: bad + 1 });
      expect(tables.quarantinedTables()).toEqual([]);
      expect((await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).statusCode).toBe(200);

      await playRemotely(tables, tableId);
      const record = await tables.exportRecord(tableId);
      expect(record.result.finished).toBe(true);
      expect(verifyRecord(JSON.parse(JSON.stringify(record)))).toMatchObject({ ok: true });
      const again = await tables.repair(tableId).catch((error: unknown) => error);
      expect(isTableRefusal(again) && again.kind).toBe('notQuarantined');
    } finally {
      await app.close();
      await tables.close();
      await worker.stop();
    }
  });
});
