/**
 * Tables of bots alone (made so, or forked with nobody taking a seat) play
 * themselves at bot pace until the game ends: a CPU and storage cost with
 * nobody at the table, so those in play are capped per client (429) and in
 * all (503, naming tables to watch instead). Counted per gateway, as the
 * budgets are, until the store's listing shows them finished or quarantined.
 */
import type { TableSummary } from '../eventstore/eventStore.js';
import type { GatewayLimits } from './limits.js';
import { GatewayRefusal } from './refusals.js';
import { Reservations } from './reservations.js';

/** Tables of bots alone a full cap's refusal names, to watch instead. */
const BOT_TABLES_SHOWN = 3;

export class BotTableCap {
  /** Tables of bots alone made through this gateway, by creator, until the listing shows them over. */
  private readonly made = new Map<string, string>();
  private readonly reserved = new Reservations();

  constructor(
    private readonly limits: Pick<GatewayLimits, 'botTablesPerClient' | 'botTablesInAll'>,
    /** The store's tables, as the lobby lists them. */
    private readonly tables: () => Promise<readonly TableSummary[]>,
  ) {}

  /**
   * Makes room for a new table of bots alone by `client` (created so, or a
   * fork nobody takes a seat at), or refuses: 429 past the client's cap, 503
   * past the cap in all, naming tables of bots to watch instead. Called with
   * the new table's id once it is made, or with nothing if it was not.
   */
  async reserve(client: string): Promise<(tableId?: string) => void> {
    const playing = await this.inPlay();
    const mine = this.reserved.of(client) + playing.filter(([, creator]) => creator === client).length;
    const { botTablesPerClient: perClient, botTablesInAll: inAll } = this.limits;
    if (mine >= perClient) {
      throw new GatewayRefusal(
        'rateLimited',
        `${client} has ${perClient} tables of bots alone in play, the most one client may; watch one, or wait until one of them ends`,
      );
    }
    if (playing.length + this.reserved.inAll >= inAll) {
      const watch = playing.slice(0, BOT_TABLES_SHOWN).map(([tableId]) => `table ${tableId}`);
      throw new GatewayRefusal(
        'unavailable',
        `the service has ${inAll} tables of bots alone in play, the most it runs at once; watch ${watch.join(', ')}, or try again later`,
      );
    }
    return this.reserved.take(client, (tableId) => this.made.set(tableId, client));
  }

  /** The tables of bots alone made here that are still in play (not finished, not quarantined, not gone), oldest first. */
  private async inPlay(): Promise<[tableId: string, creator: string][]> {
    if (this.made.size === 0) return [];
    const listed = new Map((await this.tables()).map((table) => [table.tableId, table]));
    for (const tableId of this.made.keys()) {
      // Not listed: made since the listing, so in play.
      const status = listed.get(tableId)?.status;
      if (status?.finished === true || status?.phase === 'quarantined') this.made.delete(tableId);
    }
    return [...this.made];
  }
}
