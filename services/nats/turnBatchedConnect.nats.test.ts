import type { Socket } from 'node:net';
import type { NatsConnection } from '@nats-io/nats-core';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { createRemoteTable, nextRemoteMove, submitRemoteMove } from '../../drivers/remotePlay.js';
import { waitFor } from '../../drivers/polling.js';
import { isTableUnavailable } from '../bus/protocol.js';
import { RemoteTables } from '../bus/remoteTables.js';
import { openLocalStorage } from '../storage/storage.js';
import { workersOverNatsForTests } from '../../test/kit/workersOverNats.js';

/** The socket under a connection, which the batching corks (nats.js keeps its transport internal); undefined while it reconnects. */
function socketOf(nc: NatsConnection): Socket | undefined {
  return (nc as unknown as { protocol: { transport?: { socket: Socket } } }).protocol.transport?.socket;
}

describe('writes batched per turn of the event loop (a real nats-server, secured)', () => {
  const cluster = workersOverNatsForTests();

  async function threeTables(requestTimeoutMs: number) {
    const { store } = openLocalStorage({ kind: 'memory' });
    await cluster.startWorker({ store, workerId: 'w-a', leaseTtlMs: 1500, rebalancePerSecond: 0 });
    const nc = await cluster.connection('gateway');
    const tables = new RemoteTables({ nc, store, requestTimeoutMs, retryForMs: 2000 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createRemoteTable(tables, { game: 'sevenSuitors' })).tableId);
    return { store, nc, tables, ids };
  }

  /** A legal move for each table, as it stands. */
  async function movesAt(tables: RemoteTables, ids: readonly string[]) {
    const rng = createRng(7);
    return Promise.all(ids.map(async (tableId) => nextRemoteMove((await tables.snapshot(tableId)).snapshot, rng)!));
  }

  it('sends the requests of one turn in one write, at the end of the turn', async () => {
    const { nc, tables, ids } = await threeTables(3000);
    const moves = await movesAt(tables, ids);
    const socket = socketOf(nc)!;
    const held = new Promise<{ corked: number; bytes: number }>((resolve) =>
      setImmediate(() => resolve({ corked: socket.writableCorked, bytes: socket.writableLength })),
    );
    const accepted = ids.map((tableId, i) => submitRemoteMove(tables, tableId, moves[i]));
    // Registered before the batch's own end of turn: it sees the three requests still held back, together.
    const { corked, bytes } = await held;
    expect(corked).toBe(1);
    expect(bytes).toBeGreaterThan(3 * 100);
    for (const result of await Promise.all(accepted)) expect(result.events.length).toBeGreaterThan(0);
    expect(socket.writableCorked).toBe(0);
    await tables.close();
  });

  it('fails each command of a batch that never left, clearly, and takes none of them', async () => {
    const { store, nc, tables, ids } = await threeTables(800);
    const moves = await movesAt(tables, ids);
    const versions = await Promise.all(ids.map((tableId) => store.version(tableId)));
    const socket = socketOf(nc)!;
    const lost = new Promise<number>((resolve) =>
      setImmediate(() => {
        const bytes = socket.writableLength;
        // The connection dies with the turn's writes still held: the whole batch is lost.
        socket.destroy();
        resolve(bytes);
      }),
    );
    const outcomes = ids.map((tableId, i) =>
      submitRemoteMove(tables, tableId, moves[i]).then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(await lost).toBeGreaterThan(3 * 100);
    const errors = await Promise.all(outcomes);
    for (const [i, error] of errors.entries()) {
      expect(isTableUnavailable(error)).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^no answer on tables\\.${ids[i]}\\.cmd[^ ]* \\(.+\\); the submit may or may not have been taken: read the table to see$`,
        ),
      );
    }
    expect(await Promise.all(ids.map((tableId) => store.version(tableId)))).toEqual(versions);
    // Once the connection is back, each command is taken once, when sent again.
    await waitFor(() => socketOf(nc) !== socket && socketOf(nc)?.destroyed === false, 'the reconnection');
    for (const [i, tableId] of ids.entries()) await submitRemoteMove(tables, tableId, moves[i]);
    const after = await Promise.all(ids.map((tableId) => store.version(tableId)));
    for (const [i, version] of after.entries()) expect(version).toBeGreaterThan(versions[i]);
    await tables.close();
  });
});
