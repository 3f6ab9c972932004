import { describe, expect, it } from 'vitest';
import { memoryNoticeBoard } from '../notices/noticeBoard.js';
import { TableNotices } from '../tableNotices.js';
import { QuickChat } from './quickChat.js';

function setUp() {
  const notices = new TableNotices();
  const heard: Record<string, unknown[]> = { 't-1': [], 't-2': [] };
  for (const tableId of Object.keys(heard)) notices.listen(tableId, { send: (text) => heard[tableId].push(JSON.parse(text)) });
  let now = 0;
  const board = memoryNoticeBoard({ keepMs: 120_000, now: () => now });
  // Two gateways' chats over one board, as on NATS: a seat's phrases count wherever it sends them.
  const chat = new QuickChat({ notices, board, perMinute: 3, now: () => now });
  const elsewhere = new QuickChat({ notices, board, perMinute: 3, now: () => now });
  return { chat, elsewhere, heard, passSeconds: (seconds: number) => (now += seconds * 1000) };
}

describe('quick chat', () => {
  it('tells every socket of the table, and no other table', async () => {
    const { chat, heard } = setUp();
    await chat.say('t-1', 2, 'wellPlayed');
    expect(heard['t-1']).toEqual([{ type: 'chat', seat: 2, phrase: 'wellPlayed' }]);
    expect(heard['t-2']).toEqual([]);
  });

  it('lets a seat send so many phrases a minute, through any gateway, refuses one more saying when, and counts each seat apart', async () => {
    const { chat, elsewhere, heard, passSeconds } = setUp();
    for (const through of [chat, elsewhere, chat]) {
      await through.say('t-1', 0, 'hello');
      passSeconds(10);
    }
    await expect(elsewhere.say('t-1', 0, 'oops')).rejects.toMatchObject({
      kind: 'rateLimited',
      message: 'a seat may send 3 chat phrases a minute; seat 0 may send the next in 30 s',
    });
    await chat.say('t-1', 1, 'thanks');
    await chat.say('t-2', 0, 'thanks');
    expect(heard['t-1']).toHaveLength(4);
    passSeconds(30);
    await chat.say('t-1', 0, 'goodGame');
    expect(heard['t-1']).toHaveLength(5);
  });
});
