/**
 * Whether a process's memory stays flat over a long run: the least-squares
 * slope, in MB per minute, of its memory after the warm-up, against a
 * threshold. Memory is sampled every few seconds and each half minute's
 * lowest sample is what is fitted: a heap sampled at random points of the
 * garbage collector's sawtooth swings by tens of MB, its low points (what
 * survives a collection) far less, and a leak raises them steadily.
 */

export interface MemorySample {
  /** Minutes since play started. */
  readonly minute: number;
  readonly megabytes: number;
}

/** The samples of one figure of one process, e.g. `gateway RSS`. */
export class MemorySeries {
  readonly samples: MemorySample[] = [];

  constructor(readonly name: string) {}

  add(minute: number, bytes: number | null): void {
    if (bytes !== null && Number.isFinite(bytes)) this.samples.push({ minute, megabytes: bytes / 1024 / 1024 });
  }
}

/** The least-squares line through the points: slope (MB per minute) and its standard error. */
export function leastSquares(samples: readonly MemorySample[]): { slope: number; standardError: number } {
  const n = samples.length;
  const meanX = samples.reduce((sum, sample) => sum + sample.minute, 0) / n;
  const meanY = samples.reduce((sum, sample) => sum + sample.megabytes, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const { minute, megabytes } of samples) {
    sxx += (minute - meanX) ** 2;
    sxy += (minute - meanX) * (megabytes - meanY);
  }
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const residuals = samples.reduce((sum, { minute, megabytes }) => sum + (megabytes - (intercept + slope * minute)) ** 2, 0);
  const standardError = n > 2 ? Math.sqrt(residuals / (n - 2) / sxx) : Number.NaN;
  return { slope, standardError };
}

export interface TrendVerdict {
  readonly series: string;
  /** Samples after the warm-up: the ones judged. */
  readonly samples: number;
  readonly slope: number;
  readonly standardError: number;
  readonly first: number;
  readonly last: number;
  /** null: too few points after the warm-up to judge. */
  readonly flat: boolean | null;
}

/** Fewer points than this after the warm-up say nothing about a trend. */
export const MIN_SAMPLES = 6;
/** The window whose lowest sample is one point of the fit. */
export const WINDOW_MINUTES = 0.5;

/** The lowest sample of each window of `windowMinutes` (from minute 0), at the window's middle. */
export function lowerEnvelope(samples: readonly MemorySample[], windowMinutes = WINDOW_MINUTES): MemorySample[] {
  const lowest = new Map<number, number>();
  for (const { minute, megabytes } of samples) {
    const window = Math.floor(minute / windowMinutes);
    lowest.set(window, Math.min(lowest.get(window) ?? Number.POSITIVE_INFINITY, megabytes));
  }
  return [...lowest].sort((a, b) => a[0] - b[0]).map(([window, megabytes]) => ({ minute: (window + 0.5) * windowMinutes, megabytes }));
}

/**
 * Judges the windows that start at `warmupMinutes` or later: growing when
 * the slope is above `maxSlope` MB/min and more than twice its standard
 * error (a slope the noise of a few points explains is no trend); flat
 * otherwise.
 */
export function judgeTrend(series: MemorySeries, warmupMinutes: number, maxSlope: number): TrendVerdict {
  const judged = lowerEnvelope(series.samples).filter((point) => point.minute - WINDOW_MINUTES / 2 >= warmupMinutes - 1e-9);
  if (judged.length < MIN_SAMPLES) {
    return {
      series: series.name,
      samples: judged.length,
      slope: Number.NaN,
      standardError: Number.NaN,
      first: Number.NaN,
      last: Number.NaN,
      flat: null,
    };
  }
  const { slope, standardError } = leastSquares(judged);
  const growing = slope > maxSlope && slope > 2 * standardError;
  return {
    series: series.name,
    samples: judged.length,
    slope,
    standardError,
    first: judged[0].megabytes,
    last: judged.at(-1)!.megabytes,
    flat: !growing,
  };
}

export function describeVerdict(verdict: TrendVerdict): string {
  if (verdict.flat === null)
    return `${verdict.series}: ${verdict.samples} half-minute lows after the warm-up, too few to judge (at least ${MIN_SAMPLES}: a longer run or a shorter warm-up)`;
  return (
    `${verdict.series}: ${verdict.slope >= 0 ? '+' : ''}${verdict.slope.toFixed(2)} ± ${verdict.standardError.toFixed(2)} MB/min over ${verdict.samples} half-minute lows ` +
    `(${verdict.first.toFixed(1)} → ${verdict.last.toFixed(1)} MB) — ${verdict.flat ? 'flat' : 'GROWING'}`
  );
}
