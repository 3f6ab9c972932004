import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulateGame } from '../../simulator/simulate.js';
import { integerFlag, stringFlag } from '../args.js';
import { gameAndOptions } from '../options.js';
import { progressLine } from '../progress.js';
import type { Command } from '../command.js';

/** Enough for any real game; a cap only so that a bad option cannot run forever. */
const DEFAULT_MAX_HANDS = 200;

export const simulateCommand: Command = {
  name: 'simulate',
  flags: ['game', 'games', 'seed', 'specials', 'end', 'passing', 'max-hands', 'out'],
  usage:
    'suitors simulate --game sevenSuitors|antiCupid|traitorOfLove --games N --seed S [--specials off|plain|powers] [--end allSuits|hands:K|marriages:M] [--passing none|oneEach] [--max-hands H] --out DIR',
  summary: 'play N games with random bots through the real machines and write one record per game',
  async run(args) {
    const { game, options } = gameAndOptions(args);
    const games = integerFlag(args, 'games');
    const seed = stringFlag(args, 'seed');
    const maxHands = integerFlag(args, 'max-hands', DEFAULT_MAX_HANDS);
    const out = stringFlag(args, 'out');
    mkdirSync(out, { recursive: true });
    const progress = progressLine(`simulating ${game}`, games);
    const started = performance.now();
    let hands = 0;
    let plays = 0;
    let unfinished = 0;
    for (let i = 1; i <= games; i++) {
      const { record } = simulateGame({ game, options, seed: `${seed}-${i}`, maxHands });
      writeFileSync(join(out, `${game}-${seed}-${i}.json`), `${JSON.stringify(record)}\n`);
      hands += record.hands.length;
      plays += record.hands.reduce((sum, hand) => sum + hand.plays.length, 0);
      if (!record.result.finished) unfinished++;
      progress.tick(i);
    }
    progress.end();
    const seconds = (performance.now() - started) / 1000;
    const note = unfinished > 0 ? `, ${unfinished} unfinished at --max-hands ${maxHands}` : '';
    console.log(`${games} games, ${hands} hands, ${plays} plays, ${seconds.toFixed(2)} seconds${note} -> ${out}`);
    return 0;
  },
};
