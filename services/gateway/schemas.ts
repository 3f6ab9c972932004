/**
 * The shapes of the API's requests and responses (docs/api.md), as TypeBox
 * schemas: Fastify validates requests against them and the OpenAPI document
 * at /docs is written from them.
 */
import { Type, type Static } from 'typebox';
import { GAME_NAMES, GAME_NAMES_IN_WORDS, type GameName } from '../../machines/table/options.js';
import type { BotKind } from '../bots/botRunner.js';
import { PLAYER_NAME_MAX, PLAYER_NAME_SENT_MAX } from './playerNames.js';

const MAX_TURN_SECONDS = 86_400;
/** The shortest turn clock by default: a shorter one runs out before a person sees the turn is theirs, let alone moves. */
const DEFAULT_MIN_TURN_SECONDS = 5;

const PLAYER_NAME_RULES =
  `the name the table shows: read in Unicode NFC with white space and invisible characters around it trimmed, at most ${PLAYER_NAME_MAX} characters, ` +
  'with no control, line-break or bidirectional formatting character, something visible, and not a name a bot carries ' +
  '("Heuristic bot 1", "Bot for Ada"); a name that breaks a rule is 400 with the rule in `rule`';

const Seat = Type.Integer({ minimum: 0, description: 'a seat number, 0 to seats - 1' });
const CardName = Type.String({ maxLength: 12, description: 'a card: "<suit>-<rank>" (e.g. "3-9", "3-7a") or a special card' });

export const ErrorBody = Type.Object(
  {
    error: Type.String({
      description:
        'badRequest, unauthorized, forbidden, unknownTable, notFound, notNow, notQuarantined, tooLarge, malformed, illegal, invalidRecord, rateLimited, unavailable, quarantined',
    }),
    message: Type.String({ description: 'what was wrong and what would be right' }),
    tableId: Type.Optional(Type.String({ description: 'quarantined only: the table' })),
    seq: Type.Optional(
      Type.Integer({ description: "quarantined only: the seq of the first event of the table's log the machine refuses" }),
    ),
    eventType: Type.Optional(Type.String({ description: "quarantined only: that event's type" })),
    reason: Type.Optional(Type.String({ description: 'quarantined only: why the machine refuses it' })),
    rule: Type.Optional(
      Type.String({ description: 'a refused player name only: the rule it broke (unpaired, control, bidi, invisible, length, botName)' }),
    ),
  },
  { $id: 'Refusal' },
);

/** A route's refusals, for its schema: each status answered with an ErrorBody. */
export function refusals(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

export const TableParams = Type.Object({ tableId: Type.String({ minLength: 1, maxLength: 64 }) });
export const SeatParams = Type.Object({ tableId: Type.String({ minLength: 1, maxLength: 64 }), seat: Seat });

const BotSeat = Type.Union(
  [
    Seat,
    Type.Object({ seat: Seat, kind: Type.Union([Type.Literal('heuristic'), Type.Literal('random')]) }, { additionalProperties: false }),
  ],
  { description: 'a seat number, or { "seat": <seat>, "kind": "heuristic" | "random" }' },
);

export const CreateTableBody = Type.Object(
  {
    game: Type.Unsafe<GameName>(
      Type.Union(
        GAME_NAMES.map((game) => Type.Literal(game)),
        { description: GAME_NAMES_IN_WORDS },
      ),
    ),
    options: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'rules options (docs/rules.md, "Table options"); defaults filled in' }),
    ),
    bots: Type.Optional(
      Type.Array(BotSeat, {
        maxItems: 6,
        description: 'seats bots take at once: a seat number (the heuristic bot) or { seat, kind: "heuristic" | "random" }',
      }),
    ),
    turnSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_TURN_SECONDS,
        description: `a turn clock, from ${DEFAULT_MIN_TURN_SECONDS} (the service's minimum by default) to ${MAX_TURN_SECONDS} seconds: a seat that lets it run out is played by a bot for that turn`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateTableBody = Static<typeof CreateTableBody>;
// The schema spells out the games and bot kinds; these fail to compile when the core's lists change.
const sameGames: GameName extends CreateTableBody['game'] ? (CreateTableBody['game'] extends GameName ? true : never) : never = true;
type BotKindInBody = Exclude<NonNullable<CreateTableBody['bots']>[number], number>['kind'];
const sameBotKinds: BotKind extends BotKindInBody ? (BotKindInBody extends BotKind ? true : never) : never = true;
void sameGames;
void sameBotKinds;

export const CreatedTable = Type.Object({ tableId: Type.String(), version: Type.Integer() });

const LobbyEntry = Type.Object({
  tableId: Type.String(),
  game: Type.String(),
  phase: Type.String(),
  openSeats: Type.Array(Type.Integer()),
  hand: Type.Integer({ description: 'the hand in play, from 1; 0 before the first deal' }),
  finished: Type.Boolean(),
  version: Type.Integer(),
  lastEventAt: Type.String({ description: "when the table's last event happened (ISO time)" }),
  quarantine: Type.Optional(
    Type.Object(
      { seq: Type.Integer(), reason: Type.String() },
      {
        description:
          'a quarantined table only (phase "quarantined"): the first event of its log the machine refuses, and why; it is refused until an operator repairs it',
      },
    ),
  ),
});
export const Lobby = Type.Object({
  tables: Type.Array(LobbyEntry),
  page: Type.Integer({ description: 'this page, from 1' }),
  pages: Type.Integer({ description: 'how many pages there are (at least 1)' }),
  total: Type.Integer({ description: 'how many tables all the pages hold' }),
});
export const LobbyQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'the page, from 1 (default 1)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'tables per page (default 50, at most 100)' })),
  },
  { additionalProperties: false },
);

export const JoinSeatBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: PLAYER_NAME_SENT_MAX, description: PLAYER_NAME_RULES }),
    token: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{43}$',
        description:
          'a seat token the client made itself (32 random bytes, base64url): the join may then be sent again, to any gateway, ' +
          'and answers with the same seat if the first one took it but its answer was lost',
      }),
    ),
  },
  { additionalProperties: false },
);
export const JoinedSeat = Type.Object({
  tableId: Type.String(),
  seat: Type.Integer(),
  token: Type.String({ description: 'the seat credential: send it as Authorization: Bearer <token>' }),
  version: Type.Integer(),
});
export const LeftSeat = Type.Object({ tableId: Type.String(), seat: Type.Integer(), version: Type.Integer() });

const CommandSeat = Type.Optional(Type.Integer({ description: 'the seat the command is for; taken from the token when omitted' }));

export const CommandBody = Type.Union([
  Type.Object(
    {
      type: Type.Literal('cards.passed'),
      seat: CommandSeat,
      passes: Type.Array(Type.Object({ to: Seat, card: CardName }, { additionalProperties: false }), { maxItems: 6 }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('card.played'), seat: CommandSeat, card: CardName }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('traitor.accused'), seat: CommandSeat, accused: Seat }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal('deal.contributed'),
      seat: CommandSeat,
      hand: Type.Integer({ minimum: 0, description: 'the index of the hand it is for: view.nextDeal.index' }),
      contribution: Type.String({ pattern: '^[0-9a-f]{64}$', description: '32 random bytes of your own, 64 lowercase hex characters' }),
    },
    { additionalProperties: false },
  ),
]);
export type CommandBody = Static<typeof CommandBody>;

export const CommandAccepted = Type.Object({
  version: Type.Integer(),
  events: Type.Array(Type.Object({ seq: Type.Integer(), type: Type.String() })),
});

const ActiveStates = Type.Array(Type.String(), {
  description:
    'the ids of the statechart states the table is in, the root first (e.g. "sevenSuitors", "sevenSuitors.trickPlay", "sevenSuitors.trickPlay.leading"): the state groups of /machines/<game>.svg to highlight',
});

const TableViewSchema = Type.Unknown({
  description: 'what the viewer may see of the table (docs/rules.md section 8): game, phase, seats, awaiting, hand, scores, outcome',
});

export const ViewResponse = Type.Object({
  version: Type.Integer(),
  view: TableViewSchema,
  turnDeadline: Type.Union([Type.String(), Type.Null()], {
    description: 'when the turn clock runs out for the seats awaited (ISO time), or null',
  }),
  activeStates: ActiveStates,
});

export const LogResponse = Type.Object({
  events: Type.Array(Type.Object({ seq: Type.Integer(), type: Type.String(), at: Type.String(), data: Type.Unknown() })),
});

export const RecordDocument = Type.Object(
  { format: Type.String(), game: Type.String() },
  { additionalProperties: true, description: 'a game record (docs/record-format.md)' },
);

export const ReplayQuery = Type.Object({
  at: Type.Integer({ minimum: 1, description: 'the event to replay to (1 = created)' }),
  seat: Type.Optional(Type.Integer({ minimum: 0, description: "a finished game only: the view is that seat's own view at event `at`" })),
});
export const ReplayResponse = Type.Object({
  at: Type.Integer(),
  version: Type.Integer({ description: "the table's last event: replays may go up to here" }),
  phase: Type.String(),
  state: Type.Unknown({ description: 'the statechart state right after event `at`, as XState writes it (e.g. {"trickPlay":"leading"})' }),
  activeStates: ActiveStates,
  view: Type.Unknown({
    description: "the spectator view; once the game is over, the view with every hand open, or with `seat` that seat's own view",
  }),
});

export const RepairResponse = Type.Object({
  tableId: Type.String(),
  voided: Type.Array(Type.Integer(), { description: 'the seqs of the events the repair voided: every one the machine refused' }),
  reasons: Type.Array(Type.String(), { description: 'why the machine refused each, in the same order' }),
  version: Type.Integer({
    description: "the table's version after the repair (its `table.repaired` event, and the next deal if one was owed)",
  }),
});

export const ForkBody = Type.Object(
  {
    at: Type.Integer({
      minimum: 1,
      description: 'the event of the finished game to play on from: the new table starts as the game stood right after it',
    }),
    seat: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'the seat to take at the new table (with name); every other seat is a bot a person may take',
      }),
    ),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: PLAYER_NAME_SENT_MAX, description: `with seat: ${PLAYER_NAME_RULES}` })),
  },
  { additionalProperties: false },
);
export const ForkedTable = Type.Object({
  tableId: Type.String(),
  version: Type.Integer(),
  seat: Type.Optional(Type.Integer()),
  token: Type.Optional(
    Type.String({ description: 'the seat credential, when a seat was taken: send it as Authorization: Bearer <token>' }),
  ),
});

export const SocketQuery = Type.Object(
  {
    // writeOnly: a refusal of the query never repeats the token (services/gateway/validation.ts).
    token: Type.Optional(Type.String({ maxLength: 100, writeOnly: true })),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'the last version the client saw; only later changes are sent' })),
    views: Type.Optional(
      Type.Union([Type.Literal('whole'), Type.Literal('changes')], {
        description:
          'whole (the default): every version as a whole view; changes: the whole view first, then each version as what changed since the one before',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A message a client sends over a table's socket. */
export const SocketMessage = Type.Object(
  {
    type: Type.Literal('command'),
    id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Number()])),
    command: Type.Unknown(),
  },
  { additionalProperties: false },
);
export type SocketMessage = Static<typeof SocketMessage>;
