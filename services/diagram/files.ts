/**
 * The committed diagrams: each game's machine in each format, named
 * docs/diagrams/<game>.<extension>, and the Mermaid blocks of a Markdown
 * page that shows them. One function makes each, for the CLI that writes
 * them and the test that checks the committed ones are current.
 */
import { machineFor } from '../../machines/games/index.js';
import type { GameName } from '../../machines/table/options.js';
import { toDot, type DotOptions } from './dot.js';
import { toMermaid } from './mermaid.js';
import { diagramModelOf, type DiagramModel } from './model.js';
import { renderSvg } from './svg.js';

export type DiagramFormat = 'svg' | 'dot' | 'mermaid';
export const DIAGRAM_FORMATS: readonly DiagramFormat[] = ['svg', 'dot', 'mermaid'];

const FILE_EXTENSIONS: Record<DiagramFormat, string> = { svg: 'svg', dot: 'dot', mermaid: 'mmd' };

/** The command that rewrites the committed diagrams, for messages that ask for it. */
export const REGENERATE_COMMAND = 'node services/cli/bin.js diagram --all --out-dir docs/diagrams --doc docs/diagrams.md';

export function isDiagramFormat(value: unknown): value is DiagramFormat {
  return typeof value === 'string' && (DIAGRAM_FORMATS as readonly string[]).includes(value);
}

export function modelOfGame(game: GameName): DiagramModel {
  return diagramModelOf(machineFor(game));
}

export async function renderDiagram(model: DiagramModel, format: DiagramFormat, options: DotOptions = {}): Promise<string> {
  if (format === 'mermaid') return toMermaid(model);
  const dot = toDot(model, options);
  return format === 'dot' ? dot : renderSvg(dot);
}

export function diagramFileName(game: GameName, format: DiagramFormat): string {
  return `${game}.${FILE_EXTENSIONS[format]}`;
}

const blockStart = (game: GameName) => `<!-- mermaid:${game} (generated: ${REGENERATE_COMMAND}) -->`;
const blockEnd = (game: GameName) => `<!-- /mermaid:${game} -->`;

/** The Mermaid block of a game as a page embeds it, between markers that say how to regenerate it. */
export function mermaidBlock(game: GameName, mermaid: string): string {
  return `${blockStart(game)}\n\`\`\`mermaid\n${mermaid}\`\`\`\n${blockEnd(game)}`;
}

/** The games whose marked Mermaid blocks a page has. */
export function gamesWithMermaidBlocks(markdown: string, games: readonly GameName[]): GameName[] {
  return games.filter((game) => markdown.includes(blockStart(game)) && markdown.includes(blockEnd(game)));
}

/** The page with each given game's marked Mermaid block replaced by `mermaid`. */
export function withMermaidBlocks(markdown: string, mermaidByGame: Partial<Record<GameName, string>>): string {
  let page = markdown;
  for (const [game, mermaid] of Object.entries(mermaidByGame) as [GameName, string][]) {
    const start = page.indexOf(blockStart(game));
    const end = page.indexOf(blockEnd(game), start);
    if (start < 0 || end < 0) {
      throw new Error(`the page has no Mermaid block for ${game}: mark one with the lines ${blockStart(game)} and ${blockEnd(game)}`);
    }
    page = page.slice(0, start) + mermaidBlock(game, mermaid) + page.slice(end + blockEnd(game).length);
  }
  return page;
}
