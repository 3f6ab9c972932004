/**
 * Pearson's chi-squared test of "no side is favoured": the wins of each
 * side (seat or team) against equal shares of the games. A small p-value
 * says that equal chances would rarely give wins as uneven as these.
 */
import { chiSquaredSurvival } from './distributions.js';

export interface ChiSquaredTest {
  readonly statistic: number;
  readonly degreesOfFreedom: number;
  readonly pValue: number;
  /** Fewer than 5 wins expected per side: the chi-squared approximation is then rough, and the p-value only a hint. */
  readonly rough: boolean;
}

/** The test over `wins` per side; null with fewer than two sides or no wins at all. */
export function equalSharesTest(wins: readonly number[]): ChiSquaredTest | null {
  const total = wins.reduce((sum, count) => sum + count, 0);
  if (wins.length < 2 || total === 0) return null;
  const expected = total / wins.length;
  const statistic = wins.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
  const degreesOfFreedom = wins.length - 1;
  return { statistic, degreesOfFreedom, pValue: chiSquaredSurvival(statistic, degreesOfFreedom), rough: expected < 5 };
}
