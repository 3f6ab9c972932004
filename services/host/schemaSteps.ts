/**
 * The steps of the event schema: one upcaster per schema this service has
 * moved on from, in order. Only the list; reading an event through it is
 * upcasters.ts. A release that changes an event's shape appends a step here.
 * (Kept apart so that a test can start a worker of a next release, with one
 * more step, by putting another list in its place: test/nats/nextRelease/.)
 */

/** An event's type and its own fields, without its schema. */
export interface LoggedEvent {
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Turns an event of one schema into the same event in the next. */
export type Upcaster = (event: LoggedEvent) => LoggedEvent;

/** `UPCASTERS[n - 1]` turns schema n into schema n + 1; there is one for every schema before the one written now. */
export const UPCASTERS: readonly Upcaster[] = [
  // Each upcaster names event types as its schema spelled them, not through today's constants (nor tableLog.ts,
  // which reads through upcasters.ts).
  // 1 -> 2: tables created before rules were versioned all played by the first rules; the machine they
  // were created with is unknown, so they have no fingerprint. Every other event kept its shape.
  (event) => (event.type === 'table.created' ? { type: event.type, data: { rules: 1, ...event.data } } : event),
];
