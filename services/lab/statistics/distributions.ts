/** The two distributions the lab's figures are read against: chi-squared (the seat test) and Student's t (the intervals of means). */
import { regularizedBeta, upperRegularizedGamma } from './specialFunctions.js';

/** P(X ≥ x) for X chi-squared with `degreesOfFreedom`: the p-value of a chi-squared statistic. */
export function chiSquaredSurvival(x: number, degreesOfFreedom: number): number {
  if (x <= 0) return 1;
  return upperRegularizedGamma(degreesOfFreedom / 2, x / 2);
}

/** P(T ≤ t) for T Student's t with `degreesOfFreedom` (which need not be whole: Welch's are not). */
function studentTDistribution(t: number, degreesOfFreedom: number): number {
  const tail = regularizedBeta(degreesOfFreedom / (degreesOfFreedom + t * t), degreesOfFreedom / 2, 0.5) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T ≤ t) = `probability` (0.5 < probability < 1), found by bisection: 200 halvings leave nothing to find. */
export function studentTQuantile(probability: number, degreesOfFreedom: number): number {
  if (!(probability > 0.5 && probability < 1)) throw new RangeError(`a t quantile is found here for 0.5 < p < 1, not ${probability}`);
  if (!(degreesOfFreedom > 0)) throw new RangeError(`Student's t needs degrees of freedom above 0, not ${degreesOfFreedom}`);
  let low = 0;
  let high = 1;
  while (studentTDistribution(high, degreesOfFreedom) < probability) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const middle = (low + high) / 2;
    if (studentTDistribution(middle, degreesOfFreedom) < probability) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
