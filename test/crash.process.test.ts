/**
 * Crash safety: a process playing bot games is SIGKILLed at random moments,
 * many times. After every kill, every acknowledged command is in the log and
 * every log replays; restarted, the process resumes every table from its
 * log and finishes every game.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createRng } from '../machines/cards/shuffle.js';
import { verifyRecord } from '../machines/record/verify.js';
import { openLocalStorage } from '../services/storage/storage.js';
import { foldLog, recordOfLog } from '../services/host/replay.js';

const WORKER = join(import.meta.dirname, 'crash', 'botWorker.ts');
const TABLES = 12;
const KILLS = 8;

interface Run {
  /** The highest acknowledged version of each table. */
  readonly acks: Map<string, number>;
  readonly ackCount: number;
  readonly finished: boolean;
}

/** Runs the worker; kills it with SIGKILL after `killAfterMs` unless it finishes first. */
function runWorker(database: string, killAfterMs: number | null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, database, String(TABLES), 'crash'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acks = new Map<string, number>();
    let finished = false;
    let ackCount = 0;
    let timer: NodeJS.Timeout | undefined;
    let started = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [word, tableId, version] = line.split(' ');
      if (word === 'done') finished = true;
      if (word !== 'ack') return;
      ackCount++;
      acks.set(tableId, Math.max(acks.get(tableId) ?? 0, Number(version)));
      // Count from the first acknowledgement, so the kill lands in play, not during start-up.
      if (!started && killAfterMs !== null) {
        started = true;
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`worker exited with ${code}`));
      else resolve({ acks, ackCount, finished });
    });
  });
}

async function expectLogsHoldEveryAck(database: string, acks: Map<string, number>): Promise<void> {
  const storage = openLocalStorage({ kind: 'sqlite', path: database });
  const { store } = storage;
  try {
    for (const [tableId, version] of acks) {
      const events = await store.read(tableId);
      expect(events.length, `table ${tableId}`).toBeGreaterThanOrEqual(version);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
      foldLog(tableId, events).actor.stop();
    }
  } finally {
    await storage.close();
  }
}

describe('crash safety', () => {
  it(`loses no acknowledged command over ${KILLS} SIGKILLs, then finishes every game`, async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'suitors-crash-')), 'crash.db');
    const rng = createRng('kill-moments');
    let acknowledged = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const run = await runWorker(database, 50 + rng.below(600));
      acknowledged += run.ackCount;
      await expectLogsHoldEveryAck(database, run.acks);
    }
    expect(acknowledged).toBeGreaterThan(KILLS * 10);
    const last = await runWorker(database, null);
    expect(last.finished).toBe(true);
    const storage = openLocalStorage({ kind: 'sqlite', path: database });
    const { store } = storage;
    try {
      const tables = await store.listTables();
      expect(tables).toHaveLength(TABLES);
      for (const table of tables) {
        expect(table.status?.phase).toBe('gameOver');
        const record = recordOfLog(table.tableId, await store.read(table.tableId));
        expect(verifyRecord(JSON.parse(JSON.stringify(record))).problems).toEqual([]);
      }
    } finally {
      await storage.close();
    }
  });
});
