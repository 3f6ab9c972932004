/**
 * Options side by side: every two sections of one game and rules version
 * that differ in exactly one setting (an option, or the bots), with the
 * difference of each figure (the second minus the first) and its 95%
 * interval: Welch's for means, Newcombe's for shares (statistics/intervals.ts).
 */
import type { GameName } from '../../machines/table/options.js';
import type { SectionTally } from './gameTally.js';
import { meanDifferenceInterval, meanOf, shareDifferenceInterval, type Interval } from './statistics/intervals.js';
import type { Tally } from './tally.js';

interface FigureDifference {
  readonly figure: string;
  readonly from: number;
  readonly to: number;
  readonly difference: number;
  readonly ci95: Interval;
}

export interface Comparison {
  readonly game: GameName;
  readonly rules: number;
  /** The one setting that differs: an option's name, or "bots". */
  readonly setting: string;
  readonly from: string;
  readonly to: string;
  /** The settings both sections share. */
  readonly common: Readonly<Record<string, unknown>>;
  readonly differences: readonly FigureDifference[];
}

function settingsOf(section: SectionTally): Record<string, string> {
  return { ...Object.fromEntries(Object.entries(section.options).map(([name, value]) => [name, String(value)])), bots: section.bots };
}

export function comparisonsOf(sections: readonly SectionTally[]): Comparison[] {
  const comparisons: Comparison[] = [];
  sections.forEach((a, i) => {
    for (const b of sections.slice(i + 1)) {
      if (a.game !== b.game || a.rules !== b.rules) continue;
      const settingsA = settingsOf(a);
      const settingsB = settingsOf(b);
      const differing = Object.keys(settingsA).filter((name) => settingsA[name] !== settingsB[name]);
      if (differing.length !== 1) continue;
      const [setting] = differing;
      const common = Object.fromEntries(Object.entries(settingsA).filter(([name]) => name !== setting));
      comparisons.push({
        game: a.game,
        rules: a.rules,
        setting,
        from: settingsA[setting],
        to: settingsB[setting],
        common,
        differences: differencesOf(a, b),
      });
    }
  });
  return comparisons;
}

function meanDifference(figure: string, a: Tally, b: Tally): FigureDifference {
  const from = meanOf(a);
  const to = meanOf(b);
  // The interval of b - a: Welch's of a - b, turned round.
  const [low, high] = meanDifferenceInterval(b, a);
  return { figure, from, to, difference: to - from, ci95: [low, high] };
}

function shareDifference(figure: string, ka: number, na: number, kb: number, nb: number): FigureDifference {
  const from = na === 0 ? 0 : ka / na;
  const to = nb === 0 ? 0 : kb / nb;
  return { figure, from, to, difference: to - from, ci95: shareDifferenceInterval(kb, nb, ka, na) };
}

function differencesOf(a: SectionTally, b: SectionTally): FigureDifference[] {
  const differences = [
    meanDifference('hands per game', a.handsPerGame, b.handsPerGame),
    meanDifference('marriages per hand', a.marriagesPerHand, b.marriagesPerHand),
    shareDifference('draws', a.draws, a.finished, b.draws, b.finished),
    shareDifference('seat 0 among the winners', a.seatWins[0], a.finished, b.seatWins[0], b.finished),
  ];
  if (a.suitsMarkedPerHand !== null && b.suitsMarkedPerHand !== null) {
    differences.push(meanDifference('suits marked per hand', a.suitsMarkedPerHand, b.suitsMarkedPerHand));
  }
  if (a.teamWins !== null && b.teamWins !== null) {
    for (const team of Object.keys(a.teamWins)) {
      differences.push(shareDifference(`team ${team} wins`, a.teamWins[team], a.finished, b.teamWins[team] ?? 0, b.finished));
    }
  }
  if (a.loneRole !== null && b.loneRole !== null) {
    const { lone } = a.loneRole.names;
    differences.push(
      shareDifference(`${lone} tops the hand`, a.loneRole.topsHand, a.loneRole.hands, b.loneRole.topsHand, b.loneRole.hands),
    );
    differences.push(meanDifference(`${lone}'s points per hand`, a.loneRole.lonePoints, b.loneRole.lonePoints));
  }
  return differences;
}
