import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, setDemoVariant, signIn } from './support';

// Watching (issue 30): the demo shop's project set to Daily on its page, its home page switched to
// the regressed variant, Run now: the scheduled run analyses every report of the project again,
// confirms the drop with a second analysis, and raises an alert per page; the navigation counts them,
// /alerts shows the run's pages that one cause broke as one card with their count, and opening one
// shows its report's History comparison of exactly those two runs.
const SHOTS = process.env.E2E_SHOTS_DIR;
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const PROJECT = 'shop.example';

interface AlertJson {
  id: number;
  report_id: number;
  url: string;
  read: boolean;
  before: { generated_at: string; score: number };
  after: { generated_at: string; score: number };
}

test.afterEach(async ({ request }) => {
  await setDemoVariant('shop-home-regressed', false);
  // The other specs expect the project unwatched: no run of it starts while they work.
  const off = await request.put(`/api/v1/projects/${PROJECT}/schedule`, { headers: auth, form: { every: 'off' } });
  expect(off.status(), await off.text()).toBe(200);
});

const escaped = (text: string) => text.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&');

async function axeBothSchemes(page: Page, shot: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${shot}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('Daily on the project page, the page regresses, Run now: the alert, its count, and the comparison it opens', async ({
  page,
  request,
}) => {
  // Run now analyses every report of the shop one after another (the whole suite's too), each drop twice.
  test.setTimeout(300_000);
  // Two reports of the home page (of different addresses): the run breaks both, for the same cause.
  const url = `http://shop.example:${E2E_DEMO_PORT}/?watch=${Date.now()}`;
  const other = `${url}&again=1`;
  const created = await request.post('/api/v1/reports', { headers: auth, form: { url } });
  expect(created.status(), await created.text()).toBe(201);
  const report = ((await created.json()) as { data: { id: number } }).data;
  const createdOther = await request.post('/api/v1/reports', { headers: auth, form: { url: other } });
  expect(createdOther.status(), await createdOther.text()).toBe(201);
  const otherReport = ((await createdOther.json()) as { data: { id: number } }).data;

  await signIn(page);
  await page.goto(`/projects/${PROJECT}`);
  const schedule = page.getByRole('region', { name: 'Schedule' });
  await expect(schedule.getByRole('button', { name: 'Save schedule' })).toBeVisible();
  await schedule.getByRole('combobox', { name: 'Analyse again' }).selectOption('daily');
  await schedule.getByRole('combobox', { name: 'Hour' }).selectOption('5');
  await schedule.getByRole('spinbutton', { name: 'Alert when the score drops by' }).fill('1');
  await schedule.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Schedule saved')).toBeVisible();
  await expect(page.getByText(/^Daily at 05:00 UTC; an alert when a score drops by 1 points? or more\./)).toBeVisible();
  await expect(schedule.locator('dd time').first()).toHaveAttribute('datetime', /T05:00:00\.000Z$/);
  await axeBothSchemes(page, 'watch-schedule');

  await setDemoVariant('shop-home-regressed', true);
  await schedule.getByRole('button', { name: 'Run now' }).click();
  // A project of more than 10 reports asks first, naming the count (issue 50); how many shop.example
  // holds depends on the specs that ran before.
  const asked = page.getByRole('dialog', { name: /^Run now: analyse all \d+ reports of shop\.example\?$/ });
  await expect(page.getByText('Run started').or(asked)).toBeVisible();
  if (await asked.isVisible()) await asked.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByText('Run started')).toBeVisible();
  await expect(page.getByText(/^\d+ reports? of shop\.example to analyse again; the progress is at the top of the page/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Current run' }).getByRole('progressbar', { name: /^Run progress: \d+ of \d+ pages$/ })).toBeVisible();

  // The runner works through the queue in the server: asked every few seconds until its alert is there.
  let alert: AlertJson | undefined;
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/v1/alerts?project=${PROJECT}&per_page=100`, { headers: auth });
        const alerts = ((await answer.json()) as { data: AlertJson[] }).data;
        alert = alerts.find((a) => a.report_id === report.id);
        return alert !== undefined && alerts.some((a) => a.report_id === otherReport.id);
      },
      { timeout: 270_000, intervals: [2_000, 3_000] },
    )
    .toBe(true);

  await page.goto(`/alerts?project=${PROJECT}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: /^Alerts, \d+ unread$/ })).toBeVisible();
  // One card for the run's pages that the same check broke, with their count; both pages in it.
  const item = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: new RegExp(`^${escaped(other)}:`) }) })
    .filter({ hasText: /newly failing on \d+ pages/ });
  await expect(item).toHaveCount(1);
  const title = (await item.getByText(/newly failing on \d+ pages$/).textContent())!;
  expect(Number(/on (\d+) pages$/.exec(title)?.[1])).toBeGreaterThanOrEqual(2);
  const pages = item.getByRole('list', { name: title });
  await expect(pages.getByRole('listitem')).toHaveCount(Number(/on (\d+) pages$/.exec(title)?.[1]));
  await expect(item.getByText(/^\d+ unread$/)).toBeVisible();
  await expect(pages.getByRole('link', { name: new RegExp(`^${escaped(url)}: Score \\d+ → \\d+`) })).toBeVisible();
  await axeBothSchemes(page, 'watch-alerts');

  const unreadBefore = Number(/(\d+) unread/.exec((await nav.getByRole('link', { name: /^Alerts/ }).getAttribute('aria-label')) ?? '')?.[1]);
  await pages.getByRole('link', { name: new RegExp(`^${escaped(url)}: `) }).click();
  await expect(page).toHaveURL(new RegExp(`/reports/${report.id}\\?compare=`));
  const compare = new URL(page.url()).searchParams.get('compare');
  expect(compare).toBe(
    `${new Date(alert!.before.generated_at).toISOString()}..${new Date(alert!.after.generated_at).toISOString()}`,
  );
  const history = page.getByRole('region', { name: 'History' });
  const summary = history.getByRole('region', { name: 'What changed' });
  await expect(summary.getByRole('heading', { name: 'What changed' })).toBeFocused({ timeout: 20_000 });
  await expect(summary.getByRole('list', { name: 'Checks that changed' })).toContainText('Meta description: passed before, fails now');
  // Exactly the alert's two runs: its scores before and after.
  await expect(summary).toContainText(`Score: ${alert!.before.score} to ${alert!.after.score} (`);

  // Opened: read, and counted no more.
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/v1/alerts?project=${PROJECT}&per_page=100`, { headers: auth });
      return ((await answer.json()) as { data: AlertJson[] }).data.find((a) => a.id === alert!.id)?.read;
    })
    .toBe(true);
  const after = nav.getByRole('link', { name: /^Alerts/ });
  await expect(after).toHaveAccessibleName(unreadBefore > 1 ? `Alerts, ${unreadBefore - 1} unread` : 'Alerts');
});

test('a deployment without the watch extensions: no Schedule, no Alerts link, and /alerts says it raises none', async ({ page }) => {
  // As the service itself answers: GET /capabilities is not found.
  await page.route('**/api/v1/capabilities', (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ message: 'Resource not found.', status: 404 }) }),
  );
  await signIn(page);
  await page.goto(`/projects/${PROJECT}`);
  await expect(page.getByRole('region', { name: 'Health' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete project / })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Schedule' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run now' })).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Projects' })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^Alerts/ })).toHaveCount(0);

  await page.goto('/alerts');
  await expect(page.getByText('The connected service does not raise alerts')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all read' })).toHaveCount(0);
});
