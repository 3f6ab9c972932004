/** A corpus as the lab folds it: one tally per section (game, rules, options, bots), in the order first seen. */
import type { GameRecord } from '../../machines/record/record.js';
import { combinedTallies, sectionIdOf, tallyOfGame, type SectionTally } from './gameTally.js';

export type CorpusTally = ReadonlyMap<string, SectionTally>;

export function withGame(corpus: CorpusTally, record: GameRecord, bots: string): CorpusTally {
  return withSection(corpus, tallyOfGame(record, bots));
}

export function withSection(corpus: CorpusTally, section: SectionTally): CorpusTally {
  const id = sectionIdOf(section);
  const known = corpus.get(id);
  return new Map(corpus).set(id, known === undefined ? section : combinedTallies(known, section));
}

export function combinedCorpora(a: CorpusTally, b: CorpusTally): CorpusTally {
  let sum = a;
  for (const section of b.values()) sum = withSection(sum, section);
  return sum;
}

/** The sections in a fixed order (game, rules, options, bots), so a report reads the same however the corpus was cut. */
export function sectionsInOrder(corpus: CorpusTally): SectionTally[] {
  return [...corpus.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, section]) => section);
}
