/**
 * Sockets open at once per client address: a slot is taken when an upgrade
 * is let through and given back when its connection closes, so a client
 * cannot hold thousands of sockets (and the views sent to each) open.
 */
import { GatewayRefusal } from './refusals.js';

export class SocketSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perClient: number) {}

  /** Takes a slot for `client`; the returned function gives it back (once, however often called). Refuses 429 when none is left. */
  take(client: string): () => void {
    const taken = this.open.get(client) ?? 0;
    if (taken >= this.perClient) {
      throw new GatewayRefusal(
        'rateLimited',
        `${client} has ${taken} sockets open, the most one client may; close one before opening another`,
      );
    }
    this.open.set(client, taken + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.open.get(client) ?? 1) - 1;
      if (left <= 0) this.open.delete(client);
      else this.open.set(client, left);
    };
  }

  /** Sockets open for `client`. */
  of(client: string): number {
    return this.open.get(client) ?? 0;
  }
}
