/**
 * Quick chat at a table: a seat sends one of the preset phrases
 * (socketProtocol.ts, CHAT_PHRASES) and every socket of that table is told,
 * spectators included; nobody else hears it and no log keeps it. Each seat
 * may send `perMinute` phrases in any minute; one more is refused, saying
 * when the next may go. What is kept is the times of each seat's last
 * phrases, at most `perMinute` of them, for seats that spoke in the last
 * minute.
 */
import type { Seat } from '../../../machines/rules/trick.js';
import { GatewayRefusal } from '../refusals.js';
import type { ChatPhrase } from '../socketProtocol.js';
import type { TableNotices } from '../tableNotices.js';

export interface QuickChatOptions {
  readonly notices: TableNotices;
  readonly perMinute: number;
  readonly now?: () => number;
}

const MINUTE_MS = 60_000;

export class QuickChat {
  private readonly said = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly options: QuickChatOptions) {
    this.now = options.now ?? Date.now;
  }

  say(tableId: string, seat: Seat, phrase: ChatPhrase): void {
    const now = this.now();
    this.forgetBefore(now - MINUTE_MS);
    const key = `${tableId}\u0000${seat}`;
    const times = this.said.get(key) ?? [];
    const { perMinute } = this.options;
    if (times.length >= perMinute) {
      const wait = Math.ceil((times[0] + MINUTE_MS - now) / 1000);
      throw new GatewayRefusal(
        'rateLimited',
        `a seat may send ${perMinute} chat phrases a minute; seat ${seat} may send the next in ${wait} s`,
      );
    }
    times.push(now);
    this.said.set(key, times);
    this.options.notices.tell(tableId, { type: 'chat', seat, phrase });
  }

  private forgetBefore(cutoff: number): void {
    for (const [key, times] of this.said) {
      while (times.length > 0 && times[0] <= cutoff) times.shift();
      if (times.length === 0) this.said.delete(key);
    }
  }
}
