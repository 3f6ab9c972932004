/**
 * The lab over a running service's own finished games (GET /api/lab and
 * GET /lab). A finished game never changes, so each is folded once, into
 * its one-game tally, and kept; a request combines the kept tallies of the
 * newest `most` finished games. What one request may cost is bounded three
 * ways: at most `mostGames` games are combined, at most `newPerRequest`
 * records not yet folded are read and folded (the rest on the next
 * request), and figures younger than `freshMs` are served as they are,
 * one computation at a time whoever asks.
 */
import type { GameRecord } from '../../machines/record/record.js';
import { withSection, type CorpusTally } from './corpus.js';
import { BOTS_NOT_RECORDED, tallyOfGame, type SectionTally } from './gameTally.js';
import { labStatsOf, type LabStats } from './labStats.js';

export interface FinishedGamesSource {
  /** The ids of up to `most` finished games, the last finished first. */
  newest(most: number): Promise<{ tableIds: readonly string[]; finishedInAll: number }>;
  record(tableId: string): Promise<GameRecord>;
}

interface FinishedGamesLabLimits {
  readonly mostGames: number;
  readonly newPerRequest: number;
  readonly freshMs: number;
}

const DEFAULT_LAB_LIMITS: FinishedGamesLabLimits = { mostGames: 500, newPerRequest: 25, freshMs: 5_000 };

export class FinishedGamesLab {
  private readonly folded = new Map<string, SectionTally>();
  /** Finished games whose record could not be had, with why: left out, and not asked for again. */
  private readonly refused = new Map<string, string>();
  private latest: { at: number; stats: LabStats } | null = null;
  private underWay: Promise<LabStats> | null = null;

  constructor(
    private readonly source: FinishedGamesSource,
    private readonly limits: FinishedGamesLabLimits = DEFAULT_LAB_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  stats(): Promise<LabStats> {
    if (this.latest !== null && this.now() - this.latest.at < this.limits.freshMs) return Promise.resolve(this.latest.stats);
    this.underWay ??= this.computed().finally(() => {
      this.underWay = null;
    });
    return this.underWay;
  }

  private async computed(): Promise<LabStats> {
    const { tableIds, finishedInAll } = await this.source.newest(this.limits.mostGames);
    const wanted = new Set(tableIds);
    for (const known of [this.folded, this.refused]) for (const tableId of known.keys()) if (!wanted.has(tableId)) known.delete(tableId);
    const unfolded = tableIds.filter((tableId) => !this.folded.has(tableId) && !this.refused.has(tableId));
    for (const tableId of unfolded.slice(0, this.limits.newPerRequest)) {
      try {
        this.folded.set(tableId, tallyOfGame(await this.source.record(tableId), BOTS_NOT_RECORDED));
      } catch (error) {
        this.refused.set(tableId, error instanceof Error ? error.message : String(error));
      }
    }
    let corpus: CorpusTally = new Map();
    for (const tally of this.folded.values()) corpus = withSection(corpus, tally);
    const stats = labStatsOf(corpus, {
      source: sourceInWords(this.folded.size, finishedInAll, unfolded.length - this.limits.newPerRequest),
      skipped: [...this.refused].map(([tableId, problem]) => ({ file: `table ${tableId}`, problem })),
    });
    this.latest = { at: this.now(), stats };
    return stats;
  }
}

function sourceInWords(folded: number, finishedInAll: number, stillToFold: number): string {
  const newest =
    folded < finishedInAll
      ? `the newest ${folded} of this service’s ${finishedInAll} finished games`
      : `this service’s ${folded} finished games`;
  return stillToFold > 0 ? `${newest} (${stillToFold} more finished games are folded in on the next requests)` : newest;
}
