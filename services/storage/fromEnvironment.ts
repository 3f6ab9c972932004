/**
 * The storage a process's settings name (SUITORS_STORAGE, with SUITORS_DB
 * and SUITORS_DB_MAX_MB for SQLite, NATS_* for NATS), refused with a
 * SettingError before anything is opened when the process cannot run on it.
 */
import type { NatsRole } from '../nats/security/roles.js';
import { databaseMaxBytes, databasePath, natsSettingsFrom, storageKind, type StorageKind } from '../settings.js';
import { SettingError, type Environment } from '../settingReaders.js';
import type { StorageSettings } from './storage.js';

export interface StorageChoice {
  /** What the process runs on when SUITORS_STORAGE is unset. */
  readonly fallback: StorageKind;
  /** The kinds this process can run on, and why not the others (said to the operator who names one). */
  readonly refused?: Partial<Record<StorageKind, string>>;
  /** The SQLite file named on the command line (the CLI's --db), over SUITORS_DB. */
  readonly databaseFile?: string;
  /** Who the process is on NATS, for the nats kind. */
  readonly role?: NatsRole;
}

export function storageSettingsFrom(choice: StorageChoice, env: Environment = process.env): StorageSettings {
  const kind = storageKind(choice.fallback, env);
  const refusal = choice.refused?.[kind];
  if (refusal !== undefined) throw new SettingError('SUITORS_STORAGE', `SUITORS_STORAGE=${kind} will not do here: ${refusal}`);
  switch (kind) {
    case 'memory':
      return { kind };
    case 'sqlite':
      return { kind, path: databasePath(choice.databaseFile, env), maxBytes: databaseMaxBytes(env) };
    case 'nats': {
      const nats = natsSettingsFrom(env);
      if (nats === null) {
        throw new SettingError('SUITORS_STORAGE', 'SUITORS_STORAGE=nats needs NATS_URL: the servers of the deployment to open');
      }
      return { kind, nats, role: choice.role ?? 'admin' };
    }
  }
}
