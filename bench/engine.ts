/**
 * Engine benchmark: complete hands per second through the machines with
 * random bots, per game type, on one core. Not a test: it prints figures.
 * Each game's events/s is printed beside the XState floor measured in the
 * same run (xstateFloor.ts), as a ratio: the engine's own cost, whatever
 * the machine. The floor is measured right before each game, as other work
 * on a shared machine changes within a run.
 * BENCH_SECONDS (--seconds, 3): how long each game is played.
 */
import { createActor } from 'xstate';
import { number, readFlags } from '../drivers/flags.js';
import { createRng } from '../machines/cards/shuffle.js';
import { machineFor } from '../machines/games/index.js';
import { GAME_NAMES, parseOptions, type GameName } from '../machines/table/options.js';
import { nextSimulatedEvent } from '../services/simulator/simulate.js';
import { summaryLine } from '../drivers/figures/summary.js';
import { xstateFloor } from './xstateFloor.js';

/** How long the XState floor is measured before each game. */
const FLOOR_MS = 1500;

const { seconds } = readFlags({ seconds: number({ env: 'BENCH_SECONDS', default: 3 }) }, 'npm run bench:engine [-- --seconds S]');

function optionsOf(game: GameName) {
  const parsed = parseOptions(game, {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.options;
}

/**
 * Plays games on a live actor (as the host does) until the time is up;
 * counts completed hands per second of this process's own CPU time, so
 * other work on a shared machine does not lower the figure.
 */
function handsPerSecond(game: GameName, budgetMs: number): { hands: number; events: number; perSecond: number; cpuSeconds: number } {
  const options = optionsOf(game);
  const rng = createRng(`bench-${game}`);
  let hands = 0;
  let events = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  while (performance.now() - started < budgetMs) {
    const actor = createActor(machineFor(game), { input: { game, options } }).start();
    for (let event = nextSimulatedEvent(actor.getSnapshot(), rng, 50); event !== null; ) {
      actor.send(event);
      events++;
      event = nextSimulatedEvent(actor.getSnapshot(), rng, 50);
    }
    hands += actor.getSnapshot().context.handResults.length;
    actor.stop();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return { hands, events, perSecond: hands / cpuSeconds, cpuSeconds };
}

const summary: Record<string, number> = {};
console.log(`engine benchmark: random bots on live actors, ${seconds}s per game after a 1s warm-up; rates per CPU-second`);
xstateFloor(1000);
for (const game of GAME_NAMES) {
  handsPerSecond(game, 1000);
  // The floor is measured right before each game: on a shared machine the load changes within a run.
  const floor = xstateFloor(FLOOR_MS).perSecond;
  const { hands, events, perSecond, cpuSeconds } = handsPerSecond(game, seconds * 1000);
  const eventsPerSecond = events / cpuSeconds;
  summary[`${game}_hands_per_cpu_s`] = Math.round(perSecond);
  summary[`${game}_floor_ratio`] = Number((eventsPerSecond / floor).toFixed(3));
  console.log(
    `${game.padEnd(14)} ${perSecond.toFixed(0).padStart(6)} hands/s  (${hands} hands, ${eventsPerSecond.toFixed(0)} events/s = ${(eventsPerSecond / floor).toFixed(2)} of the XState floor, ${floor.toFixed(0)} events/s just before)`,
  );
}
console.log(summaryLine(summary, 3));
