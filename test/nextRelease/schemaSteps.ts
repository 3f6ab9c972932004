/**
 * services/host/schemaSteps.ts as the next release has it: one more step,
 * so it writes event schema 3, which this release cannot read. The step
 * changes no event's shape (the next release's events are this one's), as
 * what the tests follow is the schema number: the next release reads logs
 * of schema 2 through the step, and this release refuses schema 3, naming it.
 */
import { UPCASTERS as RELEASED, type Upcaster } from '../../services/host/schemaSteps.js';

export type { LoggedEvent, Upcaster } from '../../services/host/schemaSteps.js';

export const UPCASTERS: readonly Upcaster[] = [...RELEASED, (event) => event];
