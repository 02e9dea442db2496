// The gate against a deployment of the service without extensions: the reference server cut down
// to the seed API (every other path 404, no extension fields), as the service's own deployments answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PAGE, KEY, POOR_PAGE, REGRESSED_PAGE, runGateIn, scoreOf, startDeployment } from './test-deployment';
import type { Deployment } from './test-deployment';

let d: Deployment;
let changing: number;
let good: number;
let poor: number;

beforeAll(async () => {
  d = await startDeployment({ seedOnly: true });
  Object.assign(d.content, { '/': GOOD_PAGE, '/poor': POOR_PAGE, '/changing': GOOD_PAGE });
  good = await d.createReport(d.pageUrl('mixed.test', '/'));
  poor = await d.createReport(d.pageUrl('mixed.test', '/poor'));
  changing = await d.createReport(d.pageUrl('changing.test', '/changing'));
});

afterAll(async () => {
  await d.close();
});

const gate = (args: string[]) => runGateIn(['--base', d.base, ...args]);

describe('a deployment without extensions', () => {
  it('answers 404 off the seed API and sends no extension fields', async () => {
    const headers = { Authorization: `Bearer ${KEY}`, Accept: 'application/json' };
    for (const path of ['/api/v1/capabilities', `/api/v1/reports/${changing}/runs`]) {
      const res = await fetch(`${d.base}${path}`, { headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Resource not found.', status: 404 });
    }
    const report = (await (await fetch(`${d.base}/api/v1/reports/${changing}`, { headers })).json()) as { data: object };
    expect(report.data).not.toHaveProperty('runs');
    expect(report.data).not.toHaveProperty('page_url');
  });

  it('judges the project from the seed API alone', async () => {
    const goodScore = (await scoreOf(d, good)).score;
    const { code, stdout, requests } = await gate(['--project', 'mixed.test', '--min-score', String(goodScore)]);
    expect(code).toBe(1);
    expect(stdout).toContain('Passed 1 of 2 reports.');
    expect(stdout).toContain(d.pageUrl('mixed.test', '/poor'));
    expect(stdout).toContain(`score ${(await scoreOf(d, poor)).score} is below the minimum score ${goodScore}`);
    expect(requests).toEqual(['GET /api/v1/reports']);
  });

  it('refuses --fail-on-new without --refresh, saying to add it (exit 2)', async () => {
    const { code, stdout, stderr, requests } = await gate(['--project', 'changing.test', '--min-score', '0', '--fail-on-new', 'high']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('this deployment keeps no runs');
    expect(stderr).toContain('Add --refresh');
    expect(requests).toEqual(['GET /api/v1/capabilities']);
  });

  it('with --refresh, finds the checks that newly fail', async () => {
    d.content['/changing'] = GOOD_PAGE;
    await d.analyseAgain(changing);
    const before = await scoreOf(d, changing);
    d.content['/changing'] = REGRESSED_PAGE;
    const { code, stdout, requests } = await gate(['--project', 'changing.test', '--min-score', '0', '--fail-on-new', 'high', '--refresh', '--format', 'json']);
    expect(code).toBe(1);
    expect(requests).toEqual(['GET /api/v1/reports', `PATCH /api/v1/reports/${changing}`]);
    const body = JSON.parse(stdout) as { compared_with: string; reports: { generated_at: string; new_failing_checks: { check: string }[] }[] };
    expect(body.compared_with).toBe('before_refresh');
    expect(body.reports[0]!.new_failing_checks.map((c) => c.check)).toEqual(['meta_description']);
    expect(Date.parse(body.reports[0]!.generated_at)).toBeGreaterThan(Date.parse(before.generatedAt));
  });
});
