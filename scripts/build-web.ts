/**
 * Builds the web client into services/gateway/web/dist, which the gateway
 * serves at `/` (drivers/browser/webBuild.ts does the work).
 *
 *   npm run build:web
 */
import { relative } from 'node:path';
import { readFlags } from '../drivers/flags.js';
import { buildWeb } from '../drivers/browser/webBuild.js';

readFlags({}, 'npm run build:web');
const started = Date.now();
const { files } = await buildWeb();
console.log(`web client built in ${Date.now() - started} ms: ${files.map((file) => relative(process.cwd(), file)).join(', ')}`);
