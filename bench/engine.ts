/**
 * Engine benchmark: complete hands per second through the machines with
 * random bots, per game type, on one core. Not a test: it prints figures.
 * BENCH_SECONDS (--seconds, 3): how long each game is played.
 */
import { createActor } from 'xstate';
import { number, readFlags } from '../drivers/flags.js';
import { createRng } from '../machines/cards/shuffle.js';
import { machineFor } from '../machines/games/index.js';
import { GAME_NAMES, parseOptions, type GameName } from '../machines/table/options.js';
import { nextSimulatedEvent } from '../services/simulator/simulate.js';

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

console.log(`engine benchmark: random bots on live actors, ${seconds}s per game after a 1s warm-up; rates per CPU-second`);
for (const game of GAME_NAMES) {
  handsPerSecond(game, 1000);
  const { hands, events, perSecond, cpuSeconds } = handsPerSecond(game, seconds * 1000);
  console.log(
    `${game.padEnd(14)} ${perSecond.toFixed(0).padStart(6)} hands/s  (${hands} hands, ${(events / cpuSeconds).toFixed(0)} events/s)`,
  );
}
