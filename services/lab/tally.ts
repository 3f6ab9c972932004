/**
 * What a fold keeps of a sample: whole-number counts and sums, so that
 * folds of one corpus cut into parts (worker threads, or a projection's
 * checkpoints) combine to exactly the figures of one fold over all of it,
 * in any order.
 */
import type { SampleSums } from './statistics/intervals.js';

export type Tally = SampleSums;

export const EMPTY_TALLY: Tally = { count: 0, sum: 0, sumOfSquares: 0 };

export function withValue(tally: Tally, value: number): Tally {
  return { count: tally.count + 1, sum: tally.sum + value, sumOfSquares: tally.sumOfSquares + value * value };
}

export function combinedTallies(a: Tally, b: Tally): Tally {
  return { count: a.count + b.count, sum: a.sum + b.sum, sumOfSquares: a.sumOfSquares + b.sumOfSquares };
}

/** How many times each whole number was seen, by the number written as a key (a JSON object's keys are strings). */
export type Histogram = Readonly<Record<string, number>>;

export function withCount(histogram: Histogram, value: number): Histogram {
  return { ...histogram, [value]: (histogram[value] ?? 0) + 1 };
}

export function combinedHistograms(a: Histogram, b: Histogram): Histogram {
  const sum: Record<string, number> = { ...a };
  for (const [value, count] of Object.entries(b)) sum[value] = (sum[value] ?? 0) + count;
  return sum;
}

/** The smallest value with at least `fraction` of the sample at or below it (the median at 0.5, p90 at 0.9). */
export function quantileOf(histogram: Histogram, fraction: number): number | null {
  const values = Object.keys(histogram)
    .map(Number)
    .sort((a, b) => a - b);
  const total = values.reduce((sum, value) => sum + histogram[value], 0);
  if (total === 0) return null;
  let seen = 0;
  for (const value of values) {
    seen += histogram[value];
    if (seen >= fraction * total) return value;
  }
  return values[values.length - 1];
}

/** Element-wise sums of two equally long lists of counts. */
export function combinedCounts(a: readonly number[], b: readonly number[]): number[] {
  return a.map((count, i) => count + b[i]);
}
