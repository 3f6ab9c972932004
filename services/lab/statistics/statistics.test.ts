/**
 * The lab's statistics against reference values computed elsewhere. Unless
 * a line says otherwise the reference is SciPy 1.17.1 (Python 3), as
 * printed by: stats.chi2.sf(x, k), stats.t.ppf(0.975, df),
 * stats.binomtest(k, n).proportion_ci(method='wilson'),
 * stats.ttest_1samp(a, 0).confidence_interval(0.95),
 * stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95),
 * stats.chisquare(counts), math.lgamma(x).
 */
import { describe, expect, it } from 'vitest';
import { equalSharesTest } from './chiSquaredTest.js';
import { chiSquaredSurvival, studentTQuantile } from './distributions.js';
import { meanDifferenceInterval, meanInterval, shareDifferenceInterval, wilsonInterval, type SampleSums } from './intervals.js';
import { logGamma } from './specialFunctions.js';

function sumsOf(values: readonly number[]): SampleSums {
  return { count: values.length, sum: values.reduce((s, v) => s + v, 0), sumOfSquares: values.reduce((s, v) => s + v * v, 0) };
}

describe('the special functions', () => {
  it('ln Γ matches math.lgamma', () => {
    expect(logGamma(0.5)).toBeCloseTo(0.5723649429247004, 12);
    expect(logGamma(10)).toBeCloseTo(12.801827480081467, 11);
    expect(logGamma(100.5)).toBeCloseTo(361.4355404677776, 9);
  });
});

describe('the chi-squared distribution', () => {
  it.each([
    [3.84, 1, 0.05004352124870519],
    // The brief's 0.05005 for 7.81 with 3 degrees of freedom is the rounded 95% point's: 7.8147 gives 0.0500006.
    [7.81, 3, 0.05010605635000589],
    [7.8147, 3, 0.050000625284760056],
    [11.07, 5, 0.050009618622405425],
    [0.5, 4, 0.9735009788392561],
    [40, 10, 1.694474393006737e-5],
    [200, 150, 0.003973185970821635],
    [0.001, 1, 0.9747728793699604],
  ])('P(X ≥ %f) with %i degrees of freedom', (x, k, reference) => {
    expect(chiSquaredSurvival(x, k)).toBeCloseTo(reference, 10);
    expect(Math.abs(chiSquaredSurvival(x, k) / reference - 1)).toBeLessThan(1e-9);
  });

  it('is 1 at and below 0', () => {
    expect(chiSquaredSurvival(0, 3)).toBe(1);
  });
});

describe("Student's t", () => {
  it.each([
    [1, 12.706204736174694],
    [2, 4.302652729749462],
    [5, 2.5705818356363146],
    [10, 2.228138851986274],
    [30, 2.0422724563012378],
    [100, 1.9839715185235518],
    [1000, 1.9623390808264083],
  ])('the 97.5%% point with %i degrees of freedom', (df, reference) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(reference, 8);
  });
});

describe('intervals', () => {
  it("Wilson's interval of a share", () => {
    const [low, high] = wilsonInterval(7, 20);
    expect(low).toBeCloseTo(0.1811918241010821, 12);
    expect(high).toBeCloseTo(0.5671457233147637, 12);
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(0, 10)[1]).toBeCloseTo(0.2775327998628892, 12);
    expect(wilsonInterval(10, 10)[0]).toBeCloseTo(0.7224672001371107, 12);
    expect(wilsonInterval(10, 10)[1]).toBeCloseTo(1, 12);
    expect(wilsonInterval(480, 1000)[0]).toBeCloseTo(0.44917079499694124, 12);
  });

  it('the t interval of a mean', () => {
    const [low, high] = meanInterval(sumsOf([3, 5, 4, 6, 5, 7, 4, 5]));
    expect(low).toBeCloseTo(3.83296391461214, 9);
    expect(high).toBeCloseTo(5.91703608538786, 9);
    expect(meanInterval(sumsOf([4, 4, 4]))).toEqual([4, 4]);
  });

  it("Welch's interval of a difference of means", () => {
    const [low, high] = meanDifferenceInterval(sumsOf([3, 5, 4, 6, 5, 7, 4, 5]), sumsOf([6, 7, 5, 8, 9, 7]));
    expect(low).toBeCloseTo(-3.741599736844235, 8);
    expect(high).toBeCloseTo(-0.5084002631557651, 8);
  });

  it("Newcombe's interval of a difference of shares: his own example, 56/70 - 48/80 (1998, Table II, method 10)", () => {
    const [low, high] = shareDifferenceInterval(56, 70, 48, 80);
    expect(low).toBeCloseTo(0.0524, 4);
    expect(high).toBeCloseTo(0.3339, 4);
  });
});

describe('the test of equal shares', () => {
  it('matches stats.chisquare([30, 10, 10, 10])', () => {
    const test = equalSharesTest([30, 10, 10, 10])!;
    expect(test.statistic).toBeCloseTo(20, 12);
    expect(test.degreesOfFreedom).toBe(3);
    expect(test.pValue).toBeCloseTo(0.0001697424355528261, 12);
    expect(test.rough).toBe(false);
  });

  it('gives p = 1 for perfectly equal wins and says when the counts are too few', () => {
    expect(equalSharesTest([5, 5])!.pValue).toBe(1);
    expect(equalSharesTest([2, 1, 1])!.rough).toBe(true);
    expect(equalSharesTest([0, 0])).toBeNull();
  });
});
