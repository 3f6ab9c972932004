/**
 * Creations under way, counted per client and in all until each is done: a
 * cap counts them with what is already made, so a burst of requests at once
 * cannot pass it before the first is made (lobby.ts, botTableCap.ts).
 */
export class Reservations {
  private readonly perClient = new Map<string, number>();
  private count = 0;

  get inAll(): number {
    return this.count;
  }

  of(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  /** Counts one for `client`; the function returned ends it, once, calling `made` with the new table's id if there is one. */
  take(client: string, made: (tableId: string) => void): (tableId?: string) => void {
    this.perClient.set(client, this.of(client) + 1);
    this.count++;
    let done = false;
    return (tableId) => {
      if (done) return;
      done = true;
      const left = this.of(client) - 1;
      if (left <= 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
      this.count--;
      if (tableId !== undefined) made(tableId);
    };
  }
}
