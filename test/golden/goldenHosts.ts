/**
 * What the golden-log tests share: reading a file of the corpus, and a host
 * over a store that holds nothing but one log, as a host taking a table up
 * after a deploy finds it. Hosts are closed, with their stores, after each
 * test of the file that registers them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { GameRecord } from '../../machines/record/record.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import type { EventStore, StoredEvent } from '../../services/eventstore/eventStore.js';
import { TableHost } from '../../services/host/tableHost.js';
import type { GoldenCase } from './cases.js';
import type { GoldenOutcome } from './outcome.js';

export interface GoldenFile {
  readonly case: GoldenCase;
  readonly expected: GoldenOutcome;
  readonly record: GameRecord | null;
  readonly log: StoredEvent[];
}

/** test/fixtures/golden: a folder per release. */
export const GOLDEN_CORPUS = join(import.meta.dirname, '..', 'fixtures', 'golden');

/** A file of the corpus by its path below it, e.g. `current/traitorOfLove-plain-finished.json`. */
export function readGolden(name: string): GoldenFile {
  return JSON.parse(readFileSync(join(GOLDEN_CORPUS, name), 'utf8')) as GoldenFile;
}

/**
 * Registers the closing of the hosts it makes after each test, and returns
 * what makes them: a host whose store holds `log` as table `tableId` (or
 * nothing), on the clock `now` (the real one by default).
 */
export function hostsOverLogs(
  now?: () => Date,
): (tableId: string, log?: readonly StoredEvent[]) => Promise<{ host: TableHost; store: EventStore }> {
  let open: { host: TableHost; store: EventStore }[] = [];
  afterEach(async () => {
    for (const { host, store } of open) {
      await host.close();
      await store.close();
    }
    open = [];
  });
  return async (tableId, log = []) => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    if (log.length > 0)
      await store.append(
        tableId,
        log.map(({ type, at, data }) => ({ type, at, data })),
        0,
      );
    const host = new TableHost({ store, ...(now === undefined ? {} : { now }) });
    open.push({ host, store });
    return { host, store };
  };
}
