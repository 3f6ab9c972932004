/**
 * The report's plots as inline SVG: a histogram, bars with their 95%
 * intervals, and differences with their intervals about zero. Each scales
 * to the width it is given (a viewBox and width 100%), so it reads on a
 * phone as on a desktop; nothing is drawn by script.
 */
import type { Interval } from '../statistics/intervals.js';
import { escaped } from './escaped.js';

const WIDTH = 360;
const ROW = 28;
const LABEL = 120;
const RIGHT = 56;
/** The figures' names in a side by side are longer than a seat's ("seat 0 among the winners"). */
const DIFFERENCE_LABEL = 170;

function number(value: number, digits = 2): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** Bars of how many games had each number of hands, the axis labelled at both ends and at the median. */
export function histogramSvg(histogram: Readonly<Record<string, number>>, { label }: { label: string }): string {
  const values = Object.keys(histogram).map(Number);
  if (values.length === 0) return '<p class="none">no finished games</p>';
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low + 1;
  const most = Math.max(...Object.values(histogram));
  const height = 140;
  const plot = height - 24;
  const barWidth = (WIDTH - 20) / span;
  const bars = Array.from({ length: span }, (_, i) => {
    const value = low + i;
    const count = histogram[value] ?? 0;
    const barHeight = (count / most) * (plot - 8);
    const x = 10 + i * barWidth;
    return `<rect class="bar" x="${x.toFixed(1)}" y="${(plot - barHeight).toFixed(1)}" width="${Math.max(1, barWidth - 1).toFixed(1)}" height="${barHeight.toFixed(1)}"><title>${value}: ${count}</title></rect>`;
  }).join('');
  const tick = (value: number, anchor: string) =>
    `<text x="${(10 + (value - low + 0.5) * barWidth).toFixed(1)}" y="${height - 6}" text-anchor="${anchor}">${value}</text>`;
  return `<svg class="plot histogram" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${escaped(label)}"><title>${escaped(label)}</title>${bars}<line class="axis" x1="10" y1="${plot}" x2="${WIDTH - 10}" y2="${plot}"/>${tick(low, 'start')}${span > 1 ? tick(high, 'end') : ''}</svg>`;
}

export interface ShareRow {
  readonly label: string;
  readonly share: number;
  readonly ci95: Interval;
  /** The share a fair game would give, drawn as a dashed line. */
  readonly fair?: number;
}

/** Horizontal bars from 0 to 1, each with its interval as a whisker. */
export function shareBarsSvg(rows: readonly ShareRow[], { label }: { label: string }): string {
  const height = rows.length * ROW + 18;
  const scale = (value: number) => LABEL + value * (WIDTH - LABEL - RIGHT);
  const drawn = rows
    .map((row, i) => {
      const y = i * ROW + 6;
      const middle = y + ROW / 2 - 3;
      const [low, high] = row.ci95;
      const fair =
        row.fair === undefined
          ? ''
          : `<line class="fair" x1="${scale(row.fair).toFixed(1)}" y1="${y - 2}" x2="${scale(row.fair).toFixed(1)}" y2="${y + ROW - 4}"/>`;
      return `<g class="share-row"><text x="${LABEL - 6}" y="${middle + 4}" text-anchor="end">${escaped(row.label)}</text><rect class="bar" x="${LABEL}" y="${y}" width="${(scale(row.share) - LABEL).toFixed(1)}" height="${ROW - 10}"><title>${escaped(row.label)}: ${number(row.share, 3)} (95% ${number(low, 3)}–${number(high, 3)})</title></rect><line class="interval" x1="${scale(low).toFixed(1)}" y1="${middle}" x2="${scale(high).toFixed(1)}" y2="${middle}"/><line class="interval" x1="${scale(low).toFixed(1)}" y1="${middle - 5}" x2="${scale(low).toFixed(1)}" y2="${middle + 5}"/><line class="interval" x1="${scale(high).toFixed(1)}" y1="${middle - 5}" x2="${scale(high).toFixed(1)}" y2="${middle + 5}"/>${fair}<text x="${WIDTH - 2}" y="${middle + 4}" text-anchor="end">${(100 * row.share).toFixed(1)}%</text></g>`;
    })
    .join('');
  const axis = `<text x="${LABEL}" y="${height - 2}" text-anchor="start">0</text><text x="${scale(1)}" y="${height - 2}" text-anchor="end">1</text>`;
  return `<svg class="plot shares" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${escaped(label)}"><title>${escaped(label)}</title>${drawn}${axis}</svg>`;
}

interface DifferenceRow {
  readonly label: string;
  readonly difference: number;
  readonly ci95: Interval;
}

/** Each difference as a dot with its interval about a zero line, on a scale of its own (the figures have different units). */
export function differencesSvg(rows: readonly DifferenceRow[], { label }: { label: string }): string {
  const height = rows.length * ROW + 6;
  const centre = DIFFERENCE_LABEL + (WIDTH - DIFFERENCE_LABEL - RIGHT) / 2;
  const half = (WIDTH - DIFFERENCE_LABEL - RIGHT) / 2 - 4;
  const drawn = rows
    .map((row, i) => {
      const y = i * ROW + 6;
      const middle = y + ROW / 2 - 3;
      const [low, high] = row.ci95;
      const reach = Math.max(Math.abs(low), Math.abs(high), Math.abs(row.difference)) || 1;
      const at = (value: number) => (centre + (value / reach) * half).toFixed(1);
      const clear = low > 0 || high < 0;
      return `<g class="difference-row${clear ? ' clear' : ''}"><text x="${DIFFERENCE_LABEL - 6}" y="${middle + 4}" text-anchor="end">${escaped(row.label)}</text><line class="zero" x1="${centre}" y1="${y - 2}" x2="${centre}" y2="${y + ROW - 4}"/><line class="interval" x1="${at(low)}" y1="${middle}" x2="${at(high)}" y2="${middle}"/><circle class="point" cx="${at(row.difference)}" cy="${middle}" r="4"><title>${escaped(row.label)}: ${number(row.difference, 3)} (95% ${number(low, 3)} to ${number(high, 3)})</title></circle><text x="${WIDTH - 2}" y="${middle + 4}" text-anchor="end">${row.difference >= 0 ? '+' : ''}${number(row.difference, 3)}</text></g>`;
    })
    .join('');
  return `<svg class="plot differences" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${escaped(label)}"><title>${escaped(label)}</title>${drawn}</svg>`;
}
