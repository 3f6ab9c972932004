/**
 * The fuzzer's first path: the table host's own API, in-process, on a
 * memory or SQLite event store — what the gateway and the NATS workers call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TableEvent } from '../../machines/table/events.js';
import { GAMES } from '../../machines/table/options.js';
import { explainRefusal } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { isTableRefusal } from '../../services/host/errors.js';
import { TableHost, type TableHostOptions } from '../../services/host/tableHost.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import { FUZZ_SNAPSHOT_EVERY, type Answer, type Expected, type FuzzPath, type FuzzSettings } from './fuzzPath.js';
import type { FuzzCommand } from './malformedCommands.js';

export async function openHostPath(settings: Pick<FuzzSettings, 'store' | 'snapshotEvery' | 'createHost'>): Promise<FuzzPath> {
  const folder = settings.store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'suitors-fuzz-')) : null;
  const storage = openLocalStorage(folder === null ? { kind: 'memory' } : { kind: 'sqlite', path: join(folder, 'fuzz.db') });
  const { store } = storage;
  const options: TableHostOptions = { store, snapshotEvery: settings.snapshotEvery ?? FUZZ_SNAPSHOT_EVERY };
  const host = settings.createHost?.(options) ?? new TableHost(options);
  return {
    via: 'host',
    host,
    store,
    async openTable(game, options, seed) {
      const players = Array.from({ length: GAMES[game].seats }, (_, seat) => ({ name: `Fuzzer ${seat}`, bot: false }));
      return (await host.createTable({ game, options, players, seed })).tableId;
    },
    async send(tableId, sent, before) {
      return { answer: await submit(host, tableId, sent), expected: hostExpected(before, sent.command), seen: sent.command };
    },
    async sendTogether(tableId, sent) {
      const answers = await Promise.all(sent.map((each) => submit(host, tableId, each)));
      return answers.map((answer, i) => ({ answer, seen: sent[i].command }));
    },
    async close() {
      await host.close();
      await storage.close();
      if (folder !== null) rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function submit(host: TableHost, tableId: string, sent: FuzzCommand): Promise<Answer> {
  try {
    const accepted = await host.submit(tableId, sent.command);
    return { acceptedAt: accepted.version, key: 'accepted', status: null, error: null, message: null, crash: null };
  } catch (error) {
    if (isTableRefusal(error))
      return { acceptedAt: null, key: error.kind, status: null, error: error.kind, message: error.message, crash: null };
    return {
      acceptedAt: null,
      key: 'exception',
      status: null,
      error: null,
      message: null,
      crash: `the host threw ${(error as Error)?.stack ?? String(error)}`,
    };
  }
}

/** What the host must answer a command in the state `before`: the rules' refusal, or acceptance. */
export function hostExpected(before: TableSnapshot, command: unknown): Expected {
  if ((command as { type?: unknown } | null)?.type === 'hand.dealt') {
    return { accepted: false, status: null, error: 'malformed', message: 'deals are made by the host, never sent to a table' };
  }
  let refusal;
  try {
    refusal = explainRefusal(before, command as TableEvent);
  } catch {
    // The rules cannot even say (the host will have failed the same way): only the crash counts.
    return null;
  }
  return refusal === null ? { accepted: true } : { accepted: false, status: null, error: refusal.kind, message: refusal.message };
}
