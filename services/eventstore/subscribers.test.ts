/**
 * What listeners hear of a long append (issue 26): a fork appends thousands
 * of events at once, and a listener that looks at an event's table and type
 * alone must not pay for parsing every event's data on the event loop.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AT, played } from './eventStore.contract.js';
import type { EventStore, StoredEvent } from './eventStore.js';
import { createMemoryEventStore } from './memoryEventStore.js';
import { nextTurn } from './loopTurns.js';

afterEach(() => vi.restoreAllMocks());

/** Appends `count` played cards with a listener that keeps what it hears; counts the JSON parsed meanwhile. */
async function hearLongAppend(store: EventStore, count: number): Promise<{ heard: StoredEvent[]; parsed: number }> {
  const heard: StoredEvent[] = [];
  store.subscribe((_, event) => heard.push(event));
  const parse = vi.spyOn(JSON, 'parse');
  await store.append(
    't-long',
    Array.from({ length: count }, (_, index) => played(`1-${index}`)),
    0,
  );
  const parsed = parse.mock.calls.length;
  parse.mockRestore();
  return { heard, parsed };
}

describe('listeners of an append', () => {
  it("hear each event's table, seq and type at once, and its data parsed only when read, once", async () => {
    const store = createMemoryEventStore();
    const { heard, parsed } = await hearLongAppend(store, 500);
    expect(parsed).toBe(0);
    expect(heard.map(({ seq, type, at }) => ({ seq, type, at }))[499]).toEqual({ seq: 500, type: 'card.played', at: AT });
    const parse = vi.spyOn(JSON, 'parse');
    expect(heard[7].data).toEqual({ seat: 0, card: '1-7' });
    expect(heard[7].data).toBe(heard[7].data);
    expect(parse).toHaveBeenCalledTimes(1);
    // Spread, cloned or written out, the event carries its data as any other does.
    expect({ ...heard[8] }).toEqual({ seq: 9, type: 'card.played', at: AT, data: { seat: 0, card: '1-8' } });
    expect(structuredClone(heard[9]).data).toEqual({ seat: 0, card: '1-9' });
    expect(JSON.parse(JSON.stringify(heard[10])).data).toEqual({ seat: 0, card: '1-10' });
    await store.close();
  });
});

describe('turns of the event loop', () => {
  it('gives the parts that ask in one turn a turn each, with the loop turning between them', async () => {
    const order: string[] = [];
    let ticking = true;
    const tick = () => {
      order.push('turn');
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await Promise.all(['a', 'b', 'c'].map((part) => nextTurn().then(() => order.push(part))));
    ticking = false;
    expect(order.slice(0, 6)).toEqual(['turn', 'a', 'turn', 'b', 'turn', 'c']);
  });
});
