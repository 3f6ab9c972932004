/** The report page as text: what it says of a corpus with nothing finished, and that nothing from a file name runs. */
import { describe, expect, it } from 'vitest';
import { simulateGame } from '../../simulator/simulate.js';
import { withGame } from '../corpus.js';
import { labStatsOf } from '../labStats.js';
import { reportHtml } from './reportHtml.js';

describe('report.html', () => {
  it('escapes the names of the files it left out, and says when no game has finished', () => {
    const { record } = simulateGame({ game: 'antiCupid', options: { specials: 'plain', passing: 'none' }, seed: 'cut', maxHands: 1 });
    expect(record.result.finished).toBe(false);
    const stats = labStatsOf(withGame(new Map(), record, 'random'), {
      source: 'one game cut off',
      skipped: [{ file: 'games/<img src=x onerror=alert(1)>.json', problem: 'not a JSON record: "<" is not valid' }],
    });
    const page = reportHtml(stats);
    expect(page).toContain('games/&lt;img src=x onerror=alert(1)&gt;.json');
    expect(page).not.toContain('<img');
    expect(page).toContain('1 game (1 unfinished, left out of the win shares and game lengths)');
    expect(page).toContain('<p class="none">no finished games</p>');
    expect(page).toContain('No wins to test yet.');
    expect(page).not.toMatch(/<script|https?:\/\//);
  });
});
