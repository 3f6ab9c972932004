/**
 * How long tables stay in a state, as a histogram of fixed buckets: four per
 * doubling of the time, so a quantile read from it is within 19% of the true
 * one, whatever the number of visits, in at most 160 counts per state.
 */

/** Bucket index → visits; sparse, as JSON. */
export type DwellHistogram = Record<string, number>;

const BUCKETS_PER_DOUBLING = 4;

function bucketOf(ms: number): number {
  return Math.floor(Math.log2(Math.max(0, ms) + 1) * BUCKETS_PER_DOUBLING);
}

/** The longest time a bucket holds, in ms: what a quantile falling in it reads as. */
function upperBoundOf(bucket: number): number {
  return Math.round(2 ** ((bucket + 1) / BUCKETS_PER_DOUBLING) - 1);
}

export function recordDwell(histogram: DwellHistogram, ms: number): void {
  const bucket = String(bucketOf(ms));
  histogram[bucket] = (histogram[bucket] ?? 0) + 1;
}

export function visitsOf(histogram: DwellHistogram): number {
  let visits = 0;
  for (const count of Object.values(histogram)) visits += count;
  return visits;
}

/** The time at or below which a fraction `q` (0 < q <= 1) of the visits ended, in ms, to the histogram's resolution. */
export function dwellQuantile(histogram: DwellHistogram, q: number): number {
  const buckets = Object.entries(histogram)
    .map(([bucket, count]) => [Number(bucket), count] as const)
    .sort(([a], [b]) => a - b);
  const rank = q * visitsOf(histogram);
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen >= rank) return upperBoundOf(bucket);
  }
  return buckets.length === 0 ? 0 : upperBoundOf(buckets[buckets.length - 1][0]);
}

/** Adds `more`'s visits into `into`. */
export function mergeDwell(into: DwellHistogram, more: DwellHistogram): void {
  for (const [bucket, count] of Object.entries(more)) into[bucket] = (into[bucket] ?? 0) + count;
}
