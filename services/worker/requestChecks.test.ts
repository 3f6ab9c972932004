/** The worker's own line against a gateway that sends a seat's command without the seat's token (requestChecks.ts). */
import { describe, expect, it } from 'vitest';
import { checkSeatCommand } from './requestChecks.js';

const HOLDER = 'ab'.repeat(32);

describe("a seat's command at the worker", () => {
  it('refuses a contribution to the next deal without the hash of the seat token, and takes one with it', () => {
    const contribution = { type: 'deal.contributed', seat: 0, hand: 1, contribution: 'cd'.repeat(32) };
    expect(() => checkSeatCommand(contribution, undefined)).toThrow(
      "a deal.contributed must carry the hash of the seat's token (holder); none was sent",
    );
    expect(() => checkSeatCommand(contribution, 'bot')).toThrow('that is not one');
    expect(() => checkSeatCommand(contribution, HOLDER)).not.toThrow();
  });
});
