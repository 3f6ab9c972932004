import { afterEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../machines/games/fingerprint.js';
import { CURRENT_RULES, machineFor } from '../../machines/games/index.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { TableHost } from './tableHost.js';
import { EVENT_SCHEMA, schemaOf } from './upcasters.js';
import { tableCreatedOf } from './tableLog.js';

const BOTS = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
let store: EventStore;
let hosts: TableHost[] = [];
function newHost(): TableHost {
  const host = new TableHost({ store, snapshotEvery: 5 });
  hosts.push(host);
  return host;
}
afterEach(async () => {
  for (const host of hosts) await host.close();
  hosts = [];
});

describe('versions in the log', () => {
  it('records the rules version and machine fingerprint a table is created with, and the schema of every event', async () => {
    store = createMemoryEventStore();
    const host = newHost();
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS, seed: 'v' });
    const log = await host.events(tableId);
    const created = tableCreatedOf(log[0], tableId);
    expect(created.rules).toBe(CURRENT_RULES);
    expect(created.fingerprint).toBe(fingerprintOf(machineFor('sevenSuitors'), 'sevenSuitors'));
    expect(log.length).toBeGreaterThan(1);
    for (const event of log) expect(schemaOf(event.data)).toBe(EVENT_SCHEMA);
  });
});

