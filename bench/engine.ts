/**
 * Engine benchmark: complete hands per second through the machines with
 * random bots, per game type, on one core. Not a test: it prints figures.
 */
import { createActor } from 'xstate';
import { createRng } from '../machines/cards/shuffle.js';
import { machineFor } from '../machines/games/index.js';
import { GAME_NAMES, parseOptions, type GameName } from '../machines/table/options.js';
import { nextSimulatedEvent } from '../services/simulator/simulate.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);

function optionsOf(game: GameName) {
  const parsed = parseOptions(game, {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.options;
}

/** Plays games on a live actor (as the host does) until the time is up; counts completed hands. */
function handsPerSecond(game: GameName, budgetMs: number): { hands: number; events: number; perSecond: number } {
  const options = optionsOf(game);
  const rng = createRng(`bench-${game}`);
  let hands = 0;
  let events = 0;
  const started = performance.now();
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
  const elapsed = (performance.now() - started) / 1000;
  return { hands, events, perSecond: hands / elapsed };
}

console.log(`engine benchmark: random bots on live actors, ${seconds}s per game after a 1s warm-up`);
for (const game of GAME_NAMES) {
  handsPerSecond(game, 1000);
  const { hands, events, perSecond } = handsPerSecond(game, seconds * 1000);
  console.log(
    `${game.padEnd(14)} ${perSecond.toFixed(0).padStart(6)} hands/s  (${hands} hands, ${(events / seconds).toFixed(0)} events/s)`,
  );
}
