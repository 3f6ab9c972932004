/**
 * Who made each table waiting for players through this gateway, indexed by
 * client and by network (clientIdentity.ts, networkOf), each oldest first:
 * so a client's or a network's share of the cap is counted over its own
 * tables, not over every table the service has. A refused creation (most
 * of a flood from many addresses is refused so) then costs a look at a few
 * tables, where counting them from all tables cost the loop a scan of a
 * thousand for each (issue 26: 250 ms turns under the waiting-table fill).
 */
import { networkOf } from './clientIdentity.js';

interface Maker {
  readonly client: string;
  readonly network: string;
  /** The order tables were made in: which of two networks' tables waited longer. */
  readonly order: number;
}

export class TableMakers {
  private readonly byTable = new Map<string, Maker>();
  private readonly byClient = new Map<string, Set<string>>();
  private readonly byNetwork = new Map<string, Set<string>>();
  private made = 0;

  add(tableId: string, client: string): void {
    this.delete(tableId);
    const network = networkOf(client);
    this.byTable.set(tableId, { client, network, order: this.made++ });
    addTo(this.byClient, client, tableId);
    addTo(this.byNetwork, network, tableId);
  }

  delete(tableId: string): void {
    const maker = this.byTable.get(tableId);
    if (maker === undefined) return;
    this.byTable.delete(tableId);
    deleteFrom(this.byClient, maker.client, tableId);
    deleteFrom(this.byNetwork, maker.network, tableId);
  }

  /** How many of `client`'s tables are still open (`open`); those that are not are forgotten. */
  openOfClient(client: string, open: (tableId: string) => boolean): number {
    return this.keepOpen(this.byClient.get(client), open).length;
  }

  /** The same, for the clients of `network`. */
  openOfNetwork(network: string, open: (tableId: string) => boolean): number {
    return this.keepOpen(this.byNetwork.get(network), open).length;
  }

  /** Every network's open tables, oldest first, with when its oldest was made; the rest are forgotten. */
  openByNetwork(open: (tableId: string) => boolean): { readonly tables: readonly string[]; readonly oldest: number }[] {
    const networks: { tables: string[]; oldest: number }[] = [];
    for (const tableIds of [...this.byNetwork.values()]) {
      const tables = this.keepOpen(tableIds, open);
      if (tables.length > 0) networks.push({ tables, oldest: this.byTable.get(tables[0])!.order });
    }
    return networks;
  }

  private keepOpen(tableIds: ReadonlySet<string> | undefined, open: (tableId: string) => boolean): string[] {
    const kept: string[] = [];
    for (const tableId of [...(tableIds ?? [])]) {
      if (open(tableId)) kept.push(tableId);
      else this.delete(tableId);
    }
    return kept;
  }
}

function addTo(index: Map<string, Set<string>>, key: string, tableId: string): void {
  const tables = index.get(key);
  if (tables === undefined) index.set(key, new Set([tableId]));
  else tables.add(tableId);
}

function deleteFrom(index: Map<string, Set<string>>, key: string, tableId: string): void {
  const tables = index.get(key);
  tables?.delete(tableId);
  if (tables?.size === 0) index.delete(key);
}
