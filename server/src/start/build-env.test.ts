import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withBuildTimeEnv } from './build-env';

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('withBuildTimeEnv', () => {
  it('reads VITE_API_BASE_URL from the .env files as Vite does for a build, the later files winning', async () => {
    root = await mkdtemp(join(tmpdir(), 'build-env-'));
    await writeFile(join(root, '.env'), '# the default\nVITE_API_BASE_URL=https://one.example/api/v1\nOTHER=x\n');
    expect((await withBuildTimeEnv({}, root)).VITE_API_BASE_URL).toBe('https://one.example/api/v1');
    await writeFile(join(root, '.env.production'), 'VITE_API_BASE_URL="https://two.example/api/v1"\n');
    await writeFile(join(root, '.env.development'), 'VITE_API_BASE_URL=https://dev.example/api/v1\n');
    const env = await withBuildTimeEnv({ PORT: '1' }, root);
    expect(env).toEqual({ PORT: '1', VITE_API_BASE_URL: 'https://two.example/api/v1' });
    // Only VITE_API_BASE_URL is taken from the files.
    expect(env.OTHER).toBeUndefined();
  });

  it('keeps the environment first, and as it is without any .env file', async () => {
    root = await mkdtemp(join(tmpdir(), 'build-env-'));
    await writeFile(join(root, '.env'), 'VITE_API_BASE_URL=https://file.example\n');
    expect((await withBuildTimeEnv({ VITE_API_BASE_URL: '/api/v1' }, root)).VITE_API_BASE_URL).toBe('/api/v1');
    await rm(join(root, '.env'));
    expect(await withBuildTimeEnv({ PORT: '1' }, root)).toEqual({ PORT: '1' });
  });
});
