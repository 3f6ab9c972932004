import { writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { natsUsers } from '../../bus/natsPermissions.js';
import { isNatsRole, NATS_ROLES, ROLE_PURPOSE } from '../../nats/security/roles.js';
import { makeNatsSecrets } from '../../nats/security/secrets.js';
import { authorizationConfig, clientTlsConfig, routeTlsConfig } from '../../nats/security/serverConfig.js';
import { optionalStringFlag, stringFlag, UsageError } from '../args.js';
import type { Command } from '../command.js';

/**
 * An operator's NATS secrets and the server configuration that goes with
 * them (docs/distributed.md, "Securing NATS"): the CA, the servers'
 * certificate, an NKey per identity, and the files a nats-server includes
 * (auth.conf: who may connect and do what; tls.conf and route-tls.conf).
 * Secrets already in the folder are kept, so running it again after an
 * upgrade only writes the configuration anew; rotate by making a new
 * folder. docker compose runs it before the NATS nodes start.
 */
export const natsSecretsCommand: Command = {
  name: 'nats-secrets',
  flags: ['out', 'hosts', 'config-dir', 'stream', 'prefix', 'rotate'],
  usage:
    'suitors nats-secrets --out DIR [--hosts n1,n2,n3] [--config-dir /etc/nats/secrets] [--stream TABLE_EVENTS] [--prefix tables] [--rotate gateway,worker,admin]',
  summary: "make the deployment's NATS secrets (CA, server certificate, an NKey per identity) and the servers' auth and TLS config",
  async run(args) {
    const out = resolve(stringFlag(args, 'out'));
    const hosts = (optionalStringFlag(args, 'hosts') ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter((host) => host !== '');
    // Where the servers will find the files: the folder itself, or where a container mounts it.
    const seenAt = optionalStringFlag(args, 'config-dir') ?? out;
    const streamName = optionalStringFlag(args, 'stream');
    const prefix = optionalStringFlag(args, 'prefix');
    const rotate = (optionalStringFlag(args, 'rotate') ?? '')
      .split(',')
      .map((role) => role.trim())
      .filter((role) => role !== '');
    const unknown = rotate.filter((role) => !isNatsRole(role));
    if (unknown.length > 0) throw new UsageError(`--rotate takes ${NATS_ROLES.join(', ')}, not ${unknown.join(', ')}`);
    const secrets = makeNatsSecrets(out, { serverNames: hosts, rotate: rotate.filter(isNatsRole) });
    const files = { certFile: join(seenAt, 'server.pem'), keyFile: join(seenAt, 'server.key'), caFile: join(seenAt, 'ca.pem') };
    const deployment = { ...(streamName === undefined ? {} : { streamName }), ...(prefix === undefined ? {} : { prefix }) };
    writeFileSync(join(out, 'auth.conf'), authorizationConfig(natsUsers(secrets, deployment)));
    writeFileSync(join(out, 'tls.conf'), clientTlsConfig(files));
    writeFileSync(join(out, 'route-tls.conf'), routeTlsConfig(files, ''));
    console.log(`NATS secrets in ${out} (the servers read them at ${seenAt}):`);
    console.log(`  ca.pem              the CA every process checks the servers against (NATS_CA); ca.key signs new node certificates`);
    console.log(`  server.pem/.key     the servers' certificate, for localhost, 127.0.0.1${hosts.map((host) => `, ${host}`).join('')}`);
    for (const role of NATS_ROLES) {
      const { publicKey, previousPublicKey } = secrets.identities[role];
      console.log(`  ${`${role}.nk`.padEnd(19)} ${publicKey}: ${ROLE_PURPOSE[role]} (NATS_CREDS)`);
      if (previousPublicKey !== undefined) {
        console.log(
          `  ${`${role}.previous.nk`.padEnd(19)} ${previousPublicKey}: still let in; delete it and run this again once every ${role} uses the new key`,
        );
      }
    }
    console.log('  auth.conf, tls.conf, route-tls.conf   for nats-server to include (infra/nats/cluster.conf does)');
    return 0;
  },
};
