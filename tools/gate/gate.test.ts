// The gate against the real reference server (listening on 127.0.0.1, analysing real pages), run
// in-process through its main function.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error jsdom ships no types (and @types/jsdom is no dependency): typed below for what is used.
import { JSDOM as UntypedJsdom } from 'jsdom';
import { RESULT_LABELS, resultForScore } from '../../src/contract/values';
import { BAD, GOOD } from '../../test/server/test-app';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GOOD_PAGE,
  KEY,
  POOR_PAGE,
  REGRESSED_PAGE,
  runGateIn,
  scoreOf,
  startDeployment,
} from './test-deployment';
import type { Deployment, GateResult } from './test-deployment';

const JSDOM = UntypedJsdom as new (html: string) => { window: { DOMParser: typeof DOMParser } };
const HOSTILE_QUERY = `?q=<script>alert("x&y")</script>'&z=1`;

let d: Deployment;
const ids: Record<string, number> = {};
const results: GateResult[] = [];

/** The gate with the deployment's base and the test key; every run's output is kept for the key check. */
async function gate(args: string[], options: Parameters<typeof runGateIn>[1] = {}): Promise<GateResult> {
  const result = await runGateIn(['--base', d.base, ...args], options);
  results.push(result);
  return result;
}

beforeAll(async () => {
  d = await startDeployment();
  Object.assign(d.content, { '/': GOOD_PAGE, '/about': GOOD_PAGE, '/poor': POOR_PAGE, '/hostile': POOR_PAGE, '/changing': GOOD_PAGE });
  ids.passingHome = await d.createReport(d.pageUrl('passing.test', '/'));
  ids.passingAbout = await d.createReport(d.pageUrl('passing.test', '/about'));
  ids.mixedGood = await d.createReport(d.pageUrl('mixed.test', '/'));
  ids.mixedPoor = await d.createReport(d.pageUrl('mixed.test', '/poor'));
  ids.hostile = await d.createReport(d.pageUrl('mixed.test', `/hostile${HOSTILE_QUERY}`));
  ids.changing = await d.createReport(d.pageUrl('changing.test', '/changing'));
});

afterAll(async () => {
  await d.close();
});

afterEach(() => {
  // The key must never be printed, whatever the run did.
  for (const { stdout, stderr } of results.splice(0)) {
    expect(stdout).not.toContain(KEY);
    expect(stderr).not.toContain(KEY);
  }
});

describe('the verdict', () => {
  it('exits 0 when every report of the project has at least the minimum score', async () => {
    const lowest = Math.min((await scoreOf(d, ids.passingHome!)).score, (await scoreOf(d, ids.passingAbout!)).score);
    const { code, stdout, stderr } = await gate(['--project', 'passing.test', '--min-score', String(lowest)]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Passed 2 of 2 reports.');
    expect(stdout.trim().split('\n').at(-1)).toBe(`PASSED: all 2 reports of passing.test pass (minimum score ${lowest}).`);
  });

  it('exits 1 naming the failing URL, its score and its failing checks by name', async () => {
    const good = (await scoreOf(d, ids.mixedGood!)).score;
    const poor = (await scoreOf(d, ids.mixedPoor!)).score;
    expect(poor).toBeLessThan(good);
    const { code, stdout } = await gate(['--project', 'mixed.test', '--min-score', String(good)]);
    expect(code).toBe(1);
    expect(stdout).toContain('Passed 1 of 3 reports.');
    const poorBlock = stdout.slice(stdout.indexOf(d.pageUrl('mixed.test', '/poor')));
    expect(poorBlock).toMatch(new RegExp(`Score: +${poor} \\(${RESULT_LABELS[resultForScore(poor)]}\\)`));
    expect(poorBlock).toContain(`score ${poor} is below the minimum score ${good}`);
    expect(poorBlock).toMatch(/Failing checks: \d+\n +high: +Title, Meta description, /);
    expect(stdout).not.toContain(`  ${d.pageUrl('mixed.test', '/')}\n`);
    expect(stdout.trim().split('\n').at(-1)).toBe(`FAILED: 2 of 3 reports of mixed.test do not pass (minimum score ${good}).`);
  });

  it('gives the same verdict as a stable JSON object', async () => {
    const good = (await scoreOf(d, ids.mixedGood!)).score;
    const { code, stdout, stderr } = await gate(['--project', 'mixed.test', '--min-score', String(good), '--format', 'json']);
    expect(code).toBe(1);
    expect(stderr).toContain('FAILED: 2 of 3 reports');
    const body = JSON.parse(stdout) as {
      schema: string;
      base: string;
      project: string;
      min_score: number;
      passed: boolean;
      reports: { id: number; url: string; score: number; result: string; passed: boolean; reasons: string[]; failing_checks: { check: string; name: string; importance: string }[]; new_failing_checks: unknown[] }[];
    };
    expect(body).toMatchObject({ schema: 'webpage-reports-gate/1', base: d.base, project: 'mixed.test', min_score: good, passed: false });
    expect(body.reports.map((r) => r.id)).toEqual([ids.mixedGood, ids.mixedPoor, ids.hostile]);
    const [first, poor, hostile] = body.reports;
    expect(first).toMatchObject({ passed: true, reasons: [], new_failing_checks: [] });
    expect(poor).toMatchObject({ url: d.pageUrl('mixed.test', '/poor'), passed: false, result: resultForScore(poor!.score) });
    expect(poor!.reasons[0]).toMatch(/^score \d+ is below the minimum score/);
    expect(poor!.failing_checks).toContainEqual({ check: 'meta_description', name: 'Meta description', importance: 'high' });
    expect(hostile!.url).toBe(d.pageUrl('mixed.test', `/hostile${HOSTILE_QUERY}`));
  });

  it('writes valid JUnit XML, one testcase per URL, hostile characters escaped', async () => {
    const good = (await scoreOf(d, ids.mixedGood!)).score;
    const { code, stdout } = await gate(['--project', 'mixed.test', '--min-score', String(good), '--format', 'junit']);
    expect(code).toBe(1);
    expect(stdout).not.toContain('<script>');
    const xml = new new JSDOM('').window.DOMParser().parseFromString(stdout, 'application/xml');
    expect(xml.getElementsByTagName('parsererror')).toHaveLength(0);
    const suites = xml.getElementsByTagName('testsuite');
    expect(suites).toHaveLength(1);
    expect(suites[0]!.getAttribute('tests')).toBe('3');
    expect(suites[0]!.getAttribute('failures')).toBe('2');
    const cases = [...xml.getElementsByTagName('testcase')];
    expect(cases.map((c) => c.getAttribute('name'))).toEqual([
      d.pageUrl('mixed.test', '/'),
      d.pageUrl('mixed.test', '/poor'),
      d.pageUrl('mixed.test', `/hostile${HOSTILE_QUERY}`),
    ]);
    expect(cases[0]!.getElementsByTagName('failure')).toHaveLength(0);
    const failure = cases[2]!.getElementsByTagName('failure')[0]!;
    expect(failure.getAttribute('message')).toMatch(/^score \d+ is below the minimum score/);
    expect(failure.textContent).toContain('Meta description (high)');
  });
});

describe('a project of more than one page', () => {
  it('reads every page of 100 and judges every report', async () => {
    const now = new Date();
    for (let i = 0; i < 205; i += 1) {
      const analysis = i === 203 ? BAD : GOOD;
      await d.app.storage.createReport({ url: `https://many.test/p${i}`, project: 'many.test', privacy: 0, passwordHash: null, ...analysis, now });
    }
    const { code, stdout, requests } = await gate(['--project', 'many.test', '--min-score', String(GOOD.score), '--format', 'json']);
    expect(code).toBe(1);
    expect(requests).toEqual(['GET /api/v1/reports', 'GET /api/v1/reports', 'GET /api/v1/reports']);
    const body = JSON.parse(stdout) as { total: number; failed: number; reports: { url: string; passed: boolean }[] };
    expect(body).toMatchObject({ total: 205, failed: 1 });
    expect(new Set(body.reports.map((r) => r.url)).size).toBe(205);
    expect(body.reports.filter((r) => !r.passed).map((r) => r.url)).toEqual(['https://many.test/p203']);
  });
});

describe('newly failing checks', () => {
  it('compares with the previous run where the deployment keeps runs', async () => {
    d.content['/changing'] = GOOD_PAGE;
    await d.analyseAgain(ids.changing!);
    d.content['/changing'] = REGRESSED_PAGE;
    await d.analyseAgain(ids.changing!);

    const { code, stdout, requests } = await gate(['--project', 'changing.test', '--min-score', '0', '--fail-on-new', 'high', '--format', 'json']);
    expect(code).toBe(1);
    expect(requests).toContain('GET /api/v1/capabilities');
    expect(requests).toContain(`GET /api/v1/reports/${ids.changing}/runs`);
    const body = JSON.parse(stdout) as { compared_with: string; reports: { reasons: string[]; new_failing_checks: { check: string }[] }[] };
    expect(body.compared_with).toBe('previous_run');
    expect(body.reports[0]!.new_failing_checks.map((c) => c.check)).toEqual(['meta_description']);
    expect(body.reports[0]!.reasons[0]).toMatch(/^1 check of high importance newly failing \(passed in the run of .+\): Meta description \(high\)$/);
  });

  it('passes a project where nothing newly fails', async () => {
    const { code } = await gate(['--project', 'passing.test', '--min-score', '0', '--fail-on-new', 'low']);
    expect(code).toBe(0);
  });

  it('with --refresh, analyses every page again and compares with the results before', async () => {
    d.content['/changing'] = GOOD_PAGE;
    await d.analyseAgain(ids.changing!);
    const before = await scoreOf(d, ids.changing!);
    d.content['/changing'] = REGRESSED_PAGE;

    const { code, stdout, stderr, requests } = await gate(['--project', 'changing.test', '--min-score', '0', '--fail-on-new', 'medium', '--refresh']);
    expect(code).toBe(1);
    expect(requests).not.toContain('GET /api/v1/capabilities');
    expect(requests).toContain(`PATCH /api/v1/reports/${ids.changing}`);
    expect(stderr).toContain(`Analysing again (1/1): ${d.pageUrl('changing.test', '/changing')}`);
    expect(stdout).toContain('Analysed again before judging: 1 report');
    expect(stdout).toContain('1 check of medium importance or higher newly failing (passed before the refresh): Meta description (high)');
    expect(stdout).toMatch(/Newly failing: +Meta description \(high\)/);
    expect(Date.parse((await scoreOf(d, ids.changing!)).generatedAt)).toBeGreaterThan(Date.parse(before.generatedAt));
  });

  it('with --refresh, reports newer generated times for every report', async () => {
    const before = await Promise.all([ids.passingHome!, ids.passingAbout!].map((id) => scoreOf(d, id)));
    const { code, stdout } = await gate(['--project', 'passing.test', '--min-score', '0', '--refresh', '--format', 'json']);
    expect(code).toBe(0);
    const body = JSON.parse(stdout) as { refresh: boolean; reports: { generated_at: string; compared_with_generated_at: string }[] };
    expect(body.refresh).toBe(true);
    body.reports.forEach((report, i) => {
      expect(report.compared_with_generated_at).toBe(new Date(before[i]!.generatedAt).toISOString());
      expect(Date.parse(report.generated_at)).toBeGreaterThan(Date.parse(before[i]!.generatedAt));
    });
  });
});

describe('refresh answers', () => {
  it('waits out a 503 with its Retry-After, and after a 504 reads the report until it is newer', async () => {
    const before = await scoreOf(d, ids.passingAbout!);
    let patches = 0;
    const faulty: typeof fetch = async (input, init) => {
      if (init?.method !== 'PATCH') return fetch(input, init);
      patches += 1;
      if (patches === 1)
        return Response.json({ message: 'Too many analyses at once, try again shortly.', status: 503 }, { status: 503, headers: { 'Retry-After': '0' } });
      // The analysis happens, but the answer is the one of a job that outlived the request.
      await fetch(input, init);
      return Response.json({ message: 'The analysis is taking longer than expected.', status: 504 }, { status: 504 });
    };
    const { code, stdout, requests } = await gate(
      ['--project', 'passing.test', '--min-score', '0', '--refresh', '--format', 'json'],
      { fetch: (input, init) => faulty(input, init) },
    );
    expect(code).toBe(0);
    expect(requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(3);
    expect(requests).toContain(`GET /api/v1/reports/${ids.passingAbout}`);
    const body = JSON.parse(stdout) as { reports: { generated_at: string }[] };
    expect(Date.parse(body.reports[1]!.generated_at)).toBeGreaterThan(Date.parse(before.generatedAt));
  });

  it('fails a report whose page cannot be analysed now, with the service’s reason', async () => {
    const id = await d.createReport(d.pageUrl('mixed.test', '/d'));
    const missing: typeof fetch = async (input, init) =>
      init?.method === 'PATCH' && String(input).endsWith(`/reports/${id}`)
        ? Response.json({ message: { url: ['The page answered 404.'] }, status: 422 }, { status: 422 })
        : fetch(input, init);
    try {
      const { code, stdout } = await gate(['--project', 'mixed.test', '--min-score', '0', '--refresh'], { fetch: (i, o) => missing(i, o) });
      expect(code).toBe(1);
      expect(stdout).toContain('analysing it again failed: The page answered 404.');
    } finally {
      expect((await d.call('DELETE', `/api/v1/reports/${id}`)).status).toBe(200);
    }
  });
});

describe('exit 2', () => {
  it('for a key the service refuses, without printing the key', async () => {
    const wrong = 'wrong-key-9f8e7d6c5b4a';
    const { code, stdout, stderr } = await gate(['--project', 'passing.test', '--min-score', '50'], { key: wrong });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('WEBPAGE_REPORTS_KEY is missing or invalid');
    expect(stdout + stderr).not.toContain(wrong);
  });

  it('never prints the key, even from a service that echoes it', async () => {
    const echo: typeof fetch = async (input, init) => {
      const auth = new Headers(init?.headers).get('Authorization') ?? '';
      if (String(input).includes('/reports?'))
        return Response.json({ message: `Server error near ${auth}`, status: 500 }, { status: 500 });
      return fetch(input, init);
    };
    const { code, stderr } = await gate(['--project', 'passing.test', '--min-score', '0'], { fetch: (i, o) => echo(i, o) });
    expect(code).toBe(2);
    expect(stderr).toContain('Server error near Bearer [hidden]');

    // A key in a 200's data (a report URL) is past errors.ts's redaction: the output's own net catches it.
    const inUrl: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/reports?')) return response;
      const body = (await response.json()) as { data: { url: string }[] };
      body.data[0]!.url = `https://passing.test/?token=${KEY}`;
      return Response.json(body);
    };
    const leaked = await gate(['--project', 'passing.test', '--min-score', '100'], { fetch: (i, o) => inUrl(i, o) });
    expect(leaked.code).toBe(1);
    expect(leaked.stdout).toContain('https://passing.test/?token=[hidden]');
  });

  it('without a key', async () => {
    const { code, stderr, requests } = await gate(['--project', 'passing.test', '--min-score', '50'], { key: null });
    expect(code).toBe(2);
    expect(stderr).toContain('WEBPAGE_REPORTS_KEY is not set');
    expect(requests).toEqual([]);
  });

  it('when nothing listens at the base URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { code, stdout, stderr } = await runGateIn(['--base', `http://127.0.0.1:${port}`, '--project', 'passing.test', '--min-score', '50']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`Could not connect to http://127.0.0.1:${port}: connection refused`);
  });

  it('for a missing --project, with the usage', async () => {
    const { code, stdout, stderr, requests } = await gate(['--min-score', '50']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Missing required option: --project.');
    expect(stderr).toContain('Usage: webpage-reports-gate');
    expect(requests).toEqual([]);
  });

  it('for a project without reports', async () => {
    const { code, stderr } = await gate(['--project', 'nowhere.test', '--min-score', '50']);
    expect(code).toBe(2);
    expect(stderr).toContain(`No reports in project "nowhere.test" at ${d.base}`);
  });

  it.each([
    [['--project', 'p', '--min-score', '101'], '--min-score must be a whole number from 0 to 100'],
    [['--project', 'p', '--min-score', '0.8'], 'not 0-1: for 80% write 80'],
    [['--project', 'p', '--min-score', '50', '--fail-on-new', 'critical'], '--fail-on-new must be high, medium or low'],
    [['--project', 'p', '--min-score', '50', '--format', 'xml'], '--format must be text, json or junit'],
    [['--project', 'p', '--min-score', '50', '--nope'], "Unknown option '--nope'"],
  ])('for bad options: %j', async (args, message) => {
    const { code, stderr, requests } = await gate(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage:');
    expect(requests).toEqual([]);
  });

  it('for a bad base URL', async () => {
    const { code, stderr } = await runGateIn(['--base', 'reports.example.com', '--project', 'p', '--min-score', '50']);
    expect(code).toBe(2);
    expect(stderr).toContain('--base must be a full address starting with http:// or https://');
  });
});

it('prints the usage on --help and exits 0', async () => {
  const { code, stdout } = await runGateIn(['--help'], { key: null });
  expect(code).toBe(0);
  expect(stdout).toContain('Usage: webpage-reports-gate --base URL --project NAME --min-score N');
});
