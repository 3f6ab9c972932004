/**
 * The command fuzzer (issue 8): bot games in which, between legal moves,
 * seats send malformed, misplaced, duplicated, late and reordered commands,
 * through the table host's API and through the HTTP/WebSocket gateway.
 * After every command the table is checked (tableWatch.ts): a refused command
 * changed nothing, an accepted one appended exactly itself (and the host's
 * deal), the log replays to the live state, cards are conserved; at the end
 * of every game the whole log replays and its record verifies.
 *
 * Everything is chosen with one seeded rng and commands are sent one step at
 * a time, so a seed replays the same run.
 */
import { transition } from 'xstate';
import { createRng, type Rng } from '../../machines/cards/shuffle.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { allowedOptionValues, GAMES, type GameName } from '../../machines/table/options.js';
import { awaitedActions } from '../../machines/table/refusal.js';
import { BOT_KINDS, botMove, type BotKind } from '../../services/bots/botRunner.js';
import { GARBAGE_KINDS, type Answer, type Expected, type FuzzPath, type FuzzSettings, type GarbageKind, type Via } from './fuzzPath.js';
import { openGatewayPath } from './gatewayPath.js';
import { openHostPath } from './hostPath.js';
import {
  legalMove,
  malformedCommand,
  MALFORMED_KINDS,
  MUST_REFUSE,
  type CommandKind,
  type FuzzCommand,
  type TableAtTurn,
} from './malformedCommands.js';
import { short, TableWatch, type Finding, type FindingKind, type SentCommand } from './tableWatch.js';

export interface RunFigures {
  readonly via: Via;
  readonly game: GameName;
  sent: number;
  accepted: number;
  refused: number;
  /** Refusals by how they were answered ("notNow", "409 notNow", "ws close 1009", ...). */
  readonly answers: Record<string, number>;
  /** Commands sent, and of them refused, by the fuzzer's kind. */
  readonly sentByKind: Record<string, number>;
  readonly refusedByKind: Record<string, number>;
  readonly findings: Record<FindingKind, number>;
  tables: number;
  gamesFinished: number;
  elapsedMs: number;
}

export interface FuzzReport {
  readonly runs: RunFigures[];
  /** The first findings in full (at most 50). */
  readonly findings: Finding[];
  readonly ok: boolean;
}

const KEPT_FINDINGS = 50;
const EARLIER_MOVES_KEPT = 24;
/** Now and then a table is passivated, so the next command rehydrates it from its snapshot and log. */
const PASSIVATE_ONE_IN = 200;

export async function fuzz(settings: FuzzSettings): Promise<FuzzReport> {
  const findings: Finding[] = [];
  const runs: RunFigures[] = [];
  const crashes = watchProcessCrashes();
  const progressMs = settings.progressMs ?? 10_000;
  let current: RunFigures | null = null;
  // Checked after every step rather than on a timer: on the memory store every await settles
  // as a microtask, so a timer would not fire until the run is over.
  let lastProgress = performance.now();
  const tick = () => {
    if (settings.onProgress === undefined || performance.now() - lastProgress < progressMs) return;
    lastProgress = performance.now();
    settings.onProgress(progressLine(current!));
  };
  try {
    for (const via of settings.via) {
      const path = via === 'host' ? await openHostPath(settings) : await openGatewayPath(settings);
      try {
        for (const game of settings.games) {
          const budget = via === 'gateway' ? (settings.gatewayCommands ?? settings.commands) : settings.commands;
          current = newFigures(via, game);
          runs.push(current);
          await fuzzGame(path, game, budget, createRng(`${settings.seed}/${via}/${game}`), current, tick, (finding) => {
            current!.findings[finding.kind]++;
            if (findings.length < KEPT_FINDINGS) findings.push(finding);
          });
          for (const crash of crashes.take()) {
            current.findings.crash++;
            if (findings.length < KEPT_FINDINGS) findings.push({ kind: 'crash', tableId: '-', detail: crash });
          }
        }
      } finally {
        await path.close();
      }
    }
  } finally {
    crashes.stop();
  }
  const ok = runs.every((run) => Object.values(run.findings).every((count) => count === 0));
  return { runs, findings, ok };
}

function newFigures(via: Via, game: GameName): RunFigures {
  return {
    via,
    game,
    sent: 0,
    accepted: 0,
    refused: 0,
    answers: {},
    sentByKind: {},
    refusedByKind: {},
    findings: { crash: 0, invariantBreak: 0, refusedButApplied: 0, wrongAnswer: 0 },
    tables: 0,
    gamesFinished: 0,
    elapsedMs: 0,
  };
}

/** Each step's share of the commands, in tenths of a percent: half legal moves, the rest trouble. */
const STEP_WEIGHTS: readonly [Step, number][] = [
  ['legal', 450],
  ...MALFORMED_KINDS.map((kind): [Step, number] => [kind, 30]),
  ['duplicate', 40],
  ['stale', 40],
  ['reordered', 40],
  ['concurrentDuplicate', 30],
  ['garbage', 130],
];
type Step = CommandKind | 'concurrentDuplicate' | 'garbage';

function chooseStep(rng: Rng, via: Via): Step {
  const weights = STEP_WEIGHTS.filter(([step]) => step !== 'garbage' || via === 'gateway');
  let roll = rng.below(weights.reduce((sum, [, weight]) => sum + weight, 0));
  for (const [step, weight] of weights) {
    if (roll < weight) return step;
    roll -= weight;
  }
  return 'legal';
}

/** Every rules option of the game at a random value: small K and M so short games end often too. */
export function randomOptions(game: GameName, rng: Rng): Record<string, string> {
  const options: Record<string, string> = {};
  for (const [name, values] of Object.entries(allowedOptionValues(game))) {
    const value = values[rng.below(values.length)];
    options[name] = value.replace(/:[KM]$/, () => `:${1 + rng.below(value.startsWith('hands') ? 3 : 6)}`);
  }
  return options;
}

async function fuzzGame(
  path: FuzzPath,
  game: GameName,
  budget: number,
  rng: Rng,
  figures: RunFigures,
  tick: () => void,
  report: (finding: Finding) => void,
): Promise<void> {
  const started = performance.now();
  let garbageSent = 0;
  while (figures.sent < budget) {
    const options = randomOptions(game, rng);
    const tableId = await path.openTable(game, options, `${figures.via}/${game}/${figures.tables}/${rng.below(1e9)}`);
    figures.tables++;
    const botKinds: BotKind[] = Array.from({ length: GAMES[game].seats }, () => BOT_KINDS[rng.below(BOT_KINDS.length)]);
    const watch = await TableWatch.open(path.host, path.store, tableId);
    const accepted: PlayerCommand[] = [];
    const earlier: PlayerCommand[] = [];
    const tableAtTurn = (): TableAtTurn => ({ snapshot: watch.snapshot, botKinds, accepted, earlier });

    /** Sends one command, judges the answer, checks the table. */
    const sendOne = async (command: FuzzCommand) => {
      const before = watch.snapshot;
      const { answer, expected, seen } = await path.send(tableId, command, before);
      count(figures, command.kind, answer);
      judge(command.kind, expected, answer, tableId, report);
      if (answer.acceptedAt !== null) accepted.push(seen as PlayerCommand);
      for (const finding of await watch.afterStep([{ command: seen, acceptedAt: answer.acceptedAt }])) report(finding);
    };

    while (!watch.finished && figures.sent < budget) {
      const table = tableAtTurn();
      const step = chooseStep(rng, path.via);
      // A move a bot would make now, kept to be sent late.
      const now = legalMove(table, rng);
      earlier.push(now);
      if (earlier.length > EARLIER_MOVES_KEPT) earlier.shift();
      if (step === 'garbage') {
        // In turn rather than at random, so even a short run sends every kind.
        const kind = GARBAGE_KINDS[garbageSent++ % GARBAGE_KINDS.length];
        const { answer, expected, seatChanges = [] } = await path.sendGarbage!(tableId, kind, table, rng);
        count(figures, kind, answer);
        judge(kind, expected, answer, tableId, report);
        for (const finding of await watch.afterStep([...seatChanges, { command: kind, acceptedAt: answer.acceptedAt }])) report(finding);
      } else if (step === 'reordered' || step === 'concurrentDuplicate') {
        const moves = step === 'reordered' ? reorderedMoves(table, now, rng) : [now, now];
        const commands = moves.map(
          (command): FuzzCommand => ({ kind: step === 'reordered' ? 'reordered' : 'duplicate', command, seat: command.seat }),
        );
        if (path.via === 'gateway' && step === 'reordered') {
          // Over the network two connections race; sent one after another the order is the one chosen.
          for (const command of commands) if (!watch.finished) await sendOne(command);
        } else {
          const answers = await path.sendTogether(tableId, commands);
          const sent: SentCommand[] = answers.map(({ answer, seen }, i) => {
            count(figures, commands[i].kind, answer);
            judge(commands[i].kind, null, answer, tableId, report);
            if (answer.acceptedAt !== null) accepted.push(seen as PlayerCommand);
            return { command: seen, acceptedAt: answer.acceptedAt };
          });
          for (const finding of await watch.afterStep(sent)) report(finding);
        }
      } else {
        await sendOne(step === 'legal' ? { kind: 'legal', command: now, seat: now.seat } : malformedCommand(step, table, rng));
      }
      if (rng.below(PASSIVATE_ONE_IN) === 0) await path.host.passivate(tableId);
      figures.elapsedMs = performance.now() - started;
      tick();
    }
    if (watch.finished) figures.gamesFinished++;
    for (const finding of await watch.atEnd()) report(finding);
  }
  figures.elapsedMs = performance.now() - started;
}

/**
 * A move of the next moment sent before the move of this one, then this
 * one, then the next again: the order a client with two tabs might produce.
 */
function reorderedMoves(table: TableAtTurn, now: PlayerCommand, rng: Rng): PlayerCommand[] {
  const [after] = transition(table.snapshot.machine, table.snapshot, now);
  const awaited = awaitedActions(after);
  if (awaited.length === 0) return [now, now];
  const { seat, action } = awaited[rng.below(awaited.length)];
  const next = botMove(after, seat, action, table.botKinds[seat], rng);
  return [next, now, next];
}

function count(figures: RunFigures, kind: string, answer: Answer): void {
  figures.sent++;
  figures.sentByKind[kind] = (figures.sentByKind[kind] ?? 0) + 1;
  figures.answers[answer.key] = (figures.answers[answer.key] ?? 0) + 1;
  if (answer.acceptedAt !== null) figures.accepted++;
  else {
    figures.refused++;
    figures.refusedByKind[kind] = (figures.refusedByKind[kind] ?? 0) + 1;
  }
}

/** The text of an error the runtime threw, passed on as if it explained a refusal. */
const JAVASCRIPT_ERROR =
  /Maximum call stack|is not a function|Cannot read propert|is not defined|is not iterable|Unexpected token|in JSON at position|Converting circular/;

/** Compares an answer with what the rules say it must be. */
function judge(
  kind: CommandKind | GarbageKind,
  expected: Expected,
  answer: Answer,
  tableId: string,
  report: (finding: Finding) => void,
): void {
  const wrong = (detail: string) => report({ kind: 'wrongAnswer', tableId, detail: `${kind}: ${detail}` });
  if (answer.crash !== null) {
    report({ kind: 'crash', tableId, detail: `${kind}: ${answer.crash}` });
    return;
  }
  if (MUST_REFUSE.has(kind as CommandKind) && expected?.accepted === true)
    wrong('the rules accept a command of a kind that must always be refused');
  if (kind === 'legal' && expected?.accepted === false) wrong(`the rules refuse a bot's move: ${expected.message}`);
  if (expected === null) return;
  if (expected.accepted && answer.acceptedAt === null) wrong(`refused (${answer.key}: ${answer.message}); the rules accept it`);
  if (!expected.accepted) {
    if (answer.acceptedAt !== null)
      wrong(`accepted at version ${answer.acceptedAt}; expected ${expected.status ?? ''} ${expected.error}: ${expected.message}`);
    else if (
      answer.status !== expected.status ||
      answer.error !== expected.error ||
      (expected.message !== null && answer.message !== expected.message)
    ) {
      wrong(
        `answered ${answer.key}: ${short(answer.message)}; expected ${expected.status ?? ''} ${expected.error}${expected.message === null ? '' : `: ${expected.message}`}`,
      );
    }
  }
  if (answer.acceptedAt === null && (answer.message === null || answer.message.length === 0))
    wrong(`refused (${answer.key}) without a message`);
  if (answer.message !== null && JAVASCRIPT_ERROR.test(answer.message))
    wrong(`refused (${answer.key}) with a JavaScript error for a message: ${short(answer.message)}`);
}

export function progressLine(run: RunFigures): string {
  const rate = run.elapsedMs > 0 ? Math.round(run.sent / (run.elapsedMs / 1000)) : 0;
  const broken = Object.entries(run.findings)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return `${run.via} ${run.game}: ${run.sent} sent, ${run.accepted} accepted, ${run.refused} refused, ${run.tables} tables, ${rate} commands/s; ${broken}`;
}

/** Exceptions nobody caught while the fuzzer ran: a service that would have died. */
function watchProcessCrashes(): { take(): string[]; stop(): void } {
  let seen: string[] = [];
  const onError = (error: unknown) => seen.push(`uncaught: ${(error as Error)?.stack ?? String(error)}`);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return {
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
    stop() {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    },
  };
}
