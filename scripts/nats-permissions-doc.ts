/** `npm run docs:nats`: writes the permissions table of docs/distributed.md from services/bus/natsPermissions.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withPermissionsSection } from '../drivers/natsPermissionsDoc.js';

const DOC = new URL('../docs/distributed.md', import.meta.url);
writeFileSync(DOC, withPermissionsSection(readFileSync(DOC, 'utf8')));
console.log('docs/distributed.md: the NATS permissions table is written');
