/**
 * The identities a deployment's processes connect to NATS as. Each has its
 * own NATS user and permissions (services/bus/natsPermissions.ts), and its
 * own inbox prefix, so that its replies can be granted to it alone: a
 * gateway cannot read the answers meant for a worker, nor forge them.
 */
export const NATS_ROLES = ['gateway', 'worker', 'admin'] as const;

export type NatsRole = (typeof NATS_ROLES)[number];

/** What each identity is for, in the docs' and the start-up line's words. */
export const ROLE_PURPOSE: Readonly<Record<NatsRole, string>> = {
  gateway:
    "sends players' commands and new tables to the workers, reads the logs it shows and the tables' owners, keeps seat tokens and the fleet overlay's checkpoint, tells the other gateways a table's chat and rematch",
  worker: 'serves commands, appends to the logs, keeps leases, owners and snapshots',
  admin: 'operator tooling: everything (creating streams, repairs, inspection)',
};

export function inboxPrefixOf(role: NatsRole): string {
  return `_INBOX.${role}`;
}

export function isNatsRole(value: unknown): value is NatsRole {
  return typeof value === 'string' && (NATS_ROLES as readonly string[]).includes(value);
}

/** What one identity may do, as NATS permissions (services/bus/natsPermissions.ts says which). */
export interface NatsPermissions {
  /** Subjects it may publish to (JetStream API calls included); nothing else. */
  readonly publish: readonly string[];
  /** Subjects it may subscribe to; `<subject> <queue>` only in that queue group. */
  readonly subscribe: readonly string[];
}
