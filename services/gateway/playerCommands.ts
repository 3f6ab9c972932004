/**
 * A player's command, from HTTP or a socket: the seat comes from the token,
 * never from the body, and a body naming another seat is refused. Each is
 * the root span of its trace, which follows it to the table's owner.
 */
import { SpanKind } from '@opentelemetry/api';
import type { Accepted } from '../host/tableService.js';
import type { SeatHold } from '../tokens/seatTokens.js';
import { commandAttributes, inSpan, noteAppended, SPAN_NAMES } from '../tracing/commandSpans.js';
import type { GatewayContext } from './context.js';
import { GatewayRefusal } from './refusals.js';
import type { CommandBody } from './schemas.js';

export async function submitForSeat(
  { feed, tracer }: Pick<GatewayContext, 'feed' | 'tracer'>,
  hold: SeatHold,
  command: CommandBody,
  { via }: { readonly via: 'http' | 'socket' },
): Promise<Accepted> {
  const { tableId, seat, holder } = hold;
  const attributes = { ...commandAttributes(tableId, command), 'suitors.seat': seat, 'suitors.via': via };
  return inSpan(tracer, SPAN_NAMES.gatewayCommand, { kind: SpanKind.SERVER, attributes }, async (trace, span) => {
    if (command.seat !== undefined && command.seat !== seat) {
      throw new GatewayRefusal('forbidden', `this token holds seat ${seat}; it cannot act for seat ${command.seat}`);
    }
    // Whether the token still holds the seat is decided by the table, in its queue (TableHost.submit).
    const accepted = await feed.submit(tableId, { ...command, seat }, { source: 'player', holder, trace });
    noteAppended(span, accepted.events);
    return accepted;
  });
}
