/**
 * Gateway load benchmark (npm run bench:gateway): the real service
 * (services/main.ts) in a child process, and BENCH_TABLES (1000) tables of
 * client-side bots (drivers/players/) playing it over WebSocket, one socket
 * per seat, each seat with its own HTTP-issued token. No server-side bots: every move is a
 * player's socket command. Prints accepted moves/s, move latency (send to
 * the `accepted` reply), errors by kind, the gateway's memory and sockets
 * (per table too), its event-loop lag at its worst while tables were set up
 * and while they played, and an HTTP probe's latency (a table's view, ten
 * times a second from an address of its own); a progress line every 10 s.
 *
 * Environment (or the flag after it, which wins: `npm run bench:gateway --
 * --tables 10`; drivers/flags.ts):
 * - BENCH_TABLES (--tables, 1000), BENCH_SECONDS (--seconds, 60),
 *   BENCH_GAME (--game, sevenSuitors);
 * - BENCH_THINK_MS (--think-ms, 0: a seat moves as soon as it is awaited;
 *   more models players who take about that long, 0.5 to 1.5 times, to
 *   choose);
 * - BENCH_CLIENT_ADDRESSES (--client-addresses, one per table; 1 =
 *   127.0.0.1 only);
 * - BENCH_SETUP_CONCURRENCY (--setup-concurrency, 32 tables set up at a
 *   time), BENCH_SETUP_SECONDS (--setup-seconds, 300: tables not set up by
 *   then are left out);
 * - BENCH_GATEWAY_NODE_ARGS (extra node flags for the service alone, e.g.
 *   "--cpu-prof --cpu-prof-dir=/tmp/prof");
 * - BENCH_VIEWS (--views, changes): how the sockets ask for views
 *   (docs/api.md, `views=`): each version as what changed, as the web
 *   client does, or whole;
 * - BENCH_FLEET (--fleet, off): on asks for the fleet overlay once the
 *   tables are set up, so its projection folds every move while they play
 *   (its cost is the CPU per move with it on over a run with it off).
 *
 * - BENCH_ALLOCATION_SITES (--allocation-sites, 0): more than 0 samples
 *   the gateway's allocations while it plays (V8's sampling heap
 *   profiler, collected objects included) and prints that many of the
 *   functions that allocate most, in bytes per move; with
 *   BENCH_ALLOCATION_PROFILE=<file> the whole sampled profile is written
 *   there too (Chrome DevTools opens it as a .heapprofile).
 *
 * Memory is also measured after a full garbage collection (the service runs
 * with --inspect on a loopback port for it, gatewayHeap.ts): at the start,
 * once the tables are set up and at the end of play, with what a table adds
 * to the heap and to RSS over the service with no table.
 *
 * The bots play as fast as the gateway answers (a closed loop: each table
 * waits for its move's reply before the next), so with the gateway
 * saturated the latency is mostly queueing: about tables / (moves/s).
 *
 * Client addresses: the gateway allows each client address 30 requests a
 * second (bursts of 120), and a table takes 9 requests to set up (create, 4
 * seats, 4 socket upgrades), so from one address 1,000 tables would take 5
 * minutes to set up. Players have their own addresses, so by default each
 * table's players use their own loopback address (127.1.y.z, still the
 * loopback interface, Linux routes all of 127/8 there). The benchmark paces
 * itself under every limit of docs/api.md: HTTP per address, and 5
 * messages a second (bursts of 20) per socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { number, readFlags, text, wholeNumber } from '../drivers/flags.js';
import { latencySummary, megabytes, percentile } from '../drivers/figures/latency.js';
import { getText, histogramPercentile, metricValue, parseMetrics, type Sample } from '../drivers/figures/metrics.js';
import { HttpProbe } from '../drivers/figures/httpProbe.js';
import { cpuSeconds, mainThreadCpuSeconds, procStatus } from '../drivers/figures/processStatus.js';
import { startGatewayProcess, type GatewayProcess } from '../drivers/gatewayProcess.js';
import { openFilesLimit, tablesWithinOpenFiles } from '../drivers/players/openFiles.js';
import { SOCKET_PACE } from '../drivers/players/pace.js';
import { PlayerPool, REPLY_TIMEOUT_MS } from '../drivers/players/playerPool.js';
import { GAME_NAMES, GAMES } from '../machines/table/options.js';
import { floorComparison, type ServiceFigures } from './floor/floorComparison.js';
import { runFloor } from './floor/floorRun.js';
import { connectGatewayHeap, inspectorFlag, type AfterGc, type AllocationSite, type GatewayHeap } from './gatewayHeap.js';

const SETTINGS = readFlags(
  {
    tables: wholeNumber({ env: 'BENCH_TABLES', default: 1000 }),
    seconds: number({ env: 'BENCH_SECONDS', default: 60 }),
    game: text({ env: 'BENCH_GAME', default: 'sevenSuitors', choices: GAME_NAMES }),
    'think-ms': number({ env: 'BENCH_THINK_MS', default: 0, zero: true }),
    'client-addresses': wholeNumber({ env: 'BENCH_CLIENT_ADDRESSES' }),
    'setup-concurrency': wholeNumber({ env: 'BENCH_SETUP_CONCURRENCY', default: 32 }),
    'setup-seconds': number({ env: 'BENCH_SETUP_SECONDS', default: 300 }),
    views: text({ env: 'BENCH_VIEWS', default: 'changes', choices: ['changes', 'whole'] as const }),
    fleet: text({ env: 'BENCH_FLEET', default: 'off', choices: ['off', 'on'] as const }),
    'allocation-sites': wholeNumber({ env: 'BENCH_ALLOCATION_SITES', default: 0, zero: true }),
  },
  'npm run bench:gateway [-- --tables N --seconds S --game G --think-ms T --client-addresses A --setup-concurrency C --setup-seconds S --views changes|whole --fleet off|on --allocation-sites N]',
);
const GAME = SETTINGS.game;
const SEATS = GAMES[GAME].seats;
let TABLES = SETTINGS.tables;
const SECONDS = SETTINGS.seconds;
const SETUP_CONCURRENCY = SETTINGS['setup-concurrency'];
const SETUP_SECONDS = SETTINGS['setup-seconds'];
const THINK_MS = SETTINGS['think-ms'];
const PROGRESS_MS = 10_000;
const WARMUP_MS = Math.min(10_000, (SECONDS * 1000) / 3);

// --- the open-files limit: each process holds one descriptor per socket ---
const fdLimit = openFilesLimit();
TABLES = tablesWithinOpenFiles(TABLES, SEATS, (line) => console.log(line));
const ADDRESSES = Math.min(SETTINGS['client-addresses'] ?? TABLES, TABLES);

let gateway!: GatewayProcess;
let heap: GatewayHeap | undefined;
const players = new PlayerPool({
  game: GAME,
  tables: TABLES,
  clientAddresses: ADDRESSES,
  thinkMs: THINK_MS,
  views: SETTINGS.views,
  gatewayFor: () => gateway.port,
});
const counters = players.counters;

// --- figures ---
async function scrapeMetrics(): Promise<Sample[] | null> {
  try {
    const { status, body } = await getText(`${gateway.baseUrl}/metrics`);
    return status === 200 ? parseMetrics(body) : null;
  } catch {
    return null;
  }
}

/** The gateway's longest event-loop lag since the last scrape (prom-client resets it when read), in ms; null without figures. */
async function lagMaxSinceLastScrape(): Promise<number | null> {
  const samples = await scrapeMetrics();
  const lagMax = samples === null ? null : metricValue(samples, 'nodejs_eventloop_lag_max_seconds');
  return lagMax === null ? null : lagMax * 1000;
}

function rssNow(): string {
  const status = procStatus(gateway.pid);
  return status === null ? 'n/a' : megabytes(status.rss);
}

function afterGcLine({ heapUsed, rss }: AfterGc): string {
  return `heap used ${megabytes(heapUsed)}, RSS ${megabytes(rss)}`;
}

/** What each table adds over the service with none, and RSS over all tables as the issue first measured it. */
function perTableLine(empty: AfterGc, now: AfterGc, tables: number): string {
  const kb = (bytes: number) => `${(bytes / tables / 1024).toFixed(0)} KB`;
  return `per table (${tables}, ${SEATS} sockets each): heap ${kb(now.heapUsed - empty.heapUsed)} and RSS ${kb(now.rss - empty.rss)} over the service with none; RSS / tables ${kb(now.rss)}`;
}

function signedMegabytes(bytes: number): string {
  return `${bytes < 0 ? '-' : '+'}${megabytes(Math.abs(bytes))}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

// --- the run ---
const directory = mkdtempSync(join(tmpdir(), 'suitors-gateway-bench-'));
let interrupted = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (interrupted) return;
  interrupted = true;
  console.log(`\n${signal}: stopping early`);
  players.stopping = true;
  wakeEnd();
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
let wakeEnd: () => void = () => undefined;

console.log(
  `gateway benchmark: ${TABLES} concurrent ${GAMES[GAME].title} tables × ${SEATS} seats = ${TABLES * SEATS} WebSockets of client-side bots, ` +
    `one gateway process (SQLite in ${directory}), ${SECONDS}s${THINK_MS > 0 ? `, ${THINK_MS} ms think time per move` : ''}, views sent ${SETTINGS.views === 'changes' ? 'as changes' : 'whole'}; open-files limit ${fdLimit ?? 'unknown'}; ` +
    `client addresses: ${ADDRESSES === 1 ? '127.0.0.1 only' : `${ADDRESSES} loopback addresses (127.1.y.z), one per table`}`,
);

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
let exitCode = 0;
let service: ServiceFigures | undefined;
try {
  const inspector = await inspectorFlag();
  // gatewayProcess.ts passes BENCH_GATEWAY_NODE_ARGS to the service alone.
  process.env.BENCH_GATEWAY_NODE_ARGS = `${process.env.BENCH_GATEWAY_NODE_ARGS ?? ''} ${inspector.flag}`;
  gateway = await startGatewayProcess({ embedded: { directory } });
  heap = await connectGatewayHeap(inspector.port);
  gateway.child.on('exit', (code, signal) => {
    if (players.stopping) return;
    counters.countError('the gateway process ended during the run', `code ${code}, signal ${signal}`);
    players.stopping = true;
    wakeEnd();
  });
  const atStart = await heap.afterGc(gateway.pid);
  console.log(`gateway pid ${gateway.pid} on ${gateway.baseUrl}, RSS ${rssNow()} at start; after a full GC ${afterGcLine(atStart)}`);

  // Set up every table (bounded: workers stop taking tables after BENCH_SETUP_SECONDS).
  const setupStarted = performance.now();
  await lagMaxSinceLastScrape();
  let setupLagMax = 0;
  const tried = await players.setUp({
    concurrency: SETUP_CONCURRENCY,
    deadline: setupStarted + SETUP_SECONDS * 1000,
    progressMs: PROGRESS_MS,
    onProgress: () => {
      const line = `[setup ${seconds(performance.now() - setupStarted)}] ${counters.tablesSetUp}/${TABLES} tables, ${players.openSockets()} sockets open, errors ${counters.errorCount()}, gateway RSS ${rssNow()}`;
      void lagMaxSinceLastScrape().then((lag) => {
        if (lag !== null) setupLagMax = Math.max(setupLagMax, lag);
        console.log(line + (lag === null ? '' : `, its event-loop lag max ${lag.toFixed(0)} ms`));
      });
    },
  });
  setupLagMax = Math.max(setupLagMax, (await lagMaxSinceLastScrape()) ?? 0);
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  if (tried < TABLES && !players.stopping)
    counters.countError('tables left out: setup ran past BENCH_SETUP_SECONDS', `${TABLES - tried} tables`);
  const rssAfterSetup = procStatus(gateway.pid);
  console.log(
    `set up ${counters.tablesSetUp}/${TABLES} tables and ${players.openSockets()} sockets in ${setupSeconds.toFixed(1)}s; gateway RSS ${rssAfterSetup === null ? 'n/a' : megabytes(rssAfterSetup.rss)}; errors so far ${counters.errorCount()}`,
  );
  const afterSetup = await heap.afterGc(gateway.pid);
  console.log(`  after a full GC: ${afterGcLine(afterSetup)}; ${perTableLine(atStart, afterSetup, counters.tablesSetUp)}`);

  // The fleet overlay (GET /api/fleet) folds every table's events once it is first asked for: on, it runs all play.
  if (SETTINGS.fleet === 'on') {
    const { status } = await getText(`${gateway.baseUrl}/api/fleet`);
    if (status !== 200) counters.countError('GET /api/fleet failed', `http ${status}`);
  }

  // Play.
  const metricsBefore = await scrapeMetrics();
  // The gateway's own command durations after the warm-up too, to tell its share of the players' latency.
  let metricsAtSteady: Sample[] | null = null;
  const steadyScrape = setTimeout(() => void scrapeMetrics().then((samples) => (metricsAtSteady = samples)), WARMUP_MS);
  const gatewayCpuBefore = cpuSeconds(gateway.pid);
  const mainThreadCpuBefore = mainThreadCpuSeconds(gateway.pid);
  const clientCpuBefore = process.cpuUsage();
  await heap.startCountingAllocations();
  const allocationSites = SETTINGS['allocation-sites'];
  if (allocationSites > 0) await heap.startSamplingAllocations();
  loopDelay.enable();
  const started = performance.now();
  const runEndsAt = started + SECONDS * 1000;
  players.replaceUntil = runEndsAt;
  players.steadyFrom = started + WARMUP_MS;
  players.play();
  const probe = new HttpProbe(
    () => players.slots.filter((slot) => slot.tableId !== '').map((slot) => `${gateway.baseUrl}/api/tables/${slot.tableId}/view`),
    100,
    started + WARMUP_MS,
  );
  probe.start();
  let playLagMax = 0;

  let lastTick = started;
  let acceptedAtTick = 0;
  const viewsAtStart = counters.viewsReceived;
  const viewBytesAtStart = counters.viewBytes;
  let viewsAtTick = counters.viewsReceived;
  let viewBytesAtTick = counters.viewBytes;
  const progress = setInterval(() => {
    const now = performance.now();
    const rate = (counters.accepted - acceptedAtTick) / ((now - lastTick) / 1000);
    lastTick = now;
    acceptedAtTick = counters.accepted;
    const viewKb =
      counters.viewsReceived === viewsAtTick ? 0 : (counters.viewBytes - viewBytesAtTick) / (counters.viewsReceived - viewsAtTick) / 1024;
    viewsAtTick = counters.viewsReceived;
    viewBytesAtTick = counters.viewBytes;
    const sorted = counters.latencies.slice().sort((a, b) => a - b);
    const line =
      `[${seconds(now - started)}] ${rate.toFixed(0)} moves/s, p99 so far ${percentile(sorted, 99).toFixed(1)} ms, errors ${counters.errorCount()}, ` +
      `gateway RSS ${rssNow()}, ${players.openSockets()} sockets, games finished ${counters.gamesFinished}, views ${viewKb.toFixed(1)} KB`;
    // The gateway's heap and event-loop lag since the last scrape (prom-client resets the lag histogram when read).
    void scrapeMetrics().then((samples) => {
      const heap = samples === null ? null : metricValue(samples, 'nodejs_heap_size_used_bytes');
      const lagP99 = samples === null ? null : metricValue(samples, 'nodejs_eventloop_lag_p99_seconds');
      const lagMax = samples === null ? null : metricValue(samples, 'nodejs_eventloop_lag_max_seconds');
      if (lagMax !== null) playLagMax = Math.max(playLagMax, lagMax * 1000);
      console.log(
        line +
          (heap === null ? '' : `; gateway heap ${megabytes(heap)}`) +
          (lagP99 === null || lagMax === null || lagMax === 0
            ? ''
            : `, its event-loop lag p99 ${(lagP99 * 1000).toFixed(0)} ms, max ${(lagMax * 1000).toFixed(0)} ms`),
      );
    });
  }, PROGRESS_MS);
  const watchdog = players.watchLateReplies();
  await new Promise<void>((resolve) => {
    wakeEnd = resolve;
    setTimeout(resolve, Math.max(0, runEndsAt - performance.now()));
  });
  players.stopping = true;
  await probe.stop();
  const ended = performance.now();
  const acceptedInRun = counters.accepted;
  const elapsed = (ended - started) / 1000;
  clearInterval(progress);
  const gatewayCpuAfter = cpuSeconds(gateway.pid);
  const mainThreadCpuAfter = mainThreadCpuSeconds(gateway.pid);
  const allocated = await heap.allocatedBytes();
  const sampledSites = allocationSites > 0 ? await heap.sampledAllocations() : { bySite: [], byOwnCaller: [] };
  const clientCpu = process.cpuUsage(clientCpuBefore);
  loopDelay.disable();

  // The last replies (bounded), then the figures while every socket is still open.
  await players.drain(5_000);
  clearInterval(watchdog);
  const unanswered = players.pendingCommands();
  if (unanswered > 0) counters.countError('commands unanswered 5 s after the run', `${unanswered} commands`);
  const stalled = players.stalledTables(REPLY_TIMEOUT_MS).length;
  const metricsAfter = gateway.exited === null ? await scrapeMetrics() : null;
  const rss = procStatus(gateway.pid);
  const atEnd = gateway.exited === null ? await heap.afterGc(gateway.pid) : null;
  const clientSockets = players.openSockets();

  console.log('');
  console.log(
    `accepted moves: ${acceptedInRun} in ${elapsed.toFixed(1)}s = ${(acceptedInRun / elapsed).toFixed(0)} moves/s (${counters.commandsSent} commands sent, ${counters.accepted} accepted with the last replies; ` +
      `${counters.gamesFinished} games finished, ${counters.tablesReplaced} new tables set up in their place)`,
  );
  console.log(
    `move latency, socket send to 'accepted': ${latencySummary(counters.latencies)} (max ${counters.latencies.reduce((most, value) => Math.max(most, value), 0).toFixed(1)} ms, ${counters.latencies.length} samples)`,
  );
  console.log(
    `  after the first ${(WARMUP_MS / 1000).toFixed(0)} s (every table's first moves go out at once): ${latencySummary(counters.steadyLatencies)} (${counters.steadyLatencies.length} samples)`,
  );
  if (metricsBefore !== null && metricsAfter !== null) {
    const where = { source: 'player' };
    const p50 = histogramPercentile(metricsBefore, metricsAfter, 'suitors_command_duration_seconds', where, 50);
    const p99 = histogramPercentile(metricsBefore, metricsAfter, 'suitors_command_duration_seconds', where, 99);
    const serverAccepted =
      (metricValue(metricsAfter, 'suitors_commands_total', { source: 'player', outcome: 'accepted' }) ?? 0) -
      (metricValue(metricsBefore, 'suitors_commands_total', { source: 'player', outcome: 'accepted' }) ?? 0) -
      counters.joinsWhilePlaying;
    console.log(
      `  the gateway's own count: ${serverAccepted} moves accepted; its command duration (histogram buckets): p50 ${p50 ?? 'n/a'}, p99 ${p99 ?? 'n/a'}`,
    );
    if (metricsAtSteady !== null) {
      const percentile = (q: number) => histogramPercentile(metricsAtSteady!, metricsAfter, 'suitors_command_duration_seconds', where, q);
      console.log(`    after the first ${(WARMUP_MS / 1000).toFixed(0)} s: p50 ${percentile(50) ?? 'n/a'}, p99 ${percentile(99) ?? 'n/a'}`);
    }
  }
  clearTimeout(steadyScrape);
  if (sampledSites.bySite.length > 0 && acceptedInRun > 0) {
    const sampled = sampledSites.bySite.reduce((sum, { bytes }) => sum + bytes, 0);
    const print = (heading: string, sites: AllocationSite[]) => {
      console.log(heading);
      for (const { site, bytes } of sites.slice(0, allocationSites))
        console.log(`  ${(bytes / acceptedInRun).toFixed(0).padStart(7)} B/move  ${site}`);
    };
    print(
      `allocation by allocating function (sampled, ${(sampled / acceptedInRun / 1024).toFixed(1)} KB a move in all):`,
      sampledSites.bySite,
    );
    print('the same by the nearest function of ours on the stack:', sampledSites.byOwnCaller);
  }
  const total = counters.errorCount();
  console.log(`errors: ${total}${total === 0 ? '' : ':'}`);
  for (const line of counters.errorLines()) console.log(`  ${line}`);
  console.log(
    `rate limits: ${counters.rateLimitRefusals} 429/rateLimited refusals, ${counters.floodCloses} flood closes (1008); ` +
      `${counters.pacedSends} socket sends held back by the benchmark's own pace (${SOCKET_PACE.perSecond}/s, bursts of ${SOCKET_PACE.burst}; the gateway allows 5/s, 20)`,
  );
  if (counters.lateReplies > 0)
    console.log(`late: ${counters.lateReplies} commands waited more than ${REPLY_TIMEOUT_MS / 1000} s for their reply`);
  if (stalled > 0) console.log(`stalled: ${stalled} tables in play had no accepted move in the last ${REPLY_TIMEOUT_MS / 1000} s`);
  const heapUsed = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_heap_size_used_bytes');
  const heapTotal = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_heap_size_total_bytes');
  console.log(
    `gateway memory: RSS ${rss === null ? 'n/a' : `${megabytes(rss.rss)} (peak ${megabytes(rss.peakRss)})`}` +
      (heapUsed === null
        ? ' (no heap figures: /metrics has no process metrics)'
        : `, heap used ${megabytes(heapUsed)} of ${megabytes(heapTotal ?? NaN)}`) +
      (rssAfterSetup === null ? '' : `; RSS after setup, before play: ${megabytes(rssAfterSetup.rss)}`),
  );
  if (counters.tablesSetUp > 0 && rss !== null) {
    console.log(
      `gateway memory per table (${counters.tablesSetUp} tables, ${SEATS} sockets each): RSS ${(rss.rss / counters.tablesSetUp / 1024).toFixed(0)} KB` +
        (heapUsed === null ? '' : `, heap used ${(heapUsed / counters.tablesSetUp / 1024).toFixed(0)} KB`),
    );
  }
  if (atEnd !== null && counters.tablesSetUp > 0) {
    console.log(
      `gateway memory after a full GC at the end of play: ${afterGcLine(atEnd)}; ${perTableLine(atStart, atEnd, counters.tablesSetUp)}`,
    );
    console.log(
      `  after set-up it was ${afterGcLine(afterSetup)}: over the play, heap ${signedMegabytes(atEnd.heapUsed - afterSetup.heapUsed)}, RSS ${signedMegabytes(atEnd.rss - afterSetup.rss)}`,
    );
  }
  console.log(
    `gateway event-loop lag, max: ${setupLagMax.toFixed(0)} ms while tables were set up, ${playLagMax.toFixed(0)} ms while they played`,
  );
  console.log(
    `HTTP probe (GET a table's view, 10/s from 127.0.0.1, after the first ${(WARMUP_MS / 1000).toFixed(0)} s): ${latencySummary(probe.latencies)}` +
      ` (max ${probe.latencies.reduce((most, value) => Math.max(most, value), 0).toFixed(1)} ms, ${probe.latencies.length} answered, ${probe.failures} failed)`,
  );
  console.log(
    `  of which connecting (a new connection each): ${latencySummary(probe.connectLatencies)} (max ${Math.max(0, ...probe.connectLatencies).toFixed(1)} ms); ` +
      `connected to answered: ${latencySummary(probe.answerLatencies)} (max ${Math.max(0, ...probe.answerLatencies).toFixed(1)} ms)`,
  );
  const serverSockets = metricsAfter === null ? null : metricValue(metricsAfter, 'suitors_sockets_connected', { role: 'seat' });
  const resident = metricsAfter === null ? null : metricValue(metricsAfter, 'suitors_tables_resident');
  console.log(
    `connected sockets: ${clientSockets} open in the benchmark, ${serverSockets ?? 'n/a'} seat sockets by the gateway's metric; ${resident ?? 'n/a'} tables resident`,
  );
  const lag = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_eventloop_lag_p99_seconds');
  const lagMax = metricsAfter === null ? null : metricValue(metricsAfter, 'nodejs_eventloop_lag_max_seconds');
  if (lagMax !== null) playLagMax = Math.max(playLagMax, lagMax * 1000);
  const views = counters.viewsReceived - viewsAtStart;
  if (gatewayCpuBefore !== null && gatewayCpuAfter !== null && acceptedInRun > 0)
    service = {
      moves: acceptedInRun,
      cpuMicrosPerMove: ((gatewayCpuAfter - gatewayCpuBefore) / acceptedInRun) * 1e6,
      allocatedBytesPerMove: allocated / acceptedInRun,
      viewBytes: views === 0 ? 400 : (counters.viewBytes - viewBytesAtStart) / views,
      latenciesMs: counters.steadyLatencies,
    };
  console.log(
    `CPU during play: gateway ${
      gatewayCpuBefore === null || gatewayCpuAfter === null
        ? 'n/a'
        : // CPU time per move hardly moves with other load on the machine's cores, unlike moves/s.
          `${(((gatewayCpuAfter - gatewayCpuBefore) / elapsed) * 100).toFixed(0)}%, ${acceptedInRun === 0 ? 'n/a' : (((gatewayCpuAfter - gatewayCpuBefore) / acceptedInRun) * 1e6).toFixed(0)} µs a move`
    }` +
      (mainThreadCpuBefore === null || mainThreadCpuAfter === null || acceptedInRun === 0
        ? ''
        : // The event loop is what a player waits on; the SQLite writer thread and V8's GC helpers run beside it.
          ` (its main thread ${(((mainThreadCpuAfter - mainThreadCpuBefore) / elapsed) * 100).toFixed(0)}%, ${(((mainThreadCpuAfter - mainThreadCpuBefore) / acceptedInRun) * 1e6).toFixed(0)} µs a move)`) +
      `${lag === null || !lagMax ? '' : ` (event-loop lag p99 ${(lag * 1000).toFixed(1)} ms, max ${((lagMax ?? NaN) * 1000).toFixed(1)} ms, since the last progress line)`}, ` +
      `benchmark ${(((clientCpu.user + clientCpu.system) / 1e6 / elapsed) * 100).toFixed(0)}% (event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms) — 100% = one core`,
  );
  console.log(
    `views received while playing: ${views} (${(views / elapsed).toFixed(0)}/s, ${views === 0 ? 0 : ((counters.viewBytes - viewBytesAtStart) / views / 1024).toFixed(1)} KB each on average)`,
  );
  if (counters.emfile > 0)
    console.log(
      `EMFILE: ${counters.emfile} times the process ran out of file descriptors; raise the limit (ulimit -n, now ${fdLimit}) or lower BENCH_TABLES`,
    );
  // The inspector's own lines (this benchmark attaching to measure memory) are no complaint of the service's.
  const complaints = gateway.complaints.filter((line) => !/^Debugger (attached|listening)|^For help, see/.test(line));
  if (complaints.length > 0) {
    console.log(`the gateway logged ${complaints.length} lines at warn or above; the first:`);
    for (const line of complaints.slice(0, 10)) console.log(`  ${line}`);
  }
  if (total > 0) exitCode = 1;
} catch (error) {
  console.error('the benchmark failed:', error);
  exitCode = 1;
} finally {
  heap?.close();
  await players.close();
  if (gateway !== undefined) console.log(`gateway process ${gateway.pid}: ${await gateway.stop()}`);
  rmSync(directory, { recursive: true, force: true });
}
if (service !== undefined && !interrupted) {
  // The floor plays after the service has stopped, so neither shares the cores with the other.
  console.log('');
  // As many tables as the service had set up, so that both wake as often for a move.
  const tables = counters.tablesSetUp;
  const floor = await runFloor({ tables, seats: SEATS, seconds: SECONDS, thinkMs: THINK_MS, frameBytes: service.viewBytes });
  for (const line of floorComparison(service, floor, { tables, seats: SEATS, thinkMs: THINK_MS, fleet: SETTINGS.fleet })) console.log(line);
}
process.exit(exitCode);
