/**
 * The refusal messages of request validation for values a client may send
 * to break them (the fuzzer's deep bodies and socket messages).
 */
import { describe, expect, it } from 'vitest';
import { CommandBody, SocketMessage } from './schemas.js';
import { compileChecker } from './validation.js';

function nested(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

describe('validation messages', () => {
  // Found by the command fuzzer (hardening/fuzz): writing such a value into the message overflowed the stack,
  // answered as "Maximum call stack size exceeded" over HTTP and as the service's own failure over a socket.
  it('show a value nested thousands deep by its first levels, whatever its depth', () => {
    const commands = compileChecker(CommandBody);
    for (const depth of [10, 7_000, 50_000]) {
      expect(commands.problem({ type: 'card.played', card: nested(depth) }, 'body')).toBe(
        'body.card must be a string, not [[[[["..."]]]]]',
      );
    }
    expect(compileChecker(SocketMessage).problem({ type: 'command', id: nested(20_000), command: {} }, 'message')).toMatch(
      /^message\.id must be/,
    );
  });

  it('still show shallow values whole', () => {
    expect(compileChecker(CommandBody).problem({ type: 'card.played', card: [1, [2, [3]]] }, 'body')).toBe(
      'body.card must be a string, not [1,[2,[3]]]',
    );
  });
});
