import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_API_KEY, lookAt, signIn } from './support';

// Labels and clients (issue 46): a client added in Settings, two demo projects put in it from their
// pages, one of them labelled, and the projects table showing both. The spec gives the projects back
// as it found them (no label, no client) and deletes its client.
const CLIENT = `Acme ${Date.now().toString(36)}`;
const PROJECTS = ['blog.example', 'docs.example'];
const LABEL = 'Acme’s <b>blog</b>';
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

let api: APIRequestContext;

test.beforeAll(async ({ playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
});

test.afterAll(async () => {
  for (const project of PROJECTS) {
    await api.patch(`/api/v1/projects/${project}`, { headers: auth, form: { label: '' } });
    await api.put(`/api/v1/projects/${project}/client`, { headers: auth, form: { client_id: '' } });
  }
  const clients = (await (await api.get('/api/v1/clients?per_page=100', { headers: auth })).json()) as {
    data: { id: number; name: string }[];
  };
  for (const client of clients.data.filter((c) => c.name === CLIENT))
    await api.delete(`/api/v1/clients/${client.id}`, { headers: auth });
  await api.dispose();
});

async function giveClient(page: Page, project: string, label?: string) {
  await page.goto(`/projects/${project}`);
  await expect(page.getByRole('heading', { level: 1, name: project })).toBeVisible();
  await page.getByRole('button', { name: 'Edit label and client' }).click();
  const dialog = page.getByRole('dialog', { name: `Label and client of ${project}` });
  if (label) await dialog.getByRole('textbox', { name: /Label/ }).fill(label);
  await expect(dialog.getByRole('combobox', { name: /Client/ }).getByRole('option', { name: CLIENT })).toBeAttached();
  await dialog.getByRole('combobox', { name: /Client/ }).selectOption({ label: CLIENT });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: `Client: ${CLIENT}` })).toBeVisible();
}

test('a client added in Settings, two projects put in it, one labelled: the projects table shows them', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Clients' });
  await section.getByRole('textbox', { name: 'Client name' }).fill(CLIENT);
  await section.getByRole('button', { name: 'Add client' }).click();
  await expect(section.getByRole('table', { name: 'Clients' }).getByRole('row', { name: new RegExp(`^${CLIENT}\\s+0 projects`) })).toBeVisible();
  await page.mouse.move(0, 0);
  await lookAt(page, 'settings-clients');

  await giveClient(page, 'blog.example', LABEL);
  // HTML in a label is text.
  await expect(page.getByText(LABEL, { exact: true })).toBeVisible();
  await lookAt(page, 'project-labelled');
  await giveClient(page, 'docs.example');

  await page.goto('/projects?sort_by=project&sort=asc&per_page=100');
  const table = page.getByRole('table', { name: 'Projects' });
  const blog = table.getByRole('row').filter({ has: page.getByRole('link', { name: `${LABEL} blog.example` }) });
  await expect(blog.getByRole('cell', { name: CLIENT })).toBeVisible();
  const docs = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'docs.example', exact: true }) });
  await expect(docs.getByRole('cell', { name: CLIENT })).toBeVisible();
  await page.mouse.move(0, 0);
  await lookAt(page, 'projects-clients');
  // Filtered by the client: its two projects, in the address.
  await page.getByRole('combobox', { name: 'Client' }).selectOption({ label: CLIENT });
  await expect(page).toHaveURL(/[?&]client=\d+/);
  await expect(page.getByText('1–2 of 2 projects')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3);
  await page.getByRole('combobox', { name: 'Client' }).selectOption({ label: 'All clients' });
  await expect(page.getByText(/^1–\d+ of \d+ projects?$/)).not.toHaveText('1–2 of 2 projects');
  const projectsTotal = Number(/of (\d+) projects?$/.exec((await page.getByText(/^1–\d+ of \d+ projects?$/).textContent()) ?? '')?.[1]);
  expect(projectsTotal).toBeGreaterThanOrEqual(2);

  // The Overview's totals are the lists' totals; the labelled project is named by its label there too.
  await page.goto('/reports?per_page=10');
  const reportsTotal = Number(/of (\d+) reports?$/.exec((await page.getByText(/^1–\d+ of \d+ reports?$/).textContent()) ?? '')?.[1]);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const totals = page.getByRole('region', { name: 'Every site' });
  await expect(totals.getByRole('link', { name: `Projects: ${projectsTotal}` })).toBeVisible();
  await expect(totals.getByRole('link', { name: `Reports: ${reportsTotal.toLocaleString('en')}` })).toBeVisible();
  const health = page.getByRole('table', { name: 'Projects’ health' });
  await expect(health.getByRole('link', { name: `${LABEL} blog.example` })).toBeVisible();
  await page.mouse.move(0, 0);
  await lookAt(page, 'overview');
  // On a phone each project is a card, its last column too in sight, and the sort buttons stay: no sideways scrolling.
  await page.setViewportSize({ width: 390, height: 900 });
  const labelled = health.getByRole('row').filter({ has: page.getByRole('link', { name: `${LABEL} blog.example` }) });
  await labelled.scrollIntoViewIfNeeded();
  await expect(labelled.getByRole('cell').last()).toBeInViewport({ ratio: 1 });
  await expect(health.getByRole('button', { name: /Unread alerts/ })).toBeVisible();
  expect(await health.evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The reports list filtered by the client: only its two projects' reports.
  await page.goto('/reports?per_page=100');
  await page.getByRole('combobox', { name: 'Client' }).selectOption({ label: CLIENT });
  await expect(page).toHaveURL(/\/reports\?client=\d+&per_page=100$/);
  const reports = page.getByRole('table', { name: 'Reports' });
  await expect(page.getByText(/^1–\d+ of \d+ reports?$/)).not.toHaveText(`1–${Math.min(reportsTotal, 100)} of ${reportsTotal} reports`);
  const hosts = (await reports.getByRole('row').evaluateAll((rows) => rows.slice(1).map((row) => row.querySelector('a')?.textContent ?? '')))
    .map((url) => new URL(url).hostname);
  expect(hosts.length).toBeGreaterThan(0);
  expect(new Set(hosts)).toEqual(new Set(PROJECTS));
  await page.mouse.move(0, 0);
  await lookAt(page, 'reports-client');

  // The Project filters name it by its label too.
  await page.goto('/problems');
  await expect(page.getByRole('combobox', { name: 'Project' }).getByRole('option', { name: `${LABEL} (blog.example)` })).toBeAttached();

  await page.goto('/settings');
  await expect(
    page.getByRole('table', { name: 'Clients' }).getByRole('row', { name: new RegExp(`^${CLIENT}\\s+2 projects`) }),
  ).toBeVisible();
});
