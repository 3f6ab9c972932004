/**
 * 95% confidence intervals for the lab's figures, each from the summary a
 * fold keeps (counts, sums, sums of squares), so that the same intervals
 * come out of one corpus or of many folded apart and combined.
 *
 * - a share (k of n): Wilson's score interval, which stays inside [0, 1]
 *   and holds its coverage near 0 and 1, where the plain normal one fails;
 * - a mean: Student's t interval, mean ± t(0.975, n-1) s / √n;
 * - a difference of means: Welch's t interval (unequal variances,
 *   Welch–Satterthwaite degrees of freedom);
 * - a difference of shares: Newcombe's hybrid score interval (his method 10,
 *   Statistics in Medicine 17 (1998) 873–890), built from the two Wilson
 *   intervals.
 */
import { studentTQuantile } from './distributions.js';

export type Interval = readonly [number, number];

/** The standard normal's 97.5% point: z for a two-sided 95% interval. */
const Z_95 = 1.959963984540054;

export function wilsonInterval(successes: number, trials: number): Interval {
  if (trials === 0) return [0, 1];
  const share = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = (share + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z_95 / (1 + z2 / trials)) * Math.sqrt((share * (1 - share)) / trials + z2 / (4 * trials * trials));
  // At 0 or n successes the formula lands on the bound give or take a rounding: the bound it is.
  return [successes === 0 ? 0 : centre - half, successes === trials ? 1 : centre + half];
}

/** What a fold keeps of a sample to give its mean and spread. */
export interface SampleSums {
  readonly count: number;
  readonly sum: number;
  readonly sumOfSquares: number;
}

export function meanOf(sample: SampleSums): number {
  return sample.count === 0 ? 0 : sample.sum / sample.count;
}

/** The sample variance (n - 1 in the denominator); 0 below two values. */
export function varianceOf(sample: SampleSums): number {
  if (sample.count < 2) return 0;
  // Clamped: the sums of whole numbers are exact, but the division can round a zero variance below zero.
  return Math.max(0, (sample.sumOfSquares - (sample.sum * sample.sum) / sample.count) / (sample.count - 1));
}

/** Student's t interval of the mean; a single value's interval is that value (nothing to say how far it may be). */
export function meanInterval(sample: SampleSums): Interval {
  const mean = meanOf(sample);
  if (sample.count < 2) return [mean, mean];
  const half = studentTQuantile(0.975, sample.count - 1) * Math.sqrt(varianceOf(sample) / sample.count);
  return [mean - half, mean + half];
}

/** Welch's interval of mean(a) - mean(b). */
export function meanDifferenceInterval(a: SampleSums, b: SampleSums): Interval {
  const difference = meanOf(a) - meanOf(b);
  if (a.count < 2 || b.count < 2) return [difference, difference];
  const va = varianceOf(a) / a.count;
  const vb = varianceOf(b) / b.count;
  if (va + vb === 0) return [difference, difference];
  const degrees = (va + vb) ** 2 / (va ** 2 / (a.count - 1) + vb ** 2 / (b.count - 1));
  const half = studentTQuantile(0.975, degrees) * Math.sqrt(va + vb);
  return [difference - half, difference + half];
}

/** Newcombe's hybrid score interval of k1/n1 - k2/n2. */
export function shareDifferenceInterval(k1: number, n1: number, k2: number, n2: number): Interval {
  if (n1 === 0 || n2 === 0) return [-1, 1];
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const [l1, u1] = wilsonInterval(k1, n1);
  const [l2, u2] = wilsonInterval(k2, n2);
  const difference = p1 - p2;
  return [difference - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), difference + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)];
}
