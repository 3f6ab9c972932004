/**
 * `npm start` with SUITORS_TRACING=stdout, as an operator turns it on: the
 * real process prints the spans of a player's command, the gateway's and
 * the host's under it, named for the embedded service, once it is stopped
 * (SIGTERM sends what it still holds).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { SPAN_NAMES } from './commandSpans.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response.json();
}

describe('SUITORS_TRACING=stdout on the embedded service', () => {
  it("prints the spans of a player's command, the gateway's and the host's, when it stops", async () => {
    const child = spawn(process.execPath, ['--import', tsx, 'services/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        SUITORS_STORAGE: 'memory',
        SUITORS_BOT_DELAY_MS: '0',
        LOG_LEVEL: 'silent',
        // No load shedding: a loaded test machine stalls a process just started, and a 503 is not what this tests.
        SUITORS_SHED_LAG_MS: '600000',
        SUITORS_TRACING: 'stdout',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const base = await waitFor(() => /service on (http:\/\/\S+)/.exec(printed)?.[1], 'the service to listen', { timeoutMs: 30_000 });
      const { tableId } = await post(`${base}/api/tables`, { game: 'sevenSuitors', bots: [1, 2, 3] });
      const { token } = await post(`${base}/api/tables/${tableId}/seats/0`, { name: 'Ann' });
      const { view } = await (await fetch(`${base}/api/tables/${tableId}/view`, { headers: bearer(token) })).json();
      const passes = [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] }));
      await post(`${base}/api/tables/${tableId}/commands`, { type: 'cards.passed', passes }, bearer(token));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).toBe(0);
    expect(printed).toContain("'service.name': 'suitors-embedded'");
    for (const name of [SPAN_NAMES.gatewayCommand, SPAN_NAMES.queue, SPAN_NAMES.step, SPAN_NAMES.append])
      expect(printed).toContain(`name: '${name}'`);
    expect(printed).toContain("'suitors.command_type': 'cards.passed'");
  });
});
