import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIsStale } from './build-freshness';

describe('buildIsStale', () => {
  it('asks for a build when there is none, and when a source is newer than the build', async () => {
    const root = await mkdtemp(join(tmpdir(), 'build-freshness-root-'));
    try {
      const out = join(root, 'dist');
      await mkdir(join(root, 'src', 'app'), { recursive: true });
      await writeFile(join(root, 'index.html'), '<!doctype html>');
      await writeFile(join(root, 'src', 'app', 'app.tsx'), 'export {}');
      expect(await buildIsStale(root, out)).toBe(true);

      await mkdir(out);
      await writeFile(join(out, 'index.html'), 'built');
      const past = new Date(Date.now() - 60_000);
      await utimes(join(root, 'index.html'), past, past);
      await utimes(join(root, 'src', 'app', 'app.tsx'), past, past);
      expect(await buildIsStale(root, out)).toBe(false);

      // A test file is not part of the build.
      await writeFile(join(root, 'src', 'app', 'app.test.tsx'), 'test');
      expect(await buildIsStale(root, out)).toBe(false);

      await writeFile(join(root, 'src', 'app', 'app.tsx'), 'export const changed = 1');
      const future = new Date(Date.now() + 60_000);
      await utimes(join(root, 'src', 'app', 'app.tsx'), future, future);
      expect(await buildIsStale(root, out)).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
