#!/usr/bin/env node
// The package's bin: plain node, no build step. tsx's loader (a dependency) is registered with the
// repository's tsconfig, wherever the command is run from, then the TypeScript entry is imported.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./gate.ts');
