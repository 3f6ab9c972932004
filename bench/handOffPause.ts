/**
 * How long a table stands still when rebalancing hands it to a worker that
 * joins (bench/takeover.ts runs it): a worker holds `tables` tables, each
 * played by a client here with a command always on its way (the next sent
 * as the last is answered); a second worker joins and is handed half of
 * them. For each table handed, the pause is the time from its release (the
 * old owner's claim rewritten for the new one) to the first command the new
 * owner answers; the gap is the time between the last command the old owner
 * answered and that one, what the player sees. The workers are processes of
 * their own, as deployed; this process is the gateway and the players.
 */
import { createRemoteTable, gameOf, nextRemoteMove, submitRemoteMove } from '../drivers/remotePlay.js';
import type { LocalNats } from '../drivers/localNats.js';
import { startWorkerProcess, type WorkerProcess } from '../drivers/workerProcess.js';
import { waitFor } from '../drivers/polling.js';
import { createRng } from '../machines/cards/shuffle.js';
import { RemoteTables } from '../services/bus/remoteTables.js';
import { openJetStreamEventStore } from '../services/eventstore/jetstream/index.js';

export interface HandOffPauses {
  readonly handed: number;
  /** Release to the first command served by the new owner, ms, sorted. */
  readonly pausesMs: readonly number[];
  /** The last command the old owner answered to the first the new one did, ms, sorted. */
  readonly gapsMs: readonly number[];
}

export async function measureHandOffPauses(nats: LocalNats, tableCount: number, leaseTtlMs: number): Promise<HandOffPauses> {
  /** When each table was released, by the old owner's clock (this machine's): its log line's time. */
  const released = new Map<string, number>();
  const workers: WorkerProcess[] = [];
  const startWorker = async (workerId: string): Promise<WorkerProcess> => {
    const onLog = (line: string) => {
      const handed = /^(\S+) \S+ handed (\S+) to \S+$/.exec(line);
      if (handed !== null) released.set(handed[2], Date.parse(handed[1]));
    };
    const worker = await startWorkerProcess({ natsEnv: nats.env('worker'), workerId, replicas: 3, leaseTtlMs, onLog });
    workers.unshift(worker);
    return worker;
  };
  // The worker first: it makes the stream and buckets, which a gateway may not.
  await startWorker('bench-old');
  const gatewayNc = await nats.connect('gateway', { name: 'bench-gateway' });
  const gatewayStore = await openJetStreamEventStore({ connection: gatewayNc, createMissing: false });
  const tables = new RemoteTables({ nc: gatewayNc, store: gatewayStore });
  try {
    const ids: string[] = [];
    for (let index = 0; index < tableCount; index++) ids.push((await createRemoteTable(tables, { game: gameOf(index) })).tableId);
    /** Each table's acknowledgements: when, and by which worker. */
    const acks = new Map<string, Array<{ at: number; worker: string }>>(ids.map((tableId) => [tableId, []]));
    let playing = true;
    const ended = new Set<string>();
    const players = ids.map(async (tableId) => {
      const rng = createRng(`hand-off ${tableId}`);
      while (playing) {
        const move = nextRemoteMove((await tables.snapshot(tableId)).snapshot, rng);
        if (move === null) {
          ended.add(tableId);
          return;
        }
        await submitRemoteMove(tables, tableId, move);
        acks.get(tableId)!.push({ at: Date.now(), worker: tables.ownerOf(tableId)! });
      }
    });
    const joining = await startWorker('bench-joining');
    const servedByJoining = (tableId: string) => acks.get(tableId)!.some(({ worker }) => worker === joining.workerId);
    await waitFor(
      () =>
        released.size >= tableCount - Math.ceil(tableCount / 2) &&
        [...released.keys()].every((tableId) => servedByJoining(tableId) || ended.has(tableId)),
      'half the tables handed to the joining worker and played there',
      { timeoutMs: 60_000, everyMs: 20 },
    );
    playing = false;
    await Promise.all(players);
    const pausesMs: number[] = [];
    const gapsMs: number[] = [];
    for (const [tableId, releasedAt] of released) {
      const tableAcks = acks.get(tableId)!;
      const first = tableAcks.findIndex(({ worker }) => worker === joining.workerId);
      if (first === -1) continue; // its game ended before it was played at the new owner
      pausesMs.push(tableAcks[first].at - releasedAt);
      if (first > 0) gapsMs.push(tableAcks[first].at - tableAcks[first - 1].at);
    }
    return { handed: released.size, pausesMs: pausesMs.sort((a, b) => a - b), gapsMs: gapsMs.sort((a, b) => a - b) };
  } finally {
    await tables.close();
    for (const worker of workers) await worker.stop();
    await gatewayStore.close();
    await gatewayNc.close();
  }
}
