/**
 * Every name one deployment uses on NATS, derived from its two settings
 * (NATS_STREAM, NATS_PREFIX): the event stream and its subjects, the
 * command subjects, the KV buckets named after the stream and the workers'
 * presence subjects. The modules that open these things and the permissions
 * that guard them (natsPermissions.ts) read the names here, so the two
 * cannot drift apart.
 */
import { jetstreamLayout, type JetStreamLayout } from '../eventstore/jetstream/index.js';
import { seatTokensBucket } from '../tokens/kvSeatTokens.js';
import { tableSubjects, type TableSubjects } from './subjects.js';

export interface DeploymentNames {
  readonly layout: JetStreamLayout;
  readonly subjects: TableSubjects;
  readonly buckets: BucketNames;
  /** What a worker's life answers on, one subject per worker: `<stream>.worker-lives.<worker>`. */
  readonly presence: (workerId: string) => string;
}

export interface BucketNames {
  readonly snapshots: string;
  readonly workerLives: string;
  readonly tableOwners: string;
  readonly seatTokens: string;
  /** The gateways' projection checkpoints (services/projections/natsCheckpoints.ts): the fleet overlay's. */
  readonly projections: string;
  /** What each worker says of itself for the operator's page, expiring (bus/workerStatus.ts). */
  readonly workerStatus: string;
  /** What the gateways share of tables' notices (services/gateway/notices/): rematches as they stand, seats' chat times. */
  readonly tableNotices: string;
}

/** The buckets of the deployment whose event stream is `namespace`. */
export function bucketNames(namespace: string): BucketNames {
  return {
    snapshots: jetstreamLayout({ streamName: namespace }).snapshotsBucket,
    workerLives: `${namespace}-worker-leases`,
    tableOwners: `${namespace}-table-owners`,
    seatTokens: seatTokensBucket(namespace),
    projections: `${namespace}-projections`,
    workerStatus: `${namespace}-worker-status`,
    tableNotices: `${namespace}-table-notices`,
  };
}

export function presenceSubject(namespace: string, workerId: string): string {
  return `${namespace}.worker-lives.${workerId}`;
}

export function deploymentNames(settings: { readonly streamName?: string; readonly prefix?: string } = {}): DeploymentNames {
  const layout = jetstreamLayout(settings);
  return {
    layout,
    subjects: tableSubjects(layout.prefix),
    buckets: bucketNames(layout.streamName),
    presence: (workerId) => presenceSubject(layout.streamName, workerId),
  };
}
