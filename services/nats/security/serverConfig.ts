/**
 * The security part of a nats-server configuration: who may connect (an
 * NKey user per identity, with its permissions, and nobody else), and TLS
 * for clients and for the routes between the nodes. Written into the
 * configuration of every local cluster (drivers/localNats.ts) and into
 * `auth.conf` by `npx suitors nats-secrets`, which docker compose's nodes
 * include. Every string is quoted: in a NATS configuration an unquoted
 * `$JS...` would be read as a variable.
 */
import type { NatsPermissions, NatsRole } from './roles.js';
import type { NatsSecrets } from './secrets.js';

export interface NatsUser {
  readonly role: NatsRole;
  readonly publicKey: string;
  readonly permissions: NatsPermissions;
}

const quoted = (text: string) => JSON.stringify(text);
const list = (items: readonly string[], indent: string) => `[\n${items.map((item) => `${indent}  ${quoted(item)}`).join('\n')}\n${indent}]`;

/** `authorization { users: [...] }`: one NKey user per identity; no anonymous user. */
export function authorizationConfig(users: readonly NatsUser[]): string {
  const entries = users.map(({ role, publicKey, permissions }) =>
    [
      `    # ${role}`,
      '    {',
      `      nkey: ${quoted(publicKey)}`,
      '      permissions: {',
      `        publish: { allow: ${list(permissions.publish, '        ')} }`,
      `        subscribe: { allow: ${list(permissions.subscribe, '        ')} }`,
      '      }',
      '    }',
    ].join('\n'),
  );
  return ['authorization {', '  users: [', entries.join('\n'), '  ]', '}', ''].join('\n');
}

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
}

export function tlsFilesOf(secrets: NatsSecrets): TlsFiles {
  return { certFile: secrets.serverCertFile, keyFile: secrets.serverKeyFile, caFile: secrets.caFile };
}

/** Client TLS: every client connection is encrypted; clients prove who they are with their NKey, not a certificate. */
export function clientTlsConfig(files: TlsFiles): string {
  return `tls {\n  cert_file: ${quoted(files.certFile)}\n  key_file: ${quoted(files.keyFile)}\n  ca_file: ${quoted(files.caFile)}\n  timeout: 5\n}\n`;
}

/** Route TLS, inside `cluster {}`: both ends present a certificate of the deployment's CA, and each checks the other's. */
export function routeTlsConfig(files: TlsFiles, indent = '  '): string {
  return [
    `${indent}tls {`,
    `${indent}  cert_file: ${quoted(files.certFile)}`,
    `${indent}  key_file: ${quoted(files.keyFile)}`,
    `${indent}  ca_file: ${quoted(files.caFile)}`,
    `${indent}  verify: true`,
    `${indent}  timeout: 5`,
    `${indent}}`,
    '',
  ].join('\n');
}
