/**
 * The chaos run (`npm run chaos [-- --minutes 5 --tables 500]`): a soak of
 * the distributed service — 3 nats-server, 2 table workers, 2 gateways on
 * loopback — during which, every --every-seconds (15), one fault in turn
 * (hardening/chaos/faults.ts): a random worker is SIGKILLed and a
 * replacement started; a nats-server node is stopped and started again on
 * its ports and files; a gateway is SIGKILLed and started again, its
 * players reconnecting (every seat of a table together) to a gateway that is
 * up, with their tokens and `after=<version>`.
 *
 * Every table has a bot the service plays (--bots, seats, default 1) and a
 * seat taken by a person who never moves (--absent, default 3), which the
 * turn clock (--turn-seconds, 5) plays: the tables' owners (the workers)
 * move for both, through every fault. The players play the other seats.
 *
 * The players keep every command acknowledged to them (table, seat,
 * version of the `accepted` reply). At the end every table's log is read
 * from JetStream and audited (tableAudit.ts): it replays, its cards are
 * conserved, its record verifies, and it holds every acknowledged command;
 * and it is read for stalls on the service's own moves (stalls.ts): a bot
 * move or a timeout that came later than the lease TTL after it was due is
 * a stuck table. The workers' logs say which of their own moves were
 * refused: a bot move refused for a version conflict is a duplicate (a
 * second owner's move). Prints the counts; exit 1 on any lost command,
 * failed audit, stuck table, duplicate or refused bot move.
 *
 * Options: --game (sevenSuitors), --think-ms (0), --every-seconds (15),
 * --faults (worker,nats,gateway: the kinds to rotate through),
 * --bots (1), --absent (3), --turn-seconds (5), --worker-logs <folder>
 * (where to write each worker's log at the end).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tablesWithinOpenFiles } from '../../drivers/players/openFiles.js';
import type { AcknowledgedCommand } from '../../drivers/players/playerPool.js';
import { GAME_NAMES_IN_WORDS, GAMES, isGameName } from '../../machines/table/options.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { readTableLog } from '../../services/host/replay.js';
import { SoakRun, stopEarlyOnSignal } from '../soak/soakRun.js';
import { Faults, type FaultKind } from './faults.js';
import { auditTable, type TableAudit } from './tableAudit.js';
import { stallsOf, type StallReport } from './stalls.js';
import { positiveFlag } from '../../drivers/flags.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    tables: { type: 'string', default: '500' },
    game: { type: 'string', default: 'sevenSuitors' },
    'think-ms': { type: 'string', default: '0' },
    'every-seconds': { type: 'string', default: '15' },
    faults: { type: 'string', default: 'worker,nats,gateway' },
    bots: { type: 'string', default: '1' },
    absent: { type: 'string', default: '3' },
    'turn-seconds': { type: 'string', default: '5' },
    'worker-logs': { type: 'string' },
  },
});

const game = values.game!;
if (!isGameName(game)) throw new Error(`--game must be ${GAME_NAMES_IN_WORDS}, not ${JSON.stringify(game)}`);
const minutes = positiveFlag('minutes', values.minutes);
const everyMs = positiveFlag('every-seconds', values['every-seconds']) * 1000;
const FAULT_NAMES: Record<string, FaultKind> = { worker: 'worker kill', nats: 'NATS node restart', gateway: 'gateway drop' };
const faultKinds = (values.faults ?? '').split(',').map((name) => {
  const kind = FAULT_NAMES[name];
  if (kind === undefined) throw new Error(`--faults: worker, nats or gateway, comma-separated, not ${JSON.stringify(name)}`);
  return kind;
});
const thinkMs = positiveFlag('think-ms', values['think-ms'], { zero: true });
const seatsFlag = (name: 'bots' | 'absent'): number[] =>
  (values[name] ?? '')
    .split(',')
    .filter((part) => part !== '')
    .map((part) => {
      const seat = positiveFlag(name, part, { whole: true, zero: true });
      if (seat >= GAMES[game].seats)
        throw new Error(`--${name}: ${GAMES[game].title} has seats 0 to ${GAMES[game].seats - 1}, not ${seat}`);
      return seat;
    });
const serverSide = {
  bots: seatsFlag('bots'),
  absent: seatsFlag('absent'),
  turnSeconds: positiveFlag('turn-seconds', values['turn-seconds'], { whole: true }),
};
const tables = tablesWithinOpenFiles(positiveFlag('tables', values.tables, { whole: true }), GAMES[game].seats, (line) =>
  console.log(line),
);
/** Faults stop this long before the end, so the last one has healed when the players stop. */
const QUIET_END_MS = 20_000;
/** Tables audited at a time (each a read of its log from JetStream). */
const AUDIT_CONCURRENCY = 16;
/** The workers' lease TTL and bot delay, as the service's defaults are. */
const LEASE_TTL_MS = 15_000;
const BOT_DELAY_MS = 600;
/**
 * How late a move the service owes may come: 10 s, less than the lease TTL
 * the issue allows (a killed worker's tables move within about a renewal,
 * not a TTL), so a table that waits out a whole lease counts as stuck.
 */
const ALLOWED_LATE_MS = 10_000;

console.log(
  `chaos: ${tables} ${GAMES[game].title} tables (seats ${serverSide.bots.join(',') || 'none'} the service's bots, ${serverSide.absent.join(',') || 'none'} absent with a ${serverSide.turnSeconds}s turn clock, the rest client-side bots) against the distributed service (3 nats-server, 2 workers, 2 gateways), ${minutes} min, ` +
    `a fault every ${everyMs / 1000}s (${faultKinds.join(', ')}${faultKinds.length > 1 ? ', in turn' : ''}) until ${QUIET_END_MS / 1000}s before the end; lease TTL ${LEASE_TTL_MS / 1000}s`,
);

const acknowledged = new Map<string, AcknowledgedCommand[]>();
let acknowledgedCount = 0;
const createdTables: string[] = [];
let faults: Faults | null = null;
let run: SoakRun | null = null;
let exitCode = 0;
stopEarlyOnSignal(() => run);

try {
  run = await SoakRun.start({
    backend: 'nats',
    game,
    tables,
    thinkMs,
    // Tables stay in memory as long as a gateway keeps them by default: the run checks logs, not memory.
    service: { idleSeconds: 600, workers: 2, gateways: 2, leaseTtlMs: LEASE_TTL_MS },
    players: {
      reconnect: true,
      serverSide,
      onTableCreated: (tableId) => createdTables.push(tableId),
      onAccepted: (ack) => {
        acknowledgedCount++;
        const kept = acknowledged.get(ack.tableId);
        if (kept === undefined) acknowledged.set(ack.tableId, [ack]);
        else kept.push(ack);
        faults?.acknowledged(ack);
      },
    },
  });
  const { service } = run;
  const nats = service.nats!;
  // The chaos run watches owners and audits logs as an operator does.
  const nc = await nats.connect('admin', { waitOnFirstConnect: true });
  faults = new Faults(service, run.players, (line) => console.log(line));
  await faults.watchOwners(nc);
  run.extraProgress = () => faults!.progress();
  const summary = await run.play(minutes, (endsAt) => faults!.run(everyMs, endsAt - QUIET_END_MS, faultKinds));
  faults.stop();
  console.log('');
  for (const line of run.summarize(summary)) console.log(line);
  await run.players.close();

  console.log(`auditing ${createdTables.length} tables from their logs in JetStream…`);
  const store = await openJetStreamEventStore({ connection: nc, replicas: 3 });
  const audits: TableAudit[] = [];
  const stalls: StallReport[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: AUDIT_CONCURRENCY }, async () => {
      while (next < createdTables.length) {
        const tableId = createdTables[next++];
        try {
          const log = await readTableLog(store, tableId);
          audits.push(auditTable(tableId, log, acknowledged.get(tableId) ?? []));
          stalls.push(stallsOf(tableId, log, { botDelayMs: BOT_DELAY_MS, allowedLateMs: ALLOWED_LATE_MS }, Date.now()));
        } catch (error) {
          audits.push({
            tableId,
            finished: false,
            events: 0,
            problems: [`its log could not be read: ${(error as Error).message}`],
            lost: [],
          });
        }
      }
    }),
  );
  await store.close();
  await nc.close();

  const failed = audits.filter((audit) => audit.problems.length > 0);
  const lost = audits.flatMap((audit) => audit.lost);
  const finished = audits.filter((audit) => audit.finished).length;
  const counters = run.players.counters;
  const maxTakeover = faults.takeoverMs.length === 0 ? null : Math.max(...faults.takeoverMs);
  console.log('');
  console.log(`worker kills: ${faults.workerKills}`);
  for (const kill of faults.kills) {
    console.log(
      `  ${kill.worker}: ${kill.orphans} tables in play, ${kill.served} accepted commands again${kill.served > 0 ? `, the last after ${(kill.maxMs / 1000).toFixed(1)}s` : ''}`,
    );
  }
  console.log(
    `takeovers: ${faults.takeoverMs.length} tables served again after their worker's kill; max takeover time ${maxTakeover === null ? 'n/a' : `${(maxTakeover / 1000).toFixed(1)}s`}` +
      `${faults.unservedOrphans() > 0 ? ` (${faults.unservedOrphans()} more had no command accepted again before their game or the run ended)` : ''}`,
  );
  console.log(`NATS node restarts: ${faults.natsRestarts}`);
  console.log(
    `gateway drops: ${faults.gatewayDrops} (${counters.tablesReconnected} table moves to another gateway, ${counters.unansweredAtDrop} commands cut off without a reply (${counters.repliesAfterDrop} of whose replies came all the same), ${counters.failedSetUps} table set-ups cut short and done again)`,
  );
  if (faults.gatewayRestartFailures.length > 0) {
    console.log(`gateway restarts that failed: ${faults.gatewayRestartFailures.length}`);
    for (const why of faults.gatewayRestartFailures.slice(0, 3)) console.log(`  ${why}`);
  }
  console.log(
    `moves refused during faults and tried again on a fresh view: ${counters.retriedRefusals}; tables stalled ${15} s and woken by re-reading their views: ${counters.stallRescues}`,
  );
  console.log(`commands acknowledged: ${acknowledgedCount}`);
  console.log(`commands lost: ${lost.length}`);
  for (const line of lost.slice(0, 10)) console.log(`  ${line}`);
  console.log(
    `tables verified: ${audits.length - failed.length} of ${audits.length} (${finished} finished games, ${audits.length - finished} unfinished: replay, cards and record checked so far)`,
  );
  for (const audit of failed.slice(0, 10)) console.log(`  ${audit.tableId}: ${audit.problems.slice(0, 3).join('; ')}`);
  if (values['worker-logs'] !== undefined) {
    mkdirSync(values['worker-logs'], { recursive: true });
    for (const worker of run.service.workers)
      writeFileSync(join(values['worker-logs'], `${worker.workerId}.log`), `${worker.output.join('\n')}\n`);
    console.log(`the workers' logs are in ${values['worker-logs']}`);
  }
  const stuck = stalls.filter((report) => report.stuck.length > 0);
  const worstLateMs = Math.max(0, ...stalls.map((report) => report.worstLateMs));
  console.log(
    `the service's own moves: ${stalls.reduce((sum, report) => sum + report.owed, 0)} bot moves and timeouts owed; ` +
      `the latest came ${(worstLateMs / 1000).toFixed(1)}s after it was due (allowed: ${ALLOWED_LATE_MS / 1000}s, under the lease TTL of ${LEASE_TTL_MS / 1000}s, and for a timeout the bot delay too)`,
  );
  console.log(`tables stuck: ${stuck.length}`);
  for (const report of stuck.slice(0, 5))
    console.log(
      `  ${report.tableId}: ${report.stuck.map((stall) => `${stall.awaited} owed after event ${stall.seq}, ${(stall.lateMs / 1000).toFixed(1)}s late`).join('; ')}`,
    );
  const refusedOwnMoves = run.service.workers
    .flatMap((worker) => worker.output)
    .flatMap((line) => {
      const refused = / (bot|clock) move at (\S+) refused \((\w+)\)/.exec(line);
      return refused === null ? [] : [{ source: refused[1], tableId: refused[2], kind: refused[3] }];
    });
  const refusedBotMoves = refusedOwnMoves.filter((move) => move.source === 'bot');
  const duplicates = refusedBotMoves.filter((move) => move.kind === 'versionConflict');
  const overtakenTimeouts = refusedOwnMoves.filter((move) => move.source === 'clock' && move.kind === 'notNow').length;
  const refusedTimeouts = refusedOwnMoves.filter((move) => move.source === 'clock' && move.kind !== 'notNow');
  console.log(`duplicate bot moves (a second owner's, refused by the log): ${duplicates.length}`);
  console.log(
    `refused bot moves: ${refusedBotMoves.length}${refusedBotMoves.length === 0 ? '' : ` (${[...new Set(refusedBotMoves.map((move) => move.kind))].join(', ')})`}`,
  );
  console.log(
    `timeouts: ${overtakenTimeouts} overtaken by the seat's own move just in time (as designed), ${refusedTimeouts.length} refused otherwise`,
  );
  const passed =
    lost.length === 0 &&
    failed.length === 0 &&
    audits.length > 0 &&
    stuck.length === 0 &&
    refusedBotMoves.length === 0 &&
    refusedTimeouts.length === 0;
  console.log(
    `verdict: ${passed ? 'PASS' : 'FAIL'} — ${lost.length} acknowledged commands lost, ${failed.length} tables failed their audit, ` +
      `${stuck.length} stuck, ${duplicates.length} duplicate and ${refusedBotMoves.length} refused bot moves` +
      (faults.gatewayRestartFailures.length > 0 ? ` (and ${faults.gatewayRestartFailures.length} gateway restarts failed: see above)` : ''),
  );
  if (!passed) exitCode = 1;
} catch (error) {
  console.error('the chaos run failed:', error);
  exitCode = 1;
} finally {
  faults?.stop();
  await run?.stop();
}
process.exit(exitCode);
