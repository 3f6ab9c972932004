import type { Msg } from '@nats-io/nats-core';
import { describe, expect, it } from 'vitest';
import { TableRefusal } from '../host/errors.js';
import { isTableQuarantined, TableQuarantined } from '../host/quarantine.js';
import { decodeRequest, errorOfReply, replyOfError, type TableReply } from './protocol.js';

/** A message as the worker receives it: only its JSON is read. */
function message(body: unknown): Msg {
  return { json: () => body } as unknown as Msg;
}

describe('what gateways and workers say to each other', () => {
  it("takes a repair as a command for the table's worker, naming the table and no event", () => {
    expect(decodeRequest(message({ op: 'repairTable', tableId: 't-1', args: [] }))).toEqual({
      op: 'repairTable',
      tableId: 't-1',
      args: [],
    });
    expect(decodeRequest(message({ op: 'repairTable', args: [] }))).toBe('a command must name its table (tableId)');
    expect(decodeRequest(message({ op: 'voidEvent', tableId: 't-1', args: [7] }))).toMatch(/^op must be one of submit, repairTable, /);
  });

  it("keeps a quarantine's refused event across the bus, so the gateway's refusal names it as the host's does", () => {
    const quarantine = { tableId: 't-1', game: 'sevenSuitors', seq: 7, eventType: 'card.played', reason: "it is seat 2's turn" } as const;
    const reply = JSON.parse(JSON.stringify(replyOfError('w-a', new TableQuarantined(quarantine), 7))) as Exclude<TableReply, { ok: true }>;
    const error = errorOfReply(reply);
    expect(isTableQuarantined(error) && error.quarantine).toEqual(quarantine);
    expect(error.message).toBe(new TableQuarantined(quarantine).message);
    const plain = errorOfReply(
      replyOfError('w-a', new TableRefusal('notQuarantined', 'nothing to repair')) as Exclude<TableReply, { ok: true }>,
    );
    expect(plain).toMatchObject({ kind: 'notQuarantined', message: 'nothing to repair' });
  });
});
