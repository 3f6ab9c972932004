/**
 * The event store on NATS JetStream, for the distributed service: the same
 * interface and contract as the SQLite store, with the log replicated by
 * JetStream (R1 on one server, R3 on a cluster). README.md beside the
 * parent folder describes the layout, the messages and the guarantees.
 */
export { openJetStreamEventStore } from './store.js';
export type { JetStreamEventStoreOptions } from './options.js';
export { jetstreamLayout, tableIdOfToken, tableToken, type JetStreamLayout } from './layout.js';
export { HEADER_APPEND, HEADER_PREV, HEADER_SEQ, HEADER_VERSION } from './wireFormat.js';
