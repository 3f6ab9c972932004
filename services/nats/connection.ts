/**
 * How a process of the service connects to NATS: as one identity
 * (security/roles.ts), with its credentials (NATS_CREDS: an NKey seed or a
 * .creds file) and TLS checked against the deployment's CA (NATS_CA), and
 * its role's inbox prefix, which its permissions grant it alone. A refused
 * connection says why and which setting to look at.
 */
import { readFileSync } from 'node:fs';
import { credsAuthenticator, nkeyAuthenticator, type ConnectionOptions, type NatsConnection } from '@nats-io/nats-core';
import { connectBatched } from './turnBatchedConnect.js';
import { isAuthorizationRefused, isCertificateRefused } from './natsErrors.js';
import { inboxPrefixOf, type NatsRole } from './security/roles.js';
import { publicKeyOfSeedFile } from './security/secrets.js';

export interface NatsAccess {
  readonly servers: readonly string[];
  /** NATS_CREDS: the identity's NKey seed or .creds file; undefined: no credentials. */
  readonly credsFile?: string | undefined;
  /** NATS_CA: the CA the servers' certificates are checked against; set, the connection is TLS. */
  readonly caFile?: string | undefined;
}

const JWT_CREDS = /-----BEGIN NATS USER JWT-----/;

/** nats.js's options for `role` connecting with `access`, reconnecting for as long as the process runs. */
export function connectionOptionsOf(access: NatsAccess, role: NatsRole): ConnectionOptions {
  const usesTls = access.caFile !== undefined || access.servers.some((server) => server.startsWith('tls://'));
  return {
    servers: [...access.servers],
    name: `suitors-${role}`,
    inboxPrefix: inboxPrefixOf(role),
    ...(access.credsFile === undefined ? {} : { authenticator: authenticatorOf(access.credsFile) }),
    ...(usesTls ? { tls: access.caFile === undefined ? {} : { caFile: access.caFile } } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // nats.js would otherwise build an Error (a stack trace) for every request: a sixth of a worker's CPU.
    noAsyncTraces: true,
  };
}

function authenticatorOf(file: string) {
  const text = readFileSync(file, 'utf8');
  const bytes = new TextEncoder().encode(JWT_CREDS.test(text) ? text : text.trim().split('\n')[0]);
  return JWT_CREDS.test(text) ? credsAuthenticator(bytes) : nkeyAuthenticator(bytes);
}

/** Who `access` connects as, for the line a process prints at start. */
export function describeAccess(access: NatsAccess, role: NatsRole): string {
  const tls = access.caFile !== undefined ? `TLS checked against ${access.caFile}` : 'no TLS (NATS_CA unset)';
  if (access.credsFile === undefined) return `as the ${role}, with no credentials (NATS_CREDS unset), ${tls}`;
  const text = readFileSync(access.credsFile, 'utf8');
  const key = JWT_CREDS.test(text) ? 'a .creds file' : `NKey ${publicKeyOfSeedFile(access.credsFile)}`;
  return `as the ${role} identity (${key}, from NATS_CREDS=${access.credsFile}), ${tls}`;
}

/**
 * Connects `role` to the servers. The first connection is waited for
 * through servers that are not up yet (unless `waitForServers` is false: a
 * command line answers at once); a refusal of the credentials or of the
 * servers' certificate ends the wait with an error that names the setting
 * to check.
 */
export async function connectAs(
  access: NatsAccess,
  role: NatsRole,
  options: { readonly waitForServers?: boolean } = {},
): Promise<NatsConnection> {
  try {
    return await connectBatched({ ...connectionOptionsOf(access, role), waitOnFirstConnect: options.waitForServers ?? true });
  } catch (error) {
    throw new Error(refusalOf(error, access, role), { cause: error });
  }
}

function refusalOf(error: unknown, access: NatsAccess, role: NatsRole): string {
  const text = describeCauses(error);
  if (isAuthorizationRefused(error)) {
    return `NATS refused this ${role}'s credentials: Authorization Violation; check NATS_CREDS (${access.credsFile ?? 'unset: no credentials were sent'})`;
  }
  if (isCertificateRefused(error)) {
    return `NATS's TLS was not accepted (${text}); check NATS_CA (${access.caFile ?? 'unset'}) and that the servers' certificate names the host in NATS_URL`;
  }
  return `could not connect to NATS at ${access.servers.join(',')}: ${text}`;
}

function describeCauses(error: unknown): string {
  const parts: string[] = [];
  for (let cause = error; cause instanceof Error && parts.length < 4; cause = cause.cause) parts.push(cause.message);
  return parts.join(': ') || String(error);
}
