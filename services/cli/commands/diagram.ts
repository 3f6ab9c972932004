import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { GAME_NAMES, GAME_NAMES_IN_WORDS, isGameName, type GameName } from '../../../machines/table/options.js';
import {
  DIAGRAM_FORMATS,
  diagramFileName,
  isDiagramFormat,
  modelOfGame,
  renderDiagram,
  withMermaidBlocks,
  type DiagramFormat,
} from '../../diagram/files.js';
import { toMermaid } from '../../diagram/mermaid.js';
import { optionalStringFlag, stringFlag, UsageError, type ParsedArgs } from '../args.js';
import type { Command } from '../command.js';

const FORMAT_OF_EXTENSION: Record<string, DiagramFormat> = {
  '.svg': 'svg',
  '.dot': 'dot',
  '.gv': 'dot',
  '.mmd': 'mermaid',
  '.mermaid': 'mermaid',
};

export const diagramCommand: Command = {
  name: 'diagram',
  flags: ['game', 'format', 'out', 'all', 'out-dir', 'doc'],
  usage:
    'suitors diagram --game sevenSuitors|antiCupid|traitorOfLove [--format svg|dot|mermaid] --out FILE|-  (or: --all --out-dir DIR [--doc FILE])',
  summary:
    "draw a game's statechart from its machine definition (format from --format, else from the file's extension, else svg); --all writes every game in every format, and --doc refreshes the Mermaid blocks of a Markdown page",
  async run(args) {
    return args.flags.has('all') ? writeAll(args) : writeOne(args);
  },
};

async function writeOne(args: ParsedArgs): Promise<number> {
  const game = gameFlag(args);
  const out = stringFlag(args, 'out');
  const format = formatFlag(args, out);
  const diagram = await renderDiagram(modelOfGame(game), format);
  if (out === '-') {
    process.stdout.write(diagram);
    return 0;
  }
  writeFile(out, diagram);
  console.log(`${game} as ${format} -> ${out}`);
  return 0;
}

async function writeAll(args: ParsedArgs): Promise<number> {
  if (args.flags.has('game') || args.flags.has('out') || args.flags.has('format')) {
    throw new UsageError('--all writes every game in every format: give --out-dir DIR, not --game, --format or --out');
  }
  const dir = stringFlag(args, 'out-dir');
  const doc = optionalStringFlag(args, 'doc');
  if (doc !== undefined && !existsSync(doc))
    throw new UsageError(`--doc ${doc} does not exist; give the Markdown page whose Mermaid blocks to refresh`);
  mkdirSync(dir, { recursive: true });
  for (const game of GAME_NAMES) {
    const model = modelOfGame(game);
    for (const format of DIAGRAM_FORMATS) {
      const path = join(dir, diagramFileName(game, format));
      writeFile(path, await renderDiagram(model, format));
      console.log(`${game} as ${format} -> ${path}`);
    }
  }
  if (doc !== undefined) {
    const mermaid = Object.fromEntries(GAME_NAMES.map((game) => [game, toMermaid(modelOfGame(game))]));
    writeFileSync(doc, withMermaidBlocks(readFileSync(doc, 'utf8'), mermaid));
    console.log(`Mermaid blocks of ${GAME_NAMES.join(', ')} -> ${doc}`);
  }
  return 0;
}

function gameFlag(args: ParsedArgs): GameName {
  const game = stringFlag(args, 'game');
  if (!isGameName(game)) throw new UsageError(`--game must be ${GAME_NAMES_IN_WORDS}, not "${game}"`);
  return game;
}

function formatFlag(args: ParsedArgs, out: string): DiagramFormat {
  const given = optionalStringFlag(args, 'format');
  if (given === undefined) return FORMAT_OF_EXTENSION[extname(out).toLowerCase()] ?? 'svg';
  if (!isDiagramFormat(given)) throw new UsageError(`--format must be svg, dot or mermaid, not "${given}"`);
  return given;
}

function writeFile(path: string, contents: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, contents);
}
