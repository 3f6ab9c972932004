/**
 * The abuse benchmark (issue 13), `npm run bench:abuse [-- --seconds 20]`: a
 * well-behaved client plays a game over the real gateway (`npm start`'s
 * service, on SQLite, in a child process) while an abusive client, from one
 * address of its own (or, for the forks, waiting tables and imports, from
 * rotating addresses as a botnet would), runs one abuse after another at or
 * past the documented limits. Per abuse it prints the well-behaved client's latency (its moves
 * over the socket, and its lobby and view reads over HTTP) with its errors,
 * the abuser's answers by status, and how much the database grew
 * (`suitors_storage_bytes`); the run ends with one `summary:` line of
 * name=value pairs.
 *
 * The goal: the well-behaved client's p99 at most 100 ms under every abuse,
 * and never an error; the abuser only documented refusals. A figure, not a
 * test: a line says per abuse whether the goal was met, and the run exits 1
 * if any was not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { list, readFlags, wholeNumber } from '../../drivers/flags.js';
import { percentile } from '../../drivers/figures/latency.js';
import { startGatewayProcess, type GatewayProcess } from '../../drivers/gatewayProcess.js';
import { PlayerPool } from '../../drivers/players/playerPool.js';
import { sleep } from '../../drivers/polling.js';
import { Answers, LoopbackClient, PHASE_NAMES, PHASES, type AbuserResult, type AbuserState, type Phase } from './abusers.js';

const ABUSER_ENTRY = fileURLToPath(new URL('./abuser.ts', import.meta.url));

const { seconds: SECONDS, abuse: CHOSEN } = readFlags(
  { seconds: wholeNumber({ default: 20 }), abuse: list() },
  `npm run bench:abuse [-- --seconds S] [--abuse A ...]  (S: whole seconds per abuse, default 20; A: one of ${PHASES.join(', ')}, all by default)`,
);
const unknownAbuse = CHOSEN.find((name) => !(PHASES as readonly string[]).includes(name));
if (unknownAbuse !== undefined) {
  console.error(`--abuse must be one of ${PHASES.join(', ')}, not ${JSON.stringify(unknownAbuse)}`);
  process.exit(2);
}
/** Abuses that work on what an earlier one made: the tables it created, the long table it imported. */
const NEEDS: Partial<Record<Phase, Phase>> = {
  commandFlood: 'tableCreation',
  socketOpens: 'tableCreation',
  longReplays: 'largeImports',
  forkFlood: 'largeImports',
};
for (const name of CHOSEN) {
  const needed = NEEDS[name as Phase];
  if (needed !== undefined && !CHOSEN.includes(needed)) {
    console.error(`--abuse ${name} works on what ${needed} makes: name both`);
    process.exit(2);
  }
}
/** The abuses to run, in their usual order: a profile of one abuse need not sit through the others. */
const RUN: readonly Phase[] = CHOSEN.length === 0 ? PHASES : PHASES.filter((phase) => CHOSEN.includes(phase));
/** Requests the abuser has in flight at once. */
const WORKERS = 8;
const GOOD_ADDRESS = '127.1.0.1'; // PlayerPool's address for its table (clientAddresses 2)
const ABUSER_ADDRESS = '127.0.0.66';
/** Where /metrics is read from: neither client, so its reads count against neither's limits. */
const OPERATOR_ADDRESS = '127.2.0.1';
const METRICS_ATTEMPTS = 10;
const GOAL_P99_MS = 100;
/** What the abuser may be answered: successes up to the limits, and the documented refusals. */
const DOCUMENTED = new Set([
  '101',
  '200',
  '201',
  '400',
  '404',
  '409',
  '413',
  '422',
  '429',
  '503',
  'refused rateLimited',
  'refused notNow',
  'refused malformed',
  'closed 1008',
  'socket 429',
]);

const directory = mkdtempSync(join(tmpdir(), 'suitors-abuse-'));
let gateway: GatewayProcess | undefined;
let exitCode = 0;

/**
 * Runs each abuse in a process of its own, so the abuser's own work does not
 * slow the well-behaved client's measurements in this one. What one abuse
 * made (tables, an imported table) is handed to the next.
 */
function abuserProcess(port: number): (phase: Phase, seconds: number) => Promise<Answers> {
  let made: AbuserState = { tables: [], imported: null };
  return (phase, seconds) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', ABUSER_ENTRY], { stdio: ['pipe', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code !== 0) return reject(new Error(`the abuser of ${phase} ended with code ${code}: ${output}`));
        const result = JSON.parse(output.trim().split('\n').at(-1)!) as AbuserResult;
        made = result.state;
        const answers = new Answers();
        for (const [kind, count] of Object.entries(result.answers)) answers.byKind.set(kind, count);
        resolve(answers);
      });
      child.stdin.end(JSON.stringify({ phase, seconds, port, address: ABUSER_ADDRESS, workers: WORKERS, state: made }));
    });
}

/**
 * The database's size as the service's /metrics says (suitors_storage_bytes),
 * asked as an operator would, from an address of its own: right after an
 * abuse /metrics may be answered 503 (load shedding) or 429, which read as
 * NaN before, so it is asked again after the Retry-After, a few times.
 */
async function storageBytes(operator: LoopbackClient): Promise<number> {
  let last = '';
  for (let attempt = 0; attempt < METRICS_ATTEMPTS; attempt++) {
    const { status, body } = await operator.request('GET', '/metrics');
    const bytes = /^suitors_storage_bytes (\d+)/m.exec(body)?.[1];
    if (status === 200 && bytes !== undefined) return Number(bytes);
    last = status === 200 ? 'no suitors_storage_bytes line' : `${status} ${body.slice(0, 200)}`;
    console.log(`(/metrics answered ${last}; asked again in 1 s)`);
    await sleep(1_000);
  }
  throw new Error(`/metrics did not give the database's size in ${METRICS_ATTEMPTS} tries: ${last}`);
}

try {
  // Bots at npm start's delay: the tables the abuser forks play on as they would there.
  gateway = await startGatewayProcess({ embedded: { directory } }, { env: { SUITORS_BOT_DELAY_MS: '600' } });
  const { port } = gateway;
  console.log(
    `gateway pid ${gateway.pid} on ${gateway.baseUrl} (SQLite in ${directory}); ${SECONDS} s per abuse, the abuser at ${ABUSER_ADDRESS} with ${WORKERS} requests at once`,
  );
  // Tails measured on a machine others are using say as much about them as about the service: each line shows the load.
  console.log(`${cpus().length} cores; each line ends with the 1-minute load average`);

  // The well-behaved client: four seats of one table, a move 0.15-0.45 s after its turn comes, over WebSocket.
  const players = new PlayerPool({ game: 'sevenSuitors', tables: 1, clientAddresses: 2, thinkMs: 300, gatewayFor: () => port });
  if (
    (await players.setUp({ concurrency: 1, deadline: performance.now() + 30_000, progressMs: 60_000, onProgress: () => undefined })) !==
      1 ||
    players.counters.tablesSetUp !== 1
  ) {
    throw new Error(`the well-behaved client could not set its table up: ${players.counters.errorLines().join('; ')}`);
  }
  players.play();
  // Not measured: the service's first seconds (compiling, first reads of the file).
  await sleep(5_000);
  const reader = new LoopbackClient(port, GOOD_ADDRESS);
  const operator = new LoopbackClient(port, OPERATOR_ADDRESS);

  const abuse = abuserProcess(port);
  const rows: string[] = [];
  const summary: string[] = [];
  for (const phase of RUN) {
    players.counters.takeRecentLatencies();
    const errorsBefore = players.counters.errorCount();
    const reads: number[] = [];
    const readErrors = new Answers();
    const until = performance.now() + SECONDS * 1000;
    // The well-behaved client also reads the lobby and its table's view, ten times a second.
    const reading = (async () => {
      while (performance.now() < until) {
        for (const path of ['/api/tables?limit=20', `/api/tables/${players.slots[0].tableId}/view`]) {
          const started = performance.now();
          const answer = await reader.request('GET', path).catch((error: Error) => ({ status: `error ${error.message}`, body: '' }));
          reads.push(performance.now() - started);
          if (answer.status !== 200) readErrors.count(answer.status as number);
        }
        await sleep(100);
      }
    })();
    const bytesBefore = await storageBytes(operator);
    const answers = await abuse(phase, SECONDS);
    await reading;
    const grown = (await storageBytes(operator)) - bytesBefore;
    // A person's new table, as the abuse left the service: it must be made (a cap the abuse filled refuses it).
    const created = await reader.request('POST', '/api/tables', { body: '{"game":"sevenSuitors"}' });
    if (created.status !== 201) {
      readErrors.count(`new table ${created.status}`);
      console.log(`(a person's new table after ${phase}: ${created.status} ${created.body.slice(0, 300)})`);
    }
    const moves = players.counters.takeRecentLatencies();
    const all = [...moves, ...reads].sort((a, b) => a - b);
    const errors = players.counters.errorCount() - errorsBefore + [...readErrors.byKind.values()].reduce((sum, count) => sum + count, 0);
    const undocumented = [...answers.byKind.keys()].filter((kind) => !DOCUMENTED.has(kind));
    const p99 = percentile(all, 99);
    const met = p99 <= GOAL_P99_MS && errors === 0 && undocumented.length === 0;
    if (!met) exitCode = 1;
    const row =
      `${met ? '✓' : '✗'} ${PHASE_NAMES[phase].padEnd(24)} p50 ${percentile(all, 50).toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  ` +
      `max ${all[all.length - 1].toFixed(0).padStart(5)} ms  (${moves.length} moves, ${reads.length} reads)  errors ${errors}` +
      `${readErrors.byKind.size > 0 ? ` (reads: ${readErrors})` : ''}  load ${loadavg()[0].toFixed(1)}  store +${(grown / 2 ** 20).toFixed(1)} MiB | abuser: ${answers}` +
      `${undocumented.length > 0 ? `  UNDOCUMENTED: ${undocumented.join(', ')}` : ''}`;
    rows.push(row);
    const abuserOk = answers.byKind.get('201') ?? answers.byKind.get('200') ?? 0;
    summary.push(
      `${phase}_p50_ms=${percentile(all, 50).toFixed(1)} ${phase}_p99_ms=${p99.toFixed(1)} ${phase}_errors=${errors} ` +
        `${phase}_abuser_served=${abuserOk} ${phase}_store_mib=${(grown / 2 ** 20).toFixed(1)}`,
    );
    console.log(row);
  }
  if (players.counters.errorCount() > 0) console.log(`well-behaved client's errors: ${players.counters.errorLines().join('; ')}`);
  console.log(
    `\ngoal: the well-behaved client's p99 <= ${GOAL_P99_MS} ms and no error under every abuse; the abuser answered only ${[...DOCUMENTED].join(', ')}`,
  );
  console.log(rows.join('\n'));
  console.log(`summary: ${summary.join(' ')} goal_met=${exitCode === 0 ? 1 : 0} load1=${loadavg()[0].toFixed(2)}`);
  await players.close();
  reader.close();
  operator.close();
} catch (error) {
  console.error('the abuse benchmark failed:', error);
  exitCode = 1;
} finally {
  if (gateway !== undefined) {
    if (gateway.complaints.length > 0)
      console.log(`the service logged ${gateway.complaints.length} warnings, e.g. ${gateway.complaints[0].slice(0, 300)}`);
    console.log(`gateway process ${gateway.pid}: ${await gateway.stop()}`);
  }
  rmSync(directory, { recursive: true, force: true });
}
process.exit(exitCode);
