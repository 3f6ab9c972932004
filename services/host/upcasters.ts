/**
 * Every shape of event this service has ever logged, read as the shape of
 * today. Each event carries the schema it was written in, a `schema` field
 * in its `data` (absent: schema 1, logs written before events carried one).
 * Reading goes through `upcast`, which runs the event through one upcaster
 * per schema between its own and the current one, so the machine, replays,
 * records and forks only ever see current events, and a release that
 * changes an event's shape adds one upcaster here and nothing anywhere else.
 */
import type { NewEvent, StoredEvent } from '../eventstore/eventStore.js';
import { TableRefusal } from './errors.js';
import { UPCASTERS, type LoggedEvent, type Upcaster } from './schemaSteps.js';

export { UPCASTERS, type Upcaster };

const SCHEMA_FIELD = 'schema';

/** The schema of the events this release writes: the one the last upcaster reaches. */
export const EVENT_SCHEMA = UPCASTERS.length + 1;

/** The event as it is logged: its data carry the schema it is written in. */
export function withSchema<E extends NewEvent>(event: E): E {
  return { ...event, data: { ...(event.data as object), [SCHEMA_FIELD]: EVENT_SCHEMA } };
}

/** The schema `data` (a logged event's) was written in. */
export function schemaOf(data: unknown): number {
  const schema = (data as Record<string, unknown> | null)?.[SCHEMA_FIELD];
  return schema === undefined ? 1 : (schema as number);
}

/**
 * The stored event in the current schema, its `data` without the schema
 * field. `upcasters` are this release's own unless a test brings the next
 * release's. An event from a later schema than the upcasters reach is
 * refused (`newerRelease`, naming the schema): this release cannot know what
 * it means, and a release that does can serve the table.
 */
export function upcast(stored: StoredEvent, upcasters: readonly Upcaster[] = UPCASTERS): StoredEvent<Record<string, unknown>> {
  const { [SCHEMA_FIELD]: written = 1, ...fields } = (stored.data ?? {}) as Record<string, unknown>;
  const current = upcasters.length + 1;
  if (typeof written === 'number' && Number.isInteger(written) && written > current) {
    throw new TableRefusal(
      'newerRelease',
      `event ${stored.seq} (${stored.type}) is in event schema ${written}, written by a newer release; this release reads schemas 1 to ${current}: a release that knows schema ${written} can serve it`,
    );
  }
  if (typeof written !== 'number' || !Number.isInteger(written) || written < 1) {
    throw new RangeError(
      `event ${stored.seq} (${stored.type}) is in event schema ${JSON.stringify(written)}; this release reads schemas 1 to ${current}: deploy a release that knows it`,
    );
  }
  let event: LoggedEvent = { type: stored.type, data: fields };
  for (let schema = written; schema < current; schema++) event = upcasters[schema - 1](event);
  return { seq: stored.seq, type: event.type, at: stored.at, data: { ...event.data } };
}
