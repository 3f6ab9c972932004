// `node --import test/nextRelease/register.mjs --import tsx ...` runs a process of the next release (hooks.mjs).
// For tests only: nothing in services/ or the npm scripts loads it.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
