import { describe, expect, it } from 'vitest';
import { MemorySeries, judgeTrend, leastSquares, lowerEnvelope } from './memoryTrend.js';

const MB = 1024 * 1024;

/** Samples every 2 s for `minutes`, with a garbage-collector sawtooth of 40 MB on top of `base(minute)`. */
function sawtooth(minutes: number, base: (minute: number) => number): MemorySeries {
  const series = new MemorySeries('heap');
  for (let second = 0; second < minutes * 60; second += 2) {
    const minute = second / 60;
    series.add(minute, (base(minute) + ((second % 20) / 20) * 40) * MB);
  }
  return series;
}

describe('the memory trend of a soak', () => {
  it('fits a line by least squares', () => {
    const { slope, standardError } = leastSquares([0, 1, 2, 3].map((minute) => ({ minute, megabytes: 100 + 3 * minute })));
    expect(slope).toBeCloseTo(3);
    expect(standardError).toBeCloseTo(0);
  });

  it('takes the lowest sample of each half minute', () => {
    const points = lowerEnvelope([0.1, 0.2, 0.6, 0.9].map((minute, i) => ({ minute, megabytes: [50, 40, 70, 60][i] })));
    expect(points).toEqual([
      { minute: 0.25, megabytes: 40 },
      { minute: 0.75, megabytes: 60 },
    ]);
  });

  it('calls a sawtooth around a level flat, and one that climbs 5 MB a minute growing', () => {
    expect(
      judgeTrend(
        sawtooth(10, () => 100),
        3,
        2,
      ),
    ).toMatchObject({ flat: true, samples: 14 });
    const leak = judgeTrend(
      sawtooth(10, (minute) => 100 + 5 * minute),
      3,
      2,
    );
    expect(leak.flat).toBe(false);
    expect(leak.slope).toBeCloseTo(5, 0);
  });

  it('does not judge from too few points after the warm-up', () => {
    expect(
      judgeTrend(
        sawtooth(2, () => 100),
        1,
        2,
      ).flat,
    ).toBeNull();
  });
});
