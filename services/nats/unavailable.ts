/**
 * The service cannot answer now, and asking again shortly may: answered 503
 * with Retry-After, not 500. The bus raises it when no worker takes a
 * command, and the seat tokens in JetStream KV when NATS is not answering,
 * so it sits below both.
 */

/**
 * No worker could take the command now (the table is between owners, or no
 * worker is running), or none answered in time. When it comes from a timeout
 * the command may have been accepted: read the table to find out.
 */
export class TableUnavailable extends Error {
  readonly kind = 'unavailable' as const;
  constructor(message: string) {
    super(message);
    this.name = 'TableUnavailable';
  }
}

export function isTableUnavailable(error: unknown): error is TableUnavailable {
  return error instanceof TableUnavailable;
}
