/**
 * The permissions table of docs/distributed.md ("Securing NATS"), rendered
 * from services/bus/natsPermissions.ts, so the docs show what the servers
 * enforce: `npm run docs:nats` writes it, and a test fails when the two
 * differ.
 */
import { permissionsOf } from '../services/bus/natsPermissions.js';
import { NATS_ROLES, ROLE_PURPOSE } from '../services/nats/security/roles.js';

const PERMISSIONS_START = '<!-- nats permissions: written by npm run docs:nats from services/bus/natsPermissions.ts -->';
const PERMISSIONS_END = '<!-- end of nats permissions -->';

/** The section between the markers, for the default deployment names (NATS_STREAM=TABLE_EVENTS, NATS_PREFIX=tables). */
export function permissionsSection(): string {
  const rows = NATS_ROLES.map((role) => {
    const { publish, subscribe } = permissionsOf(role);
    const code = (subjects: readonly string[]) => subjects.map((subject) => `\`${subject}\``).join('<br>');
    return `| \`${role}\` | ${ROLE_PURPOSE[role]} | ${code(publish)} | ${code(subscribe)} |`;
  });
  return [
    PERMISSIONS_START,
    '',
    '| identity | for | may publish to (JetStream API calls included) | may subscribe to (`subject queue`: only in that queue group) |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    PERMISSIONS_END,
  ].join('\n');
}

/** `doc` with its permissions section replaced by the current one; throws when the markers are missing. */
export function withPermissionsSection(doc: string): string {
  const start = doc.indexOf(PERMISSIONS_START);
  const end = doc.indexOf(PERMISSIONS_END);
  if (start < 0 || end < start) throw new Error(`the doc has no permissions section (${PERMISSIONS_START} ... ${PERMISSIONS_END})`);
  return doc.slice(0, start) + permissionsSection() + doc.slice(end + PERMISSIONS_END.length);
}
