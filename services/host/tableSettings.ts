/**
 * A table's service settings, kept in its `table.created` event beside the
 * rules: the turn clock, which bot plays each bot seat, and the finished game
 * a table was forked from. The table's owner runs its bots and clock by
 * them; the gateway shows them.
 */
import type { Seat } from '../../machines/rules/trick.js';
import { BOT_KINDS, DEFAULT_BOT_KIND, type BotKind } from '../bots/botRunner.js';
import type { TableCreated } from './tableLog.js';
import type { ForkedFrom } from './tableFork.js';

export interface TableSettings {
  /** The turn clock in seconds; null for none. */
  readonly turnSeconds: number | null;
  /** The bot kind chosen for a seat; seats not named play the default. */
  readonly botKinds: Readonly<Record<number, BotKind>>;
  /** The finished game and event this table plays on from (POST .../fork); null for a table made new. */
  readonly forkedFrom: ForkedFrom | null;
}

/** The settings a new table keeps in its `table.created` event (a forked table's are the host's, services/host/tableFork.ts). */
export function settingsRecord(settings: Pick<TableSettings, 'turnSeconds' | 'botKinds'>): Record<string, unknown> {
  return {
    ...(settings.turnSeconds === null ? {} : { turnSeconds: settings.turnSeconds }),
    ...(Object.keys(settings.botKinds).length === 0 ? {} : { botKinds: settings.botKinds }),
  };
}

/** The settings of a `table.created` event; anything unreadable (an imported table has none) is no setting. */
export function settingsOf(created: Partial<TableCreated>): TableSettings {
  const given = (created.settings ?? {}) as { turnSeconds?: unknown; botKinds?: unknown; forkedFrom?: unknown };
  const turnSeconds = typeof given.turnSeconds === 'number' && given.turnSeconds > 0 ? given.turnSeconds : null;
  const botKinds: Record<number, BotKind> = {};
  if (typeof given.botKinds === 'object' && given.botKinds !== null) {
    for (const [seat, kind] of Object.entries(given.botKinds)) {
      if ((BOT_KINDS as readonly unknown[]).includes(kind)) botKinds[Number(seat)] = kind as BotKind;
    }
  }
  return { turnSeconds, botKinds, forkedFrom: forkedFromOf(given.forkedFrom) };
}

function forkedFromOf(given: unknown): ForkedFrom | null {
  const { tableId, at } = (given ?? {}) as Partial<ForkedFrom>;
  return typeof tableId === 'string' && typeof at === 'number' ? { tableId, at } : null;
}

export function botKindOf(settings: TableSettings, seat: Seat): BotKind {
  return settings.botKinds[seat] ?? DEFAULT_BOT_KIND;
}
