/**
 * What a new table starts with: its `table.created` and the seats taken at
 * once, from a create request checked here, before anything is logged.
 * (A record's import and a fork plan theirs in recordImport/ and tableFork.ts.)
 */
import { randomUUID } from 'node:crypto';
import type { TableEvent } from '../../machines/table/events.js';
import { GAME_NAMES_IN_WORDS, isGameName, parseOptions } from '../../machines/table/options.js';
import { TableRefusal } from './errors.js';
import { hostCommitmentOf, newDealSecret } from './dealer.js';
import { rulesOfNewTable, type TableCreated } from './tableLog.js';
import type { CreateTableRequest } from './tableService.js';

export interface NewTablePlan {
  readonly created: TableCreated;
  /** Events the table takes right after its creation, before whatever the host owes it. */
  readonly events: readonly TableEvent[];
}

/** The plan of the table `request` asks for; a TableRefusal ('malformed') says what is wrong with it. */
export function planNewTable(request: CreateTableRequest): NewTablePlan {
  const { game } = request;
  if (!isGameName(game)) {
    throw new TableRefusal('malformed', `game must be ${GAME_NAMES_IN_WORDS}, not ${JSON.stringify(game)}`);
  }
  const given = request.options ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new TableRefusal('malformed', 'options must be an object of option names to values');
  }
  const parsed = parseOptions(game, given as Record<string, unknown>);
  if (!parsed.ok) throw new TableRefusal('malformed', parsed.errors.join('; '));
  const secrets = request.seed === undefined ? { dealSecret: newDealSecret() } : { seed: request.seed };
  const created: TableCreated = {
    game,
    options: parsed.options,
    ...rulesOfNewTable(game),
    ...secrets,
    // Published at once: seats contribute to the first hand while the table fills.
    firstCommitment: hostCommitmentOf(secrets, 0),
    ...(request.cardsPerSeat === undefined ? {} : { cardsPerSeat: request.cardsPerSeat }),
    ...(request.settings === undefined ? {} : { settings: request.settings }),
  };
  const events: TableEvent[] = (request.players ?? []).flatMap((player, seat) =>
    player === null ? [] : [{ type: 'seat.joined' as const, seat, player }],
  );
  return { created, events };
}

export function newTableId(): string {
  return `t-${randomUUID().slice(0, 13)}`;
}
