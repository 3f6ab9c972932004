/**
 * The game machines: GET /machines lists the games and their rules options;
 * GET /machines/<game>.<svg|dot|mmd|json> is a game's statechart, drawn from
 * its machine definition by services/diagram. Each file is made once per
 * game, on its first request, and kept: a machine changes only with the code.
 *
 * The SVG's state groups carry the XState state ids, and every view the
 * gateway sends carries `activeStates` (activeStatesOf below), the ids of the
 * states the table is in, so a client highlights the current state by
 * toggling a class on the SVG it fetched once.
 *
 * With `?fleet=1` the SVG (or its DOT) is the fleet overlay (GET /api/fleet)
 * drawn on it: each state shaded and labelled with its live tables, each
 * edge as thick as it is taken. That one is drawn again only when the
 * counts have changed, and at most once per game every FLEET_REDRAW_MS, so
 * however often it is asked for, Graphviz runs a few times a minute. With
 * `&from=&to=` (GET /api/fleet's range) it is the games that ended in that
 * range of hours: their transitions, each as thick as it was taken.
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  allowedOptionValues,
  DEFAULT_OPTIONS,
  GAME_NAMES,
  GAMES,
  GAME_NAMES_IN_WORDS,
  isGameName,
  type GameName,
} from '../../../machines/table/options.js';
import type { TableSnapshot } from '../../../machines/table/snapshot.js';
import { activeStateIds } from '../../diagram/active.js';
import { fleetDrawingOf, type FleetCounts } from '../../diagram/fleetDrawing.js';
import { modelOfGame, renderDiagram } from '../../diagram/files.js';
import type { DiagramModel } from '../../diagram/model.js';
import type { GatewayFleet } from '../fleetOverlay.js';
import { GatewayRefusal } from '../refusals.js';
import { ErrorBody } from '../schemas.js';
import { FinishedRangeQuery, finishedRangeOf } from './fleetRoutes.js';

type FinishedRange = { readonly from: number; readonly to: number };

/** The files of a machine, by extension. */
const MACHINE_FILES = {
  svg: { contentType: 'image/svg+xml; charset=utf-8', what: 'the statechart drawn by Graphviz; its state groups have the state ids' },
  dot: { contentType: 'text/vnd.graphviz; charset=utf-8', what: 'the Graphviz source of the SVG' },
  mmd: { contentType: 'text/plain; charset=utf-8', what: 'the statechart as Mermaid stateDiagram-v2' },
  json: {
    contentType: 'application/json; charset=utf-8',
    what: 'the diagram model: every state and transition (services/diagram/model.ts)',
  },
} as const;
export type MachineFileExtension = keyof typeof MACHINE_FILES;
const EXTENSIONS = Object.keys(MACHINE_FILES) as MachineFileExtension[];

interface MachineFile {
  readonly body: string;
  readonly etag: string;
}

const models = new Map<GameName, DiagramModel>();
const files = new Map<string, Promise<MachineFile>>();

/** A game's diagram model, read from its machine once. */
function diagramModelFor(game: GameName): DiagramModel {
  let model = models.get(game);
  if (model === undefined) {
    model = modelOfGame(game);
    models.set(game, model);
  }
  return model;
}

/**
 * The ids of the states a table is in, the root first (services/diagram
 * activeStateIds): `["sevenSuitors", "sevenSuitors.trickPlay",
 * "sevenSuitors.trickPlay.leading"]`. Read from the snapshot's own nodes, or
 * for a snapshot that has only its value, against the game's model. State
 * ids are no hidden information: every seat and spectator may have them.
 */
export function activeStatesOf(snapshot: TableSnapshot): string[] {
  return activeStateIds(snapshot, diagramModelFor(snapshot.context.game));
}

/** A machine file, made on its first request and kept; a failure is not kept, so the next request tries again. */
export function machineFile(game: GameName, extension: MachineFileExtension): Promise<MachineFile> {
  const key = `${game}.${extension}`;
  let file = files.get(key);
  if (file === undefined) {
    file = makeFile(game, extension).then((body) => ({ body, etag: etagOf(body) }));
    files.set(key, file);
    file.catch(() => files.delete(key));
  }
  return file;
}

async function makeFile(game: GameName, extension: MachineFileExtension): Promise<string> {
  const model = diagramModelFor(game);
  switch (extension) {
    case 'svg':
      return renderDiagram(model, 'svg');
    case 'dot':
      return renderDiagram(model, 'dot');
    case 'mmd':
      return renderDiagram(model, 'mermaid');
    case 'json':
      return `${JSON.stringify(model, null, 2)}\n`;
  }
}

/** A game as GET /machines lists it. */
function machineEntry(game: GameName) {
  const allowed = allowedOptionValues(game);
  return {
    game,
    title: GAMES[game].title,
    seats: GAMES[game].seats,
    options: Object.fromEntries(
      Object.entries(allowed).map(([name, values]) => [name, { values: [...values], default: DEFAULT_OPTIONS[game][name] }]),
    ),
    diagrams: Object.fromEntries(EXTENSIONS.map((extension) => [extension, `/machines/${game}.${extension}`])),
  };
}

const MachineEntry = Type.Object({
  game: Type.String({ description: GAME_NAMES_IN_WORDS }),
  title: Type.String(),
  seats: Type.Integer(),
  options: Type.Record(
    Type.String(),
    Type.Object({
      values: Type.Array(Type.String(), {
        description: '"hands:K" stands for K hands and "marriages:M" for M marriages, K and M from 1 to 999',
      }),
      default: Type.String(),
    }),
    { description: 'the rules options of POST /api/tables (docs/rules.md, "Table options")' },
  ),
  diagrams: Type.Record(Type.String(), Type.String(), { description: 'the paths of the statechart files, by extension' }),
});

/** The least time between two drawings of one game's live fleet overlay: a request in between gets the last one. */
const FLEET_REDRAW_MS = 2000;
/**
 * Drawings of finished games' ranges kept, by the counts drawn: ranges
 * that hold the same games share one, and a client asking for range after
 * range makes Graphviz draw one per new set of counts, which the rate
 * limit bounds, while the memory they take stays this many drawings.
 */
const RANGE_DRAWINGS_KEPT = 16;

interface FleetFile extends MachineFile {
  /** The counts it was drawn from, as JSON. */
  readonly counts: string;
  readonly drawnAt: number;
}

/**
 * One game's fleet overlay files (svg, dot): the live one, redrawn when the
 * counts change and at most once per FLEET_REDRAW_MS; or, for a range of
 * finished games, their transitions (no table is in a state any more).
 */
function fleetFiles(fleet: GatewayFleet) {
  const live = new Map<string, Promise<FleetFile>>();
  const ranges = new Map<string, Promise<FleetFile>>();
  const draw = (game: GameName, extension: 'svg' | 'dot', counts: FleetCounts, countsJson: string) =>
    renderDiagram(diagramModelFor(game), extension, { fleet: fleetDrawingOf(diagramModelFor(game), counts) }).then(
      (body): FleetFile => ({ body, etag: etagOf(body), counts: countsJson, drawnAt: Date.now() }),
    );
  return async (game: GameName, extension: 'svg' | 'dot', range: FinishedRange | null): Promise<MachineFile> => {
    const key = `${game}.${extension}`;
    if (range !== null) {
      const counts = {
        states: [],
        transitions: (await fleet.finished(range)).games.filter((entry) => entry.game === game).flatMap((entry) => entry.transitions),
      };
      const countsJson = JSON.stringify(counts);
      const rangeKey = `${key} ${countsJson}`;
      let drawing = ranges.get(rangeKey);
      if (drawing === undefined) {
        drawing = draw(game, extension, counts, countsJson);
        drawing.catch(() => ranges.delete(rangeKey));
        ranges.set(rangeKey, drawing);
        if (ranges.size > RANGE_DRAWINGS_KEPT) ranges.delete(ranges.keys().next().value!);
      }
      return drawing;
    }
    const last = await live.get(key)?.catch(() => undefined);
    if (last !== undefined && Date.now() - last.drawnAt < FLEET_REDRAW_MS) return last;
    const entries = (await fleet.report()).games.filter((entry) => entry.game === game);
    const counts = {
      states: mergeCounts(entries.flatMap((entry) => entry.states).map(({ state, tables }) => [state, tables])).map(([state, tables]) => ({
        state,
        tables,
      })),
      transitions: entries.flatMap((entry) => entry.transitions),
    };
    const countsJson = JSON.stringify(counts);
    if (last !== undefined && last.counts === countsJson) return last;
    const drawing = draw(game, extension, counts, countsJson);
    live.set(key, drawing);
    return drawing;
  };
}

/** The live tables per state over every rules version of a game. */
function mergeCounts(pairs: readonly (readonly [string, number])[]): [string, number][] {
  const merged = new Map<string, number>();
  for (const [state, tables] of pairs) merged.set(state, (merged.get(state) ?? 0) + tables);
  return [...merged];
}

function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

const MachineFileQuery = Type.Object({
  fleet: Type.Optional(
    Type.Union([Type.Literal('1'), Type.Literal('0')], {
      description:
        '1: the fleet overlay (GET /api/fleet) drawn on the .svg or .dot: live tables per state, edges as thick as taken; with from and to, the transitions of the games that ended in that range',
    }),
  ),
  ...FinishedRangeQuery,
});

const MachineFileParams = Type.Object({
  file: Type.String({
    maxLength: 64,
    description: '<game>.<extension>: sevenSuitors.svg, antiCupid.dot, traitorOfLove.mmd, sevenSuitors.json …',
  }),
});

export function machineRoutes(fleet: GatewayFleet): FastifyPluginAsyncTypebox {
  const fleetFile = fleetFiles(fleet);
  return async (app) => {
    app.get(
      '/machines',
      {
        schema: {
          summary: 'The games: seats, rules options with their values and defaults, and their statechart files',
          tags: ['machines'],
          response: { 200: Type.Array(MachineEntry) },
        },
      },
      async () => GAME_NAMES.map(machineEntry),
    );

    app.get(
      '/machines/:file',
      {
        schema: {
          summary: "A game's statechart: <game>.svg, .dot, .mmd (Mermaid) or .json (the diagram model)",
          description: EXTENSIONS.map(
            (extension) => `.${extension}: ${MACHINE_FILES[extension].what} (${MACHINE_FILES[extension].contentType})`,
          ).join('; '),
          tags: ['machines'],
          params: MachineFileParams,
          querystring: MachineFileQuery,
          response: {
            200: Type.String({ description: 'the file, with an ETag' }),
            304: Type.Null({ description: 'unchanged since the ETag sent in If-None-Match' }),
            400: ErrorBody,
            404: ErrorBody,
            503: ErrorBody,
          },
        },
      },
      async (request, reply) => {
        const { game, extension } = parseFileName(request.params.file);
        const range = finishedRangeOf(request.query);
        if (range !== null && request.query.fleet !== '1') {
          throw new GatewayRefusal(
            'badRequest',
            `from and to are a range of the fleet overlay: ask for /machines/${game}.svg?fleet=1&from=…&to=…`,
          );
        }
        const file =
          request.query.fleet === '1' ? await fleetFile(game, fleetExtension(game, extension), range) : await machineFile(game, extension);
        reply.header('cache-control', 'no-cache').header('etag', file.etag);
        // A 304 has no body at all (not even JSON's null): the schema's null documents it, undefined sends it.
        if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.code(304).send(undefined as unknown as null);
        return reply.header('content-type', MACHINE_FILES[extension].contentType).send(file.body);
      },
    );
  };
}

function fleetExtension(game: GameName, extension: MachineFileExtension): 'svg' | 'dot' {
  if (extension === 'svg' || extension === 'dot') return extension;
  throw new GatewayRefusal(
    'badRequest',
    `the fleet overlay is drawn on /machines/${game}.svg and /machines/${game}.dot, not on .${extension}: ask for one of those with ?fleet=1`,
  );
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((given) => given.trim().replace(/^W\//, '') === etag) ?? false;
}

function parseFileName(file: string): { game: GameName; extension: MachineFileExtension } {
  const dot = file.lastIndexOf('.');
  const game = dot < 0 ? file : file.slice(0, dot);
  const extension = dot < 0 ? '' : file.slice(dot + 1);
  if (!isGameName(game)) {
    throw new GatewayRefusal('notFound', `there is no game "${game}": the games are ${GAME_NAMES.join(', ')} (GET /machines)`);
  }
  if (!(EXTENSIONS as string[]).includes(extension)) {
    const given = extension === '' ? 'no extension' : `".${extension}"`;
    throw new GatewayRefusal(
      'notFound',
      `${game} has no diagram with ${given}: ask for ${EXTENSIONS.map((e) => `/machines/${game}.${e}`).join(', ')}`,
    );
  }
  return { game, extension: extension as MachineFileExtension };
}
