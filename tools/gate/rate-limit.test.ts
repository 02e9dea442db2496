// The gate against a reference server whose rate limit is tighter than one run's requests: it waits
// out the 429s (Retry-After) instead of failing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GOOD_PAGE, KEY, runGateIn, scoreOf, startDeployment } from './test-deployment';
import type { Deployment } from './test-deployment';

// The gate's own key, so that the set-up's requests do not spend its budget.
const GATE_KEY = 'gate-key-0123456789abcdef';
let d: Deployment;
let ids: number[];

beforeAll(async () => {
  d = await startDeployment({ config: { apiKeys: [KEY, GATE_KEY], rateLimit: 2, rateLimitWindowS: 1 } });
  Object.assign(d.content, { '/a': GOOD_PAGE, '/b': GOOD_PAGE, '/c': GOOD_PAGE });
  ids = [];
  for (const path of ['/a', '/b', '/c']) ids.push(await d.createReport(d.pageUrl('paced.test', path)));
});

afterAll(async () => {
  await d.close();
});

it('refreshes a project under a tight rate limit, waiting out 429s', async () => {
  const before = await Promise.all(ids.map((id) => scoreOf(d, id)));
  const statuses: number[] = [];
  const { code, stdout, stderr } = await runGateIn(
    ['--base', d.base, '--project', 'paced.test', '--min-score', '0', '--refresh', '--format', 'json'],
    {
      key: GATE_KEY,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    },
  );
  expect(stderr).not.toContain('webpage-reports-gate:');
  expect(code).toBe(0);
  // 2 requests a second: the list and 3 refreshes take two windows at least.
  expect(statuses.filter((s) => s === 200)).toHaveLength(4);
  const body = JSON.parse(stdout) as { reports: { generated_at: string }[] };
  body.reports.forEach((report, i) => expect(Date.parse(report.generated_at)).toBeGreaterThan(Date.parse(before[i]!.generatedAt)));
  expect(stdout + stderr).not.toContain(GATE_KEY);
});
