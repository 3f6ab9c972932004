import { describe, expect, it } from 'vitest';
import { TableNotices } from '../tableNotices.js';
import { QuickChat } from './quickChat.js';

function setUp() {
  const notices = new TableNotices();
  const heard: Record<string, unknown[]> = { 't-1': [], 't-2': [] };
  for (const tableId of Object.keys(heard)) notices.listen(tableId, { send: (text) => heard[tableId].push(JSON.parse(text)) });
  let now = 0;
  const chat = new QuickChat({ notices, perMinute: 3, now: () => now });
  return { chat, heard, passSeconds: (seconds: number) => (now += seconds * 1000) };
}

describe('quick chat', () => {
  it('tells every socket of the table, and no other table', () => {
    const { chat, heard } = setUp();
    chat.say('t-1', 2, 'wellPlayed');
    expect(heard['t-1']).toEqual([{ type: 'chat', seat: 2, phrase: 'wellPlayed' }]);
    expect(heard['t-2']).toEqual([]);
  });

  it('lets a seat send so many phrases a minute, refuses one more saying when, and counts each seat apart', () => {
    const { chat, heard, passSeconds } = setUp();
    for (let i = 0; i < 3; i++) {
      chat.say('t-1', 0, 'hello');
      passSeconds(10);
    }
    expect(() => chat.say('t-1', 0, 'oops')).toThrow(
      expect.objectContaining({
        kind: 'rateLimited',
        message: 'a seat may send 3 chat phrases a minute; seat 0 may send the next in 30 s',
      }),
    );
    chat.say('t-1', 1, 'thanks');
    chat.say('t-2', 0, 'thanks');
    expect(heard['t-1']).toHaveLength(4);
    passSeconds(30);
    chat.say('t-1', 0, 'goodGame');
    expect(heard['t-1']).toHaveLength(5);
  });
});
