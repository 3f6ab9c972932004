/**
 * The special functions the lab's tests and intervals need, written out
 * rather than taken from a package: the log-gamma function, the regularized
 * incomplete gamma function (for the chi-squared distribution) and the
 * regularized incomplete beta function (for Student's t). The methods are
 * those of Numerical Recipes (Press et al., 3rd ed., sections 6.1, 6.2 and
 * 6.4): Lanczos' approximation, the series and Legendre's continued fraction
 * for the gamma function, and the continued fraction of the beta function,
 * evaluated by the modified Lentz method.
 */

/** Enough terms for every argument the lab meets; the loops stop far earlier on convergence. */
const MAX_TERMS = 1000;
const EPSILON = 1e-15;
/** Guards the continued fractions against division by zero (Lentz's method). */
const TINY = 1e-300;

/** Numerical Recipes' coefficients, as the doubles they round to. */
const LANCZOS = [
  57.15623566586292, -59.59796035547549, 14.136097974741746, -0.4919138160976202, 0.00003399464998481189, 0.00004652362892704858,
  -0.00009837447530487956, 0.0001580887032249125, -0.00021026444172410488, 0.00021743961811521265, -0.0001643181065367639,
  0.00008441822398385275, -0.000026190838401581408, 0.0000036899182659531625,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 671/128, 14 terms: relative error below 1e-15). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma is defined here for x > 0, not ${x}`);
  let y = x;
  const base = x + 5.2421875;
  const tmp = (x + 0.5) * Math.log(base) - base;
  let series = 0.9999999999999971;
  for (const coefficient of LANCZOS) series += coefficient / ++y;
  return tmp + Math.log((2.5066282746310007 * series) / x);
}

/** Q(a, x) = Γ(a, x) / Γ(a), the upper regularized incomplete gamma function, for a > 0 and x ≥ 0. */
export function upperRegularizedGamma(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`the incomplete gamma function needs a > 0, not ${a}`);
  if (!(x >= 0)) throw new RangeError(`the incomplete gamma function needs x ≥ 0, not ${x}`);
  if (x === 0) return 1;
  // The series converges fast below a + 1, the continued fraction above it.
  return x < a + 1 ? 1 - lowerGammaSeries(a, x) : upperGammaFraction(a, x);
}

/** P(a, x) by its series: e^-x x^a / Γ(a) Σ x^n / (a (a+1) … (a+n)). */
function lowerGammaSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Q(a, x) by Legendre's continued fraction. */
function upperGammaFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 ≤ x ≤ 1. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`the incomplete beta function needs a, b > 0, not ${a}, ${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`the incomplete beta function needs 0 ≤ x ≤ 1, not ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast for x below (a + 1) / (a + b + 2); above, the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_TERMS; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + even / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + odd / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return h;
}
