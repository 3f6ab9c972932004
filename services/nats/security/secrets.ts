/**
 * A deployment's NATS secrets in one folder: a certificate authority, one
 * certificate the NATS servers present to clients and to each other, and
 * an NKey per identity (roles.ts). Made with openssl and the NKeys library
 * that nats.js ships, nothing downloaded: by `npx suitors nats-secrets` for
 * an operator, by `npm run cluster` and by the tests, each in a folder of
 * its own. The CA is throw-away; docs/distributed.md ("Securing NATS")
 * says how to use a real one.
 *
 *   ca.pem, ca.key          the CA (ca.key signs the next node's certificate: keep it offline)
 *   server.pem, server.key  the servers' certificate, for client and route TLS
 *   <role>.nk               an identity's NKey seed: what NATS_CREDS names
 *   <role>.previous.nk      while a rotation is under way, the key it replaces,
 *                           which the servers still let in until it is deleted
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nkeys } from '@nats-io/nats-core';
import { NATS_ROLES, type NatsRole } from './roles.js';

interface NatsIdentity {
  readonly role: NatsRole;
  /** The NKey's public key (`U...`): what the server's configuration names. */
  readonly publicKey: string;
  /** The file holding the seed (`SU...`): the identity's secret. */
  readonly seedFile: string;
  /** During a rotation, the replaced key's public key: still let in until its file is deleted. */
  readonly previousPublicKey: string | undefined;
}

export interface NatsSecrets {
  readonly dir: string;
  readonly caFile: string;
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly identities: Readonly<Record<NatsRole, NatsIdentity>>;
}

export interface MakeSecretsOptions {
  /** The names the servers' certificate is valid for, besides localhost and 127.0.0.1 (docker compose: n1, n2, n3). */
  readonly serverNames?: readonly string[];
  /** How long the certificates are valid (default 365 days). */
  readonly days?: number;
  /** Identities whose key is replaced now: the old one is kept as `<role>.previous.nk` until the operator deletes it. */
  readonly rotate?: readonly NatsRole[];
}

const seedFileOf = (dir: string, role: NatsRole) => join(dir, `${role}.nk`);
const previousSeedFileOf = (dir: string, role: NatsRole) => join(dir, `${role}.previous.nk`);

/** Makes every secret that is missing from `dir` (none is replaced: rotate by making a new folder), and reads them all. */
export function makeNatsSecrets(dir: string, options: MakeSecretsOptions = {}): NatsSecrets {
  mkdirSync(dir, { recursive: true });
  for (const role of options.rotate ?? []) {
    if (existsSync(previousSeedFileOf(dir, role))) {
      throw new Error(`${previousSeedFileOf(dir, role)} is still there: finish the last rotation of the ${role} key (delete it) first`);
    }
    if (existsSync(seedFileOf(dir, role))) renameSync(seedFileOf(dir, role), previousSeedFileOf(dir, role));
  }
  for (const role of NATS_ROLES) {
    const file = seedFileOf(dir, role);
    if (!existsSync(file)) writeSecret(file, `${new TextDecoder().decode(nkeys.createUser().getSeed())}\n`);
  }
  if (!existsSync(join(dir, 'ca.pem'))) makeCertificateAuthority(dir, options.days ?? 365);
  if (!existsSync(join(dir, 'server.pem'))) makeServerCertificate(dir, options.serverNames ?? [], options.days ?? 365);
  return readNatsSecrets(dir);
}

/** The secrets a folder made by makeNatsSecrets holds; throws, naming the file, when one is missing. */
function readNatsSecrets(dir: string): NatsSecrets {
  const identities = Object.fromEntries(
    NATS_ROLES.map((role) => {
      const seedFile = seedFileOf(dir, role);
      const previous = previousSeedFileOf(dir, role);
      const previousPublicKey = existsSync(previous) ? publicKeyOfSeedFile(previous) : undefined;
      return [role, { role, publicKey: publicKeyOfSeedFile(seedFile), seedFile, previousPublicKey }];
    }),
  ) as Record<NatsRole, NatsIdentity>;
  const secrets = {
    dir,
    caFile: join(dir, 'ca.pem'),
    serverCertFile: join(dir, 'server.pem'),
    serverKeyFile: join(dir, 'server.key'),
    identities,
  };
  for (const file of [secrets.caFile, secrets.serverCertFile, secrets.serverKeyFile]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: make the folder's secrets with npx suitors nats-secrets --out ${dir}`);
  }
  return secrets;
}

/** The public key of an NKey seed file (the seed is its first line). */
export function publicKeyOfSeedFile(file: string): string {
  const seed = readFileSync(file, 'utf8').trim().split('\n')[0] ?? '';
  return nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey();
}

function writeSecret(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function openssl(args: readonly string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`openssl ${args[0]} failed${stderr ? `: ${stderr}` : ''} (openssl must be installed: apt-get install -y openssl)`);
  }
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function makeCertificateAuthority(dir: string, days: number): void {
  openssl(['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', String(days), '-subj', '/CN=suitors NATS CA'], dir);
  chmodSync(join(dir, 'ca.key'), 0o600);
}

/** One certificate for every node: each verifies the others' routes with it, and clients verify it by name or address. */
function makeServerCertificate(dir: string, names: readonly string[], days: number): void {
  const alternativeNames = ['DNS:localhost', 'IP:127.0.0.1', 'IP:::1', ...names.map((name) => `DNS:${name}`)];
  const extensions = join(dir, 'server.ext');
  writeFileSync(
    extensions,
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=digitalSignature,keyEncipherment',
      // Client auth too: a node presents it when it opens a route to another.
      'extendedKeyUsage=serverAuth,clientAuth',
      `subjectAltName=${alternativeNames.join(',')}`,
      '',
    ].join('\n'),
  );
  openssl(['req', ...EC_KEY, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=suitors NATS server'], dir);
  openssl(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem'].concat([
      '-days',
      String(days),
      '-extfile',
      'server.ext',
    ]),
    dir,
  );
  chmodSync(join(dir, 'server.key'), 0o600);
  for (const scratch of ['server.csr', 'server.ext']) rmSync(join(dir, scratch), { force: true });
}
