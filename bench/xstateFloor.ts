/**
 * The XState floor: the events per CPU-second XState itself allows on this
 * machine, from the smallest machine that does what every game event does
 * (a transition and one assign). The engine benchmark prints each game's
 * rate against it, so a slower engine shows as a lower ratio however busy
 * or fast the machine running it is.
 */
import { assign, createActor, setup } from 'xstate';

const twoStates = setup({
  types: { context: {} as { count: number }, events: {} as { type: 'flip' } },
}).createMachine({
  context: { count: 0 },
  initial: 'up',
  states: {
    up: { on: { flip: { target: 'down', actions: assign({ count: ({ context }) => context.count + 1 }) } } },
    down: { on: { flip: { target: 'up', actions: assign({ count: ({ context }) => context.count + 1 }) } } },
  },
});

/** Events per CPU-second through a live two-state actor, one assign each, for about `budgetMs`. */
export function xstateFloor(budgetMs: number): { events: number; perSecond: number } {
  const actor = createActor(twoStates).start();
  const flip = { type: 'flip' } as const;
  let events = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  while (performance.now() - started < budgetMs) {
    for (let i = 0; i < 1000; i++) actor.send(flip);
    events += 1000;
  }
  const cpu = process.cpuUsage(cpuBefore);
  actor.stop();
  return { events, perSecond: events / ((cpu.user + cpu.system) / 1e6) };
}
