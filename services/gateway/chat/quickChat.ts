/**
 * Quick chat at a table: a seat sends one of the preset phrases
 * (socketProtocol.ts, CHAT_PHRASES) and every socket of that table is told,
 * on every gateway, spectators included; nobody else hears it and no log
 * keeps it. Each seat may send `perMinute` phrases in any minute, counted
 * on the notice board every gateway shares (notices/noticeBoard.ts), so a
 * seat speaking through two gateways has no more; one more is refused,
 * saying when the next may go. What is kept is the times of each seat's
 * last phrases, at most `perMinute` of them.
 */
import type { Seat } from '../../../machines/rules/trick.js';
import { changeEntry, type NoticeBoard } from '../notices/noticeBoard.js';
import { GatewayRefusal } from '../refusals.js';
import type { ChatPhrase } from '../socketProtocol.js';
import type { TableNotices } from '../tableNotices.js';

export interface QuickChatOptions {
  readonly notices: TableNotices;
  readonly board: NoticeBoard;
  readonly perMinute: number;
  readonly now?: () => number;
}

const MINUTE_MS = 60_000;

export class QuickChat {
  private readonly now: () => number;

  constructor(private readonly options: QuickChatOptions) {
    this.now = options.now ?? Date.now;
  }

  async say(tableId: string, seat: Seat, phrase: ChatPhrase): Promise<void> {
    const { perMinute, board, notices } = this.options;
    const wait = await changeEntry(board, `chat.${tableId}.${seat}`, (kept) => {
      const now = this.now();
      const times = (kept === null ? [] : (JSON.parse(kept) as number[])).filter((time) => time > now - MINUTE_MS);
      if (times.length >= perMinute) return { result: Math.ceil((times[0] + MINUTE_MS - now) / 1000) };
      return { next: JSON.stringify([...times, now]), result: 0 };
    });
    if (wait > 0) {
      throw new GatewayRefusal(
        'rateLimited',
        `a seat may send ${perMinute} chat phrases a minute; seat ${seat} may send the next in ${wait} s`,
      );
    }
    notices.tell(tableId, { type: 'chat', seat, phrase });
  }
}
