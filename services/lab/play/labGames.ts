/**
 * The games a lab run plays: for each option set and each kind of bot, N
 * games with the seeds `<seed>-1` … `<seed>-N` (those `suitors simulate`
 * gives the same games), so the sections of one run are played from the
 * same seeds, and a run is the same games whoever plays it and however it
 * is cut.
 */
import type { GameName, TableOptions } from '../../../machines/table/options.js';
import { botMove, type BotKind } from '../../bots/botRunner.js';
import { simulateGame, type BotMove } from '../../simulator/simulate.js';
import { withGame, type CorpusTally } from '../corpus.js';

export interface LabPlan {
  readonly game: GameName;
  readonly optionSets: readonly TableOptions[];
  readonly bots: readonly BotKind[];
  /** Games per option set and kind of bot. */
  readonly games: number;
  readonly seed: string;
  /** A game still going after this many hands is cut off unfinished, so that no option runs for ever. */
  readonly maxHands: number;
}

/** A run's share of games for one worker: games `from` to `to` (1-based, inclusive) of one option set and bot. */
export interface LabShare {
  readonly game: GameName;
  readonly options: TableOptions;
  readonly bots: BotKind;
  readonly seed: string;
  readonly from: number;
  readonly to: number;
  readonly maxHands: number;
}

/** The plan cut into `parts` shares per section, as even as whole games allow. */
export function sharesOf(plan: LabPlan, parts: number): LabShare[] {
  const shares: LabShare[] = [];
  for (const options of plan.optionSets) {
    for (const bots of plan.bots) {
      for (let part = 0; part < parts; part++) {
        const from = Math.floor((part * plan.games) / parts) + 1;
        const to = Math.floor(((part + 1) * plan.games) / parts);
        if (from <= to) shares.push({ game: plan.game, options, bots, seed: plan.seed, from, to, maxHands: plan.maxHands });
      }
    }
  }
  return shares;
}

/** Plays a share and folds its games, calling `onGame` after each. */
export function playShare(share: LabShare, onGame: () => void = () => undefined): CorpusTally {
  const move: BotMove = (snapshot, seat, action, rng) => botMove(snapshot, seat, action, share.bots, rng);
  let corpus: CorpusTally = new Map();
  for (let i = share.from; i <= share.to; i++) {
    const { record } = simulateGame({
      game: share.game,
      options: share.options,
      seed: `${share.seed}-${i}`,
      maxHands: share.maxHands,
      move,
    });
    corpus = withGame(corpus, record, share.bots);
    onGame();
  }
  return corpus;
}
