/** stats.json: every section's figures and the side-by-side comparisons, from a folded corpus. */
import { comparisonsOf, type Comparison } from './comparisons.js';
import { sectionsInOrder, type CorpusTally } from './corpus.js';
import { figuresOf, type SectionFigures } from './figures.js';

const LAB_STATS_FORMAT = 'seven-suitors-lab/1';

export interface LabStats {
  readonly format: typeof LAB_STATS_FORMAT;
  /** Where the games came from, in words ("records in games/", "played here", "the service's finished games"). */
  readonly source: string;
  readonly sections: readonly SectionFigures[];
  readonly comparisons: readonly Comparison[];
  /** Files or games left out, each with why. */
  readonly skipped: readonly { readonly file: string; readonly problem: string }[];
}

export function labStatsOf(corpus: CorpusTally, { source, skipped = [] }: { source: string; skipped?: LabStats['skipped'] }): LabStats {
  const sections = sectionsInOrder(corpus);
  return { format: LAB_STATS_FORMAT, source, sections: sections.map(figuresOf), comparisons: comparisonsOf(sections), skipped };
}
