// The package's bin as CI runs it: plain node, a child process, against the reference server.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GOOD_PAGE, KEY, startDeployment } from './test-deployment';
import type { Deployment } from './test-deployment';

const BIN = fileURLToPath(new URL('./webpage-reports-gate.mjs', import.meta.url));
let d: Deployment;

beforeAll(async () => {
  d = await startDeployment();
  d.content['/'] = GOOD_PAGE;
  await d.createReport(d.pageUrl('passing.test', '/'));
});

afterAll(async () => {
  await d.close();
});

/** Async, not execFileSync: the server answering the child runs in this process's event loop. */
function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, cwd: '/', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

it('runs with plain node from any directory and exits with the verdict', async () => {
  const env = { PATH: process.env.PATH, WEBPAGE_REPORTS_KEY: KEY };
  const passed = await runBin(['--base', d.base, '--project', 'passing.test', '--min-score', '0', '--format', 'json'], env);
  expect(passed.stderr).toContain('PASSED: the 1 report of passing.test passes');
  expect(passed.code).toBe(0);
  expect(JSON.parse(passed.stdout)).toMatchObject({ project: 'passing.test', passed: true, total: 1 });

  const failed = await runBin(['--base', d.base, '--project', 'passing.test', '--min-score', '100'], env);
  expect(failed.code).toBe(1);
  expect(failed.stdout).toContain('FAILED: 1 of 1 report of passing.test does not pass (minimum score 100).');
  expect(failed.stdout + failed.stderr).not.toContain(KEY);
}, 90_000);
