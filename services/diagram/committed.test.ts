/**
 * The diagrams committed under docs/ are what the machines draw today, so
 * the docs cannot go stale: change a machine and this fails until the
 * diagrams are regenerated.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_NAMES } from '../../machines/table/options.js';
import {
  DIAGRAM_FORMATS,
  REGENERATE_COMMAND,
  diagramFileName,
  gamesWithMermaidBlocks,
  mermaidBlock,
  modelOfGame,
  renderDiagram,
} from './files.js';
import { toMermaid } from './mermaid.js';

const DIAGRAMS = 'docs/diagrams';
const PAGE = 'docs/diagrams.md';
const STALE = `is stale: the machines draw something else now. Run \`${REGENERATE_COMMAND}\` and commit the result`;

describe.each(GAME_NAMES)('the committed %s diagram', (game) => {
  it.each(DIAGRAM_FORMATS)('as %s is what the machine draws', async (format) => {
    const path = join(DIAGRAMS, diagramFileName(game, format));
    expect(existsSync(path), `${path} is missing. Run \`${REGENERATE_COMMAND}\` and commit the result`).toBe(true);
    const fresh = await renderDiagram(modelOfGame(game), format);
    expect(readFileSync(path, 'utf8') === fresh, `${path} ${STALE}`).toBe(true);
  });

  it(`in ${PAGE} is what the machine draws`, () => {
    const page = readFileSync(PAGE, 'utf8');
    expect(gamesWithMermaidBlocks(page, [game]), `${PAGE} has no marked Mermaid block for ${game}`).toEqual([game]);
    expect(page.includes(mermaidBlock(game, toMermaid(modelOfGame(game)))), `the ${game} block of ${PAGE} ${STALE}`).toBe(true);
  });
});

describe(`${PAGE}`, () => {
  it('shows each committed SVG', () => {
    const page = readFileSync(PAGE, 'utf8');
    for (const game of GAME_NAMES) expect(page).toContain(`](diagrams/${diagramFileName(game, 'svg')})`);
  });
});
