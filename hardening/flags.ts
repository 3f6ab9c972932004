/** The number a command-line flag of the soak and chaos runs gives, or why it will not do. */
export function positiveFlag(name: string, given: string | undefined, { whole = false, zero = false } = {}): number {
  const value = Number(given);
  if (!(value > 0 || (zero && value === 0)) || (whole && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a ${whole ? 'whole ' : ''}number ${zero ? 'from 0' : 'above 0'}, not ${JSON.stringify(given)}`);
  }
  return value;
}
