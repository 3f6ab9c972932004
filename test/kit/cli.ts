/**
 * The `suitors` command line as a person runs it, for the tests of its
 * commands: the built bin.js in a child process of its own, from the
 * repository's root, and a scratch directory for what it reads and writes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { GameRecord } from '../../machines/record/record.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'services', 'cli', 'bin.js');

export interface CliRun {
  /** The exit code (null when a signal ended it). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** How long it ran, for a test to print (never to assert: timings belong in benchmarks). */
  readonly seconds: number;
}

/** Runs `suitors <args>` to its end and gives what it said and how it exited. */
export function suitors(...args: string[]): Promise<CliRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

/** A new directory under the system's temporary one, removed after the calling file's tests (call it at top level). */
export function scratchDirectory(prefix: string): string {
  const scratch = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return scratch;
}

type Writable<T> = T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;
/** A record as the JSON document it is on disk: every field can be tampered with. */
export type RecordDocument = Writable<GameRecord>;
