import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { EVENT_SCHEMA, UPCASTERS, schemaOf, upcast, withSchema, type Upcaster } from './upcasters.js';
import { tableCreatedOf, toTableEvent } from './tableLog.js';

const at = '2026-01-01T00:00:00.000Z';
const stored = (type: string, data: object, seq = 2): StoredEvent => ({ seq, type, at, data });

describe('events of every schema, read as today’s', () => {
  it('writes the current schema into every event and reads it back without it', () => {
    const logged = withSchema({ type: 'card.played', at, data: { seat: 1, card: '3-9' } });
    expect(logged.data).toEqual({ seat: 1, card: '3-9', schema: EVENT_SCHEMA });
    expect(schemaOf(logged.data)).toBe(EVENT_SCHEMA);
    expect(toTableEvent({ seq: 5, ...logged })).toEqual({ type: 'card.played', seat: 1, card: '3-9' });
  });

  it('reads an event written before events had a schema as schema 1, and a table created then as played by rules 1', () => {
    expect(schemaOf({ seat: 1 })).toBe(1);
    expect(upcast(stored('card.played', { seat: 1, card: '3-9' }))).toEqual(stored('card.played', { seat: 1, card: '3-9' }));
    const created = tableCreatedOf(
      stored('table.created', { game: 'antiCupid', options: { specials: 'plain', passing: 'none' } }, 1),
      't1',
    );
    expect(created).toEqual({ game: 'antiCupid', options: { specials: 'plain', passing: 'none' }, rules: 1 });
    expect(created).not.toHaveProperty('fingerprint');
  });

  it('runs an event through every upcaster from its schema on, in order, so the next release adds one and nothing else', () => {
    // The next release renames traitor.accused's `accused` to `suspect`.
    const renameAccused: Upcaster = (event) => {
      if (event.type !== 'traitor.accused') return event;
      const { accused, ...fields } = event.data;
      return { type: event.type, data: { ...fields, suspect: accused } };
    };
    const next = [...UPCASTERS, renameAccused];
    const fromSchema1 = stored('traitor.accused', { seat: 2, accused: 4 });
    const fromSchema2 = stored('traitor.accused', { seat: 2, accused: 4, schema: 2 });
    const fromSchema3 = stored('traitor.accused', { seat: 2, suspect: 4, schema: 3 });
    for (const event of [fromSchema1, fromSchema2, fromSchema3]) expect(upcast(event, next).data).toEqual({ seat: 2, suspect: 4 });
    expect(upcast(stored('table.created', { game: 'sevenSuitors', options: {} }, 1), next).data).toEqual({
      game: 'sevenSuitors',
      options: {},
      rules: 1,
    });
  });

  it('refuses an event of a schema this release does not know, saying which, as a refusal of a newer release', () => {
    const reading = () => upcast(stored('card.played', { seat: 1, card: '3-9', schema: EVENT_SCHEMA + 1 }, 7));
    expect(reading).toThrow(
      `event 7 (card.played) is in event schema ${EVENT_SCHEMA + 1}, written by a newer release; this release reads schemas 1 to ${EVENT_SCHEMA}`,
    );
    expect(reading).toThrow(expect.objectContaining({ kind: 'newerRelease' }));
    expect(() => upcast(stored('card.played', { seat: 1, card: '3-9', schema: 0 }, 7))).toThrow(RangeError);
  });
});
