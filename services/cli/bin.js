#!/usr/bin/env node
// The `suitors` command: runs the TypeScript CLI through tsx, so an install needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
