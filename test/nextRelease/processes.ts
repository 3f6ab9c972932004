/**
 * Processes of the next release, for tests: Node's `--import` of the hooks
 * that make one (register.mjs), and logs folded by one (foldLogs.ts).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { text } from 'node:stream/consumers';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';

export const NEXT_RELEASE_ARGS: readonly string[] = ['--import', fileURLToPath(new URL('./register.mjs', import.meta.url))];

export type FoldedTable =
  | { readonly rules: number; readonly phase: string; readonly scores: readonly number[]; readonly finished: boolean }
  | { readonly error: string };

/** Each log folded by a process of the next release: where its table stands, or why the log does not fold. */
export async function foldUnderNextRelease(logs: Readonly<Record<string, readonly StoredEvent[]>>): Promise<Record<string, FoldedTable>> {
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const child = spawn(process.execPath, [...NEXT_RELEASE_ARGS, '--import', tsx, fileURLToPath(new URL('./foldLogs.ts', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(JSON.stringify(logs));
  const [out, err, code] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    new Promise((resolve) => child.once('exit', resolve)),
  ]);
  if (code !== 0) throw new Error(`folding logs as the next release failed (${code}):\n${err}`);
  return JSON.parse(out) as Record<string, FoldedTable>;
}
