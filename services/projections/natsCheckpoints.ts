/**
 * Projection checkpoints in a NATS KV bucket, one key per projection: a put
 * is one message, stored whole or not at all, so the state and its
 * positions are never saved apart. A checkpoint must fit in one message
 * (the server's max_payload, 1 MiB by default): a larger one is refused
 * before anything is sent, naming the projection and the sizes.
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { parseCheckpoint, type ProjectionCheckpoints } from './checkpoints.js';

export interface NatsCheckpointOptions {
  /** The bucket (created when missing, history 1); e.g. `TABLE_EVENTS-projections`. */
  readonly bucket: string;
  /** 1 on one server, 3 on a cluster; an existing bucket keeps its own. */
  readonly replicas?: number;
}

export async function openNatsCheckpoints(nc: NatsConnection, options: NatsCheckpointOptions): Promise<ProjectionCheckpoints> {
  const maxPayload = nc.info?.max_payload ?? 1024 * 1024;
  // allow_direct off: a load goes to the bucket's leader, so a restarted runner reads what it last saved.
  const bucket: KV = await new Kvm(nc).create(options.bucket, {
    history: 1,
    replicas: options.replicas ?? 1,
    allow_direct: false,
    maxValueSize: maxPayload,
  });
  const encoder = new TextEncoder();
  return {
    async load(name) {
      const entry = await bucket.get(name);
      if (entry === null || entry.operation !== 'PUT') return null;
      return parseCheckpoint(entry.string(), `bucket ${options.bucket} (projection ${name})`);
    },
    async save(name, checkpoint) {
      const value = encoder.encode(JSON.stringify(checkpoint));
      if (value.length > maxPayload) {
        throw new RangeError(
          `the checkpoint of projection ${name} is ${value.length} bytes; bucket ${options.bucket} keeps values up to ${maxPayload} (the server's max_payload)`,
        );
      }
      await bucket.put(name, value);
    },
    async close() {},
  };
}
