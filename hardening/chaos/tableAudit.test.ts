import { describe, expect, it } from 'vitest';
import type { AcknowledgedCommand } from '../../drivers/players/playerPool.js';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { withSchema } from '../../services/host/upcasters.js';
import { missingFromLog } from './tableAudit.js';

function event(seq: number, type: string, data: object): StoredEvent {
  return { seq, type, at: '2026-01-01T00:00:00.000Z', data } as StoredEvent;
}

const log = [
  event(1, 'table.created', {}),
  event(2, 'card.played', { seat: 0, card: '1-7' }),
  event(3, 'cards.passed', { seat: 1, passes: [{ card: '2-3', to: 2 }] }),
];

function ack(command: AcknowledgedCommand['command'], seat: number, sentAtVersion: number, version: number): AcknowledgedCommand {
  return { tableId: 't-1', seat, command, sentAtVersion, version, sentAt: 0, acknowledgedAt: 0 };
}

describe('an acknowledged command against its table log', () => {
  it('is found after the version it was sent on, up to the one it was acknowledged at, whatever the order of its fields', () => {
    expect(missingFromLog(ack({ type: 'card.played', card: '1-7' }, 0, 1, 2), log)).toBeNull();
    expect(missingFromLog(ack({ type: 'cards.passed', passes: [{ to: 2, card: '2-3' }] }, 1, 2, 3), log)).toBeNull();
  });

  it('reads the log as the host does: an event stored with its schema mark is the command it logged', () => {
    const marked = [event(1, 'table.created', {}), { ...withSchema(event(2, 'card.played', { seat: 0, card: '1-7' })), seq: 2 }];
    expect(marked[1].data).toHaveProperty('schema');
    expect(missingFromLog(ack({ type: 'card.played', card: '1-7' }, 0, 1, 2), marked)).toBeNull();
  });

  it('is missing when another card, another seat or another place is logged, or the log is shorter', () => {
    expect(missingFromLog(ack({ type: 'card.played', card: '1-8' }, 0, 1, 2), log)).toMatch(/no such event among events 2-2/);
    expect(missingFromLog(ack({ type: 'card.played', card: '1-7' }, 1, 1, 2), log)).not.toBeNull();
    expect(missingFromLog(ack({ type: 'card.played', card: '1-7' }, 0, 2, 3), log)).not.toBeNull();
    expect(missingFromLog(ack({ type: 'card.played', card: '1-7' }, 0, 3, 4), log)).toMatch(/the log ends at 3/);
  });
});
