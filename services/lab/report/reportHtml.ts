/**
 * report.html: the lab's figures as one self-contained page (inline CSS and
 * SVG, no script, nothing fetched), readable from 390 px wide up. The same
 * renderer serves the service's own page (GET /lab).
 */
import { rulesOf } from '../../../machines/games/rules/index.js';
import type { Comparison } from '../comparisons.js';
import type { MeanFigure, SectionFigures, ShareFigure } from '../figures.js';
import type { LabStats } from '../labStats.js';
import { escaped } from './escaped.js';
import { REPORT_STYLE } from './reportStyle.js';
import { differencesSvg, histogramSvg, shareBarsSvg, type ShareRow } from './svgPlots.js';

const BOTS_IN_WORDS: Record<string, string> = {
  random: 'random bots (a random legal move each time)',
  heuristic: 'heuristic bots (the service’s own bots: they follow the marriages)',
  'not recorded': 'the players the records seated (people or bots: a record does not say)',
};

function optionsInWords(options: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(options);
  return entries.length === 0 ? 'no options' : entries.map(([name, value]) => `${name}: ${String(value)}`).join(', ');
}

function fixed(value: number, digits = 2): string {
  return value.toFixed(digits);
}

function meanText(figure: MeanFigure): string {
  if (figure.count === 0) return '—';
  return `${fixed(figure.mean)} <span class="ci">(95% ${fixed(figure.ci95[0])}–${fixed(figure.ci95[1])})</span>`;
}

function shareText(figure: ShareFigure): string {
  if (figure.of === 0) return '—';
  return `${(100 * figure.share).toFixed(1)}% <span class="ci">(${figure.count} of ${figure.of}; 95% ${(100 * figure.ci95[0]).toFixed(1)}–${(100 * figure.ci95[1]).toFixed(1)}%)</span>`;
}

function seatTestText(section: SectionFigures): string {
  const test = section.seatTest;
  if (test === null) return '<p class="test">No wins to test yet.</p>';
  const p = test.pValue < 0.0001 ? 'p < 0.0001' : `p = ${test.pValue.toFixed(4)}`;
  const verdict =
    test.pValue < 0.05
      ? `equal chances would rarely give wins this uneven: some ${test.over === 'teams' ? 'team' : 'seat'} is favoured`
      : `no sign that a ${test.over === 'teams' ? 'team' : 'seat'} is favoured`;
  const rough = test.rough ? ' (fewer than 5 wins expected each: the p-value is rough)' : '';
  return `<p class="test">χ² = ${fixed(test.statistic)} on ${test.degreesOfFreedom} degree${test.degreesOfFreedom === 1 ? '' : 's'} of freedom over the ${test.over} (wins ${test.wins.join(', ')}), ${p}: ${verdict}${rough}.</p>`;
}

function winRows(section: SectionFigures): ShareRow[] {
  const fairSeat = section.winShare.byTeam !== null && section.seatTest?.over === 'teams' ? 0.5 : 1 / section.seats;
  const rows: ShareRow[] = section.winShare.bySeat.map((share, seat) => ({
    label: `seat ${seat}`,
    share,
    ci95: section.winShare.bySeatCi95[seat],
    fair: fairSeat,
  }));
  const teams = Object.entries(section.winShare.byTeam ?? {});
  for (const [team, figure] of teams) rows.push({ label: `team ${team}`, share: figure.share, ci95: figure.ci95, fair: 1 / teams.length });
  return rows;
}

function loneRoleHtml(section: SectionFigures): string {
  const role = section.loneRole;
  if (role === null) return '';
  const rows: ShareRow[] = [{ label: `${role.lone} tops`, share: role.topsHand.share, ci95: role.topsHand.ci95, fair: 1 / section.seats }];
  return `<h3>${escaped(role.lone)} against ${escaped(role.others)}, hand by hand</h3>
${shareBarsSvg(rows, { label: `Share of hands in which ${role.lone} scores at least as much as anyone` })}
<p class="note">The bar: hands in which ${escaped(role.lone)} scores at least as much as every other seat; the dashed line is one seat in ${section.seats}.</p>`;
}

function figureTable(section: SectionFigures): string {
  const rows: [string, string][] = [
    [
      'Hands per game',
      `${meanText(section.handsPerGame)}; median ${section.handsPerGame.median ?? '—'}, p90 ${section.handsPerGame.p90 ?? '—'}`,
    ],
    ['Tricks per hand', meanText(section.tricksPerHand)],
    ['Cards played per hand', meanText(section.cardsPerHand)],
    ['Marriages per hand', meanText(section.marriagesPerHand)],
  ];
  if (section.suitsMarkedPerHand !== null) rows.push(['Suits marked per hand', meanText(section.suitsMarkedPerHand)]);
  rows.push(['Draws', shareText(section.draws)]);
  if (section.loneRole !== null) {
    rows.push([`${section.loneRole.lone}’s points per hand`, meanText(section.loneRole.lonePointsPerHand)]);
    rows.push([`Points per hand of ${section.loneRole.others} (each)`, meanText(section.loneRole.otherPointsPerHand)]);
  }
  const lead = section.firstLead;
  rows.push(['Trump (the first lead’s suit) married by the leader’s side', shareText(lead.trumpMarriedByLeaderSide)]);
  rows.push(['… by another side', shareText(lead.trumpMarriedByOtherSide)]);
  rows.push(['… by nobody', shareText(lead.trumpUnmarried)]);
  rows.push(['The first leader’s side marries more suits than any other', shareText(lead.leaderSideMarriesMost)]);
  const body = rows.map(([name, value]) => `<tr><th scope="row">${escaped(name)}</th><td>${value}</td></tr>`).join('');
  return `<div class="table"><table><tbody>${body}</tbody></table></div>`;
}

function sectionHtml(section: SectionFigures): string {
  const unfinished = section.count - section.finished;
  return `<section class="section" data-game="${escaped(section.game)}">
<h2>${escaped(section.title)} <span class="options">${escaped(optionsInWords(section.options))}</span></h2>
<p class="meta">${section.count} games${unfinished > 0 ? ` (${unfinished} unfinished, left out of the win shares and game lengths)` : ''} · rules ${section.rules} · played by ${escaped(BOTS_IN_WORDS[section.bots] ?? section.bots)}</p>
<h3>Hands per game</h3>
${histogramSvg(section.handsPerGame.histogram, { label: `Hands per game in ${section.finished} finished games` })}
<p class="note">Mean ${meanText(section.handsPerGame)}, median ${section.handsPerGame.median ?? '—'}, p90 ${section.handsPerGame.p90 ?? '—'}.</p>
<h3>Who wins</h3>
${shareBarsSvg(winRows(section), { label: 'Share of finished games each seat and team is among the winners' })}
<p class="note">Each bar: the share of finished games in which that seat (or team) is among the winners, with its 95% interval; the dashed line is a fair share.</p>
${seatTestText(section)}
${loneRoleHtml(section)}
<h3>Figures</h3>
${figureTable(section)}
</section>`;
}

function comparisonHtml(comparison: Comparison): string {
  const rows = comparison.differences.map((difference) => ({
    label: difference.figure,
    difference: difference.difference,
    ci95: difference.ci95,
  }));
  const items = comparison.differences
    .map(
      (difference) =>
        `<tr><th scope="row">${escaped(difference.figure)}</th><td>${fixed(difference.from, 3)}</td><td>${fixed(difference.to, 3)}</td><td>${difference.difference >= 0 ? '+' : ''}${fixed(difference.difference, 3)} <span class="ci">(95% ${fixed(difference.ci95[0], 3)} to ${fixed(difference.ci95[1], 3)})</span></td></tr>`,
    )
    .join('');
  const from = escaped(comparison.from);
  const to = escaped(comparison.to);
  return `<section class="comparison">
<h3>${escaped(rulesOf(comparison.game).title)}: ${escaped(comparison.setting)} ${from} → ${to} <span class="options">${escaped(optionsInWords(comparison.common))}</span></h3>
${differencesSvg(rows, { label: `What ${comparison.setting} ${comparison.from} → ${comparison.to} changes` })}
<div class="table"><table><thead><tr><th>figure</th><th>${from}</th><th>${to}</th><th>difference</th></tr></thead><tbody>${items}</tbody></table></div>
</section>`;
}

export function reportHtml(stats: LabStats, { title = 'The designer’s lab' }: { title?: string } = {}): string {
  const comparisons =
    stats.comparisons.length === 0
      ? ''
      : `<h2 id="side-by-side">Options side by side</h2><p class="note">Each row: the second setting’s figure minus the first’s, with its 95% interval; a filled row’s interval leaves out zero. Intervals: Welch’s for means, Newcombe’s for shares.</p>${stats.comparisons.map(comparisonHtml).join('\n')}`;
  const skipped =
    stats.skipped.length === 0
      ? ''
      : `<h2>Left out</h2><ul class="skipped">${stats.skipped.map((entry) => `<li><code>${escaped(entry.file)}</code>: ${escaped(entry.problem)}</li>`).join('')}</ul>`;
  const sections = stats.sections.length === 0 ? '<p class="none">No games yet.</p>' : stats.sections.map(sectionHtml).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header><h1>${escaped(title)}</h1><p class="meta">${escaped(stats.source)}. Intervals are 95%: Wilson’s for shares, Student’s t for means (docs/lab.md).</p></header>
<main>
${sections}
${comparisons}
${skipped}
</main>
</body>
</html>
`;
}
