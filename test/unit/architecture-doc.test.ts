// docs/architecture.md names files and folders in backticks; each must exist, so the page cannot
// drift from the tree unnoticed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** Backticked paths under the repository's top folders (`src/api/http.ts`, `test/e2e/`). */
function namedPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const [, path] of markdown.matchAll(/`((?:src|server|test|tools|docs|\.ci)\/[^`\s]*)`/g)) {
    if (path) paths.add(path.replace(/\/$/, ''));
  }
  return [...paths];
}

describe('docs/architecture.md', () => {
  it('names the layers’ folders', () => {
    const named = namedPaths(page);
    for (const folder of ['src/contract', 'src/api', 'src/checks', 'src/lib', 'src/components', 'src/features', 'src/app', 'server/src']) {
      expect(named).toContain(folder);
    }
  });

  it('names only files and folders that exist', () => {
    const missing = namedPaths(page).filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });

  it('finds a path that is gone', () => {
    expect(namedPaths('see `src/nowhere/gone.ts` and `src/api/`')).toEqual(['src/nowhere/gone.ts', 'src/api']);
  });
});
