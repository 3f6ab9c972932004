/**
 * A real table worker process serving /metrics (WORKER_METRICS_PORT) on a
 * real, secured nats-server: scraped after it served tables, its figures
 * are those of the requests it answered, the appends it made, the tables it
 * holds, its bots' moves and its lease renewals. Without nats-server this
 * fails (startLocalNats says what to install); it is never skipped.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { createRemoteTable } from '../../drivers/remotePlay.js';
import { startWorkerProcess, type WorkerProcess } from '../../drivers/workerProcess.js';
import { GAMES } from '../../machines/table/options.js';
import { RemoteTables } from '../bus/remoteTables.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { openJetStreamEventStore } from '../eventstore/jetstream/index.js';

let nats: LocalNats;
let worker: WorkerProcess;
let nc: NatsConnection;
let store: EventStore;
let tables: RemoteTables;
let metricsUrl: string;

beforeAll(async () => {
  nats = await startLocalNats(1);
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  worker = await startWorkerProcess({
    natsEnv: nats.env('worker'),
    workerId: 'w-metrics',
    metricsPort: port,
    botDelayMs: 0,
    leaseTtlMs: 2000,
  });
  nc = await nats.connect('gateway');
  store = await openJetStreamEventStore({ connection: nc, createMissing: false });
  tables = new RemoteTables({ nc, store });
}, 60_000);

afterAll(async () => {
  await tables?.close();
  await store?.close();
  await nc?.close();
  await worker?.stop();
  await nats?.stop();
});

/** One sample of the scrape: `name{labels} value`, the labels as Prometheus writes them; 0 when it is not there. */
function sample(scrape: string, series: string): number {
  const line = scrape.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function scrape(): Promise<string> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

describe("a table worker's /metrics", () => {
  it('counts the requests it served by outcome, its appends and their latency, tables held, bot moves and lease renewals', async () => {
    const seated = await createRemoteTable(tables, { game: 'sevenSuitors' });
    const bots = Array.from({ length: GAMES.antiCupid.seats }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
    await tables.createTable({ game: 'antiCupid', players: bots });
    const refused = await tables.submit(seated.tableId, { type: 'card.played', seat: 0, card: 'no-such-card' }).catch((error) => error);
    expect(refused).toBeInstanceOf(Error);

    await vi.waitFor(
      async () => {
        const figures = await scrape();
        expect(sample(figures, 'suitors_worker_requests_total{op="createTable",outcome="accepted"}')).toBe(2);
        // Four seats taken, then the refused play.
        expect(sample(figures, 'suitors_worker_requests_total{op="submit",outcome="accepted"}')).toBe(4);
        // Sent without the seat's token: refused before the table is asked.
        expect(sample(figures, 'suitors_worker_requests_total{op="submit",outcome="notHolder"}')).toBe(1);
        expect(sample(figures, 'suitors_worker_own_moves_total{source="bot",outcome="accepted"}')).toBeGreaterThan(0);
        expect(sample(figures, 'suitors_worker_lease_renewals_total{outcome="ok"}')).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    const figures = await scrape();
    const appended = sample(figures, 'suitors_worker_appends_total{outcome="ok"}');
    // Two creations, four seats, and every bot move: each an append.
    expect(appended).toBeGreaterThanOrEqual(6 + sample(figures, 'suitors_worker_own_moves_total{source="bot",outcome="accepted"}'));
    expect(sample(figures, 'suitors_worker_append_duration_seconds_count')).toBe(
      appended + sample(figures, 'suitors_worker_appends_total{outcome="conflict"}'),
    );
    expect(sample(figures, 'suitors_worker_tables_held')).toBe(2);
    // Exported; not asserted to be 0: the orphan sweep may take up one of this worker's own new tables before its
    // claim is seen, and counts that as a takeover (seen in CI under load; a race the closing note of issue 30 names).
    expect(figures).toMatch(/^suitors_worker_takeovers_total \d+$/m);
    expect(sample(figures, 'suitors_worker_hand_offs_total{direction="out"}')).toBe(0);
    expect(sample(figures, 'suitors_worker_request_duration_seconds_count{op="submit"}')).toBe(5);
    expect(figures).toContain('nodejs_eventloop_lag_seconds');

    const elsewhere = await fetch(metricsUrl.replace('/metrics', '/tables'));
    expect(elsewhere.status).toBe(404);
  });
});
