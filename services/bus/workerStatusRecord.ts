/**
 * What a worker's status record holds (workerStatus.ts puts and reads it):
 * a type of its own, with no imports, so the web client's operator page can
 * read it without taking NATS into its bundle.
 */
export interface WorkerStatus {
  readonly worker: string;
  /** ISO time of the put. */
  readonly at: string;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** The longest event-loop delay of the last second, in ms. */
  readonly eventLoopLagMs: number;
  /** Requests served per second since the last put; null on the first. */
  readonly commandsPerSecond: number | null;
  /** Tables whose lease it holds. */
  readonly tablesHeld: number;
  /** At most TABLES_IN_STATUS of them, in id order. */
  readonly tables: readonly string[];
}
