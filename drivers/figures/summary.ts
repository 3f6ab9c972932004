/**
 * A benchmark's last line: `summary: name=value name=value …`, its headline figures in one line a script can
 * compare across runs (issue 32). Names are snake_case with their unit (`_ms`, `_per_s`, `_kb`), a game's name
 * keeping its own spelling; numbers are rounded to `digits` places.
 */
export function summaryLine(figures: Readonly<Record<string, number | string>>, digits = 1): string {
  const pairs = Object.entries(figures).map(([name, value]) => {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`a summary figure's name is letters, digits and _: "${name}"`);
    return `${name}=${typeof value === 'number' ? formatNumber(value, digits) : value.replace(/\s+/g, '_')}`;
  });
  return `summary: ${pairs.join(' ')}`;
}

function formatNumber(value: number, digits: number): string {
  if (!Number.isFinite(value)) return 'nan';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}
