/**
 * Event store benchmark: appends per second into the embedded SQLite store
 * (WAL, synchronous=FULL, group commit), on the file system of the OS temp
 * directory or BENCH_DIR (--dir). Not a test: it prints figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summaryLine } from '../drivers/figures/summary.js';
import { readFlags, text } from '../drivers/flags.js';
import type { NewEvent } from '../services/eventstore/eventStore.js';
import type { GroupCommit } from '../services/eventstore/sqliteEventStore.js';
import { openLocalStorage } from '../services/storage/storage.js';

const TABLES = 1_000;
const APPENDS = 10_000;
const { dir } = readFlags({ dir: text({ env: 'BENCH_DIR', default: tmpdir() }) }, 'npx tsx bench/eventstore.ts [--dir D]');
const directory = mkdtempSync(join(dir, 'eventstore-bench-'));

function played(table: number, version: number): NewEvent {
  return { type: 'card.played', at: new Date().toISOString(), data: { seat: version % 4, card: `${table % 7}-${version % 9}` } };
}

/** Issues APPENDS single-event appends over TABLES tables, `perBatch` at a time, awaiting each batch. */
async function measure(label: string, perBatch: number): Promise<void> {
  const commits: GroupCommit[] = [];
  const storage = openLocalStorage({ kind: 'sqlite', path: join(directory, `${perBatch}.db`), onCommit: (commit) => commits.push(commit) });
  const { store } = storage;
  const versions = new Array<number>(TABLES).fill(0);
  const started = performance.now();
  for (let issued = 0; issued < APPENDS; ) {
    const batch: Promise<number>[] = [];
    for (const end = Math.min(APPENDS, issued + perBatch); issued < end; issued++) {
      const table = issued % TABLES;
      batch.push(store.append(`table-${table}`, [played(table, versions[table])], versions[table]++));
    }
    await Promise.all(batch);
  }
  const seconds = (performance.now() - started) / 1000;
  await storage.close();
  const commitMs = commits.map((commit) => commit.durationMs).sort((a, b) => a - b);
  const median = commitMs[Math.floor(commitMs.length / 2)];
  summary[`batch_${perBatch}_appends_per_s`] = Math.round(APPENDS / seconds);
  console.log(
    `${label.padEnd(34)} ${String(Math.round(APPENDS / seconds)).padStart(7)} appends/s ` +
      `(${seconds.toFixed(2)} s, ${commits.length} commits, median commit ${median.toFixed(1)} ms)`,
  );
}

/** Awaits every append before the next: one fsync per append, the floor group commit lifts. */
async function measureOneByOne(appends: number): Promise<void> {
  const storage = openLocalStorage({ kind: 'sqlite', path: join(directory, 'one-by-one.db') });
  const { store } = storage;
  const started = performance.now();
  for (let version = 0; version < appends; version++) await store.append('table-0', [played(0, version)], version);
  const seconds = (performance.now() - started) / 1000;
  await storage.close();
  summary.one_at_a_time_appends_per_s = Math.round(appends / seconds);
  console.log(`${`one at a time (${appends} appends)`.padEnd(34)} ${String(Math.round(appends / seconds)).padStart(7)} appends/s`);
}

const summary: Record<string, number> = {};
console.log(`event store benchmark: ${APPENDS} single-event appends over ${TABLES} tables, SQLite WAL, synchronous=FULL, in ${directory}`);
try {
  await measureOneByOne(500);
  for (const perBatch of [10, 100, 1_000, 10_000]) await measure(`batches of ${perBatch} concurrent`, perBatch);
  console.log(summaryLine(summary));
} finally {
  rmSync(directory, { recursive: true, force: true });
}
