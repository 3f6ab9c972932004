/**
 * Where a store's data lives on the server: the stream, the subject of each
 * table and the snapshots bucket, all derived from two options so that two
 * deployments can share one NATS.
 */
import type { JetStreamEventStoreOptions } from './options.js';

/** The names a store derives from its options, for tests and operators. */
export interface JetStreamLayout {
  readonly streamName: string;
  readonly prefix: string;
  /** The subjects the stream captures, `<prefix>.*.events`. */
  readonly filter: string;
  readonly snapshotsBucket: string;
}

const DEFAULT_STREAM = 'TABLE_EVENTS';
const DEFAULT_PREFIX = 'tables';
const SUBJECT_SUFFIX = '.events';

export function jetstreamLayout(options: Pick<JetStreamEventStoreOptions, 'streamName' | 'prefix'> = {}): JetStreamLayout {
  const streamName = options.streamName ?? DEFAULT_STREAM;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (!/^[A-Za-z0-9_-]+$/.test(streamName)) {
    throw new TypeError(`streamName must be letters, digits, '_' or '-', not ${JSON.stringify(streamName)}`);
  }
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new TypeError(`prefix must be dot-separated tokens of letters, digits, '_' or '-', not ${JSON.stringify(prefix)}`);
  }
  return {
    streamName,
    prefix,
    filter: `${prefix}.*${SUBJECT_SUFFIX}`,
    snapshotsBucket: `${streamName}-snapshots`,
  };
}

const PLAIN_TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * The subject token (and KV key) of a table: the id itself when it is made
 * of letters, digits, '_' and '-' (ids like `t-1a2b3c4d-5e6f` are), else
 * '=' and the base64url of its UTF-8 bytes, so every id maps to one token
 * and back ('=' never starts a plain id).
 */
export function tableToken(tableId: string): string {
  return PLAIN_TOKEN.test(tableId) ? tableId : `=${Buffer.from(tableId, 'utf8').toString('base64url')}`;
}

export function tableIdOfToken(token: string): string {
  return token.startsWith('=') ? Buffer.from(token.slice(1), 'base64url').toString('utf8') : token;
}

/** `<prefix>.<token>.events`: one subject per table, so the server can check each table's last message. */
export function subjectOfTable(layout: JetStreamLayout, tableId: string): string {
  return `${layout.prefix}.${tableToken(tableId)}${SUBJECT_SUFFIX}`;
}

export function tableIdOfSubject(layout: JetStreamLayout, subject: string): string {
  return tableIdOfToken(subject.slice(layout.prefix.length + 1, -SUBJECT_SUFFIX.length));
}
