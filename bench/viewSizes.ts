/**
 * How large a view is over a game (npm run bench:views): whole games of
 * random bots through the real machines, and after every event the size of
 * seat 0's view and the spectator's as sent on a socket (JSON), split into
 * the parts that grow: the hand's tricks, the score sheet (handResults),
 * the revealed deals and the last hand. Prints the sizes by hand number,
 * so what grows with the game, and by how much a hand, shows.
 * BENCH_GAMES (--games, 20) per game type; BENCH_GAME (--game) for one.
 */
import { summaryLine } from '../drivers/figures/summary.js';
import { readFlags, text, wholeNumber } from '../drivers/flags.js';
import { createRng } from '../machines/cards/shuffle.js';
import { GAME_NAMES, GAMES, parseOptions, type GameName } from '../machines/table/options.js';
import { offer, startTable } from '../machines/table/snapshot.js';
import { viewFor, type TableView, type Viewer } from '../machines/view.js';
import { nextSimulatedEvent } from '../services/simulator/simulate.js';

const settings = readFlags(
  { games: wholeNumber({ env: 'BENCH_GAMES', default: 20 }), game: text({ env: 'BENCH_GAME', choices: GAME_NAMES }) },
  'npm run bench:views [-- --games N --game G]',
);

interface Sizes {
  whole: number;
  tricks: number;
  handResults: number;
  revealedDeals: number;
  lastHand: number;
}

function sizesOf(view: TableView): Sizes {
  return {
    whole: JSON.stringify(view).length,
    tricks: JSON.stringify(view.hand?.tricks ?? []).length,
    handResults: JSON.stringify(view.handResults).length,
    revealedDeals: JSON.stringify(view.revealedDeals).length,
    lastHand: JSON.stringify(view.lastHand).length,
  };
}

/** The largest sizes seen at each hand number (0: before the first deal), over every game played. */
function measure(game: GameName, games: number, viewer: Viewer): Map<number, Sizes> {
  const parsed = parseOptions(game, {});
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const byHand = new Map<number, Sizes>();
  for (let played = 0; played < games; played++) {
    const rng = createRng(`view-sizes-${game}-${played}`);
    const table = startTable({ game, options: parsed.options });
    for (let event = nextSimulatedEvent(table.getSnapshot(), rng); event !== null; event = nextSimulatedEvent(table.getSnapshot(), rng)) {
      if (!offer(table, event)) throw new Error(`the machine refused a simulated ${event.type}`);
      const snapshot = table.getSnapshot();
      const hand = snapshot.context.handResults.length + (snapshot.context.hand === null ? 0 : 1);
      const sizes = sizesOf(viewFor(snapshot, viewer));
      const most = byHand.get(hand);
      byHand.set(hand, most === undefined ? sizes : largest(most, sizes));
    }
    table.stop();
  }
  return byHand;
}

function largest(a: Sizes, b: Sizes): Sizes {
  return {
    whole: Math.max(a.whole, b.whole),
    tricks: Math.max(a.tricks, b.tricks),
    handResults: Math.max(a.handResults, b.handResults),
    revealedDeals: Math.max(a.revealedDeals, b.revealedDeals),
    lastHand: Math.max(a.lastHand, b.lastHand),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const summary: Record<string, number> = {};
console.log(
  `view sizes: ${settings.games} games of random bots per game type; the largest view (JSON) seen in each hand, and its growing parts`,
);
for (const game of settings.game === undefined ? GAME_NAMES : [settings.game]) {
  for (const viewer of [0, 'spectator'] as const) {
    const byHand = measure(game, settings.games, viewer);
    const largestWhole = Math.max(...[...byHand.values()].map((sizes) => sizes.whole));
    summary[`${game}_${viewer === 'spectator' ? 'spectator' : 'seat'}_largest_kb`] = largestWhole / 1024;
    console.log(`${GAMES[game].title}, ${viewer === 'spectator' ? 'spectator' : `seat ${viewer}`}:`);
    for (const [hand, sizes] of [...byHand].sort(([a], [b]) => a - b)) {
      console.log(
        `  hand ${String(hand).padStart(2)}: ${kb(sizes.whole).padStart(8)}  (tricks ${kb(sizes.tricks)}, handResults ${kb(sizes.handResults)}, ` +
          `revealedDeals ${kb(sizes.revealedDeals)}, lastHand ${kb(sizes.lastHand)})`,
      );
    }
  }
}
console.log(summaryLine(summary));
