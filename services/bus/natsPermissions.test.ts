import { describe, expect, it } from 'vitest';
import { authorizationConfig } from '../nats/security/serverConfig.js';
import { NATS_ROLES, inboxPrefixOf } from '../nats/security/roles.js';
import { permissionsOf } from './natsPermissions.js';

describe("the servers' permissions", () => {
  it('let a worker answer whoever sends it commands, without the server keeping each reply subject it is sent', () => {
    const worker = permissionsOf('worker');
    for (const role of NATS_ROLES) expect(worker.publish).toContain(`${inboxPrefixOf(role)}.>`);
    // Only its own inbox is the worker's to read.
    expect(worker.subscribe.filter((subject) => subject.startsWith('_INBOX'))).toEqual([`${inboxPrefixOf('worker')}.>`]);
    const users = NATS_ROLES.map((role) => ({ role, publicKey: `U${role.toUpperCase()}`, permissions: permissionsOf(role) }));
    // allow_responses made the servers walk every reply subject a worker had been sent, at every message (natsPermissions.ts).
    expect(authorizationConfig(users)).not.toMatch(/allow_responses/);
  });

  it("give a gateway no way into another identity's inbox", () => {
    const gateway = permissionsOf('gateway');
    const inboxes = [...gateway.publish, ...gateway.subscribe].filter((subject) => subject.startsWith('_INBOX'));
    expect(inboxes).toEqual([`${inboxPrefixOf('gateway')}.>`]);
  });
});
