// The layers' rules in eslint.config.js, proven by planting one violation of each in a file where it
// does not belong and asking ESLint itself: a rule that stopped reporting would let the layers mix.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
let eslint: ESLint;

/** The rules that reported something about `code` as if it were the file at `path`, with their messages. */
async function reported(path: string, code: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result!.messages.map(({ ruleId, message }) => ({ rule: ruleId, message }));
}

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

// The first lint loads the whole config and its plugins: seconds on a busy machine.
describe('The layers of src/, as the lint holds them', { timeout: 60_000 }, () => {
  it('lets a workflow use api and lib', async () => {
    const code = [
      "import { fetchReports } from '@/api/reports';",
      "import { createScheduler } from '@/api/http/scheduler';",
      "import { csvText } from '@/lib/csv';",
      'export const used = [fetchReports, createScheduler, csvText];',
    ].join('\n');
    expect(await reported('src/workflows/planted.ts', code)).toEqual([]);
  });

  it('refuses a workflow importing a component or UI', async () => {
    const code = [
      "import { useReturnFocus } from '@/components/use-return-focus';",
      "import { Button } from '@mantine/core';",
      'export const used = [useReturnFocus, Button];',
    ].join('\n');
    expect(await reported('src/workflows/planted.ts', code)).toEqual([
      expect.objectContaining({ rule: 'import-x/no-restricted-paths', message: expect.stringContaining('workflows') }),
      expect.objectContaining({ rule: 'no-restricted-imports', message: expect.stringContaining('never import UI') }),
    ]);
  });

  it('refuses api importing a workflow', async () => {
    const code = "import { holdDeletes } from '@/workflows/pending-deletes';\nexport const used = holdDeletes;";
    expect(await reported('src/api/planted.ts', code)).toEqual([
      expect.objectContaining({
        rule: 'import-x/no-restricted-paths',
        message: expect.stringContaining('api is below workflows'),
      }),
    ]);
  });

  it('refuses the HTTP layer importing React Query or a resource', async () => {
    const code = [
      "import { useQuery } from '@tanstack/react-query';",
      "import { fetchReports } from '../reports';",
      'export const used = [useQuery, fetchReports];',
    ].join('\n');
    expect(await reported('src/api/http/planted.ts', code)).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', message: expect.stringContaining('React Query') }),
      expect.objectContaining({
        rule: 'import-x/no-restricted-paths',
        message: expect.stringContaining('never imports the resources'),
      }),
    ]);
  });
});
