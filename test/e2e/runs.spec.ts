import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E_API_KEY, lookAt, signIn } from './support';

// Runs of a project (issue 49): a site of its own on 127.0.0.1 (as `localhost`, a project no other
// spec has) whose sitemap lists two of its three reported pages and a new one. Following it, Run now
// shows its progress and ends with its summary: one new page, one gone page; Last run follows, and
// the gone page is one click from the reports list filtered to it, badged Gone.

const page = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="description" content="${title}, a page of a small test site."></head>` +
  `<body><h1>${title}</h1><p>${'Words about the page. '.repeat(40)}</p></body></html>`;

test('Run now follows the sitemap, shows its progress and summary; the gone page is filtered and badged', async ({ page: tab, request }) => {
  test.slow();
  const mark = Date.now().toString(36);
  const paths = [`/${mark}/a`, `/${mark}/b`, `/${mark}/moved`, `/${mark}/new`];
  const site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === `/${mark}/sitemap.xml`) {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      const listed = [paths[0], paths[1], paths[3]].map((listedPath) => `<url><loc>${origin}${listedPath}</loc></url>`);
      res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.join('')}</urlset>`);
    } else if (paths.includes(path)) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page(`Page ${path.split('/').at(-1)}`));
    } else {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end(page('Not found'));
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(site.address() as AddressInfo).port}`;
  try {
    for (const path of paths.slice(0, 3)) {
      const created = await request.post('/api/v1/reports', {
        headers: { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' },
        form: { url: `${origin}${path}` },
      });
      expect(created.status(), await created.text()).toBe(201);
    }

    await signIn(tab);
    await tab.goto('/projects/localhost');
    const schedule = tab.getByRole('region', { name: 'Schedule' });
    await expect(schedule.getByText('None yet')).toBeVisible();
    await schedule.getByRole('textbox', { name: 'Sitemap address' }).fill(`${origin}/${mark}/sitemap.xml`);
    await schedule.getByRole('spinbutton', { name: 'New pages per run' }).fill('5');
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await expect(tab.getByText('Schedule saved')).toBeVisible();

    await schedule.getByRole('button', { name: 'Run now' }).click();
    const current = tab.getByRole('region', { name: 'Current run' });
    await expect(current.getByRole('progressbar', { name: /^Run progress: \d of 3 pages$/ })).toBeVisible();
    await expect(current.getByText('Run finished')).toBeVisible({ timeout: 60_000 });
    await expect(current.getByRole('status')).toHaveText('3 pages of 3 analysed. Started with Run now.');
    await expect(current.getByRole('link', { name: '1 new page' })).toBeVisible();
    await expect(current.getByRole('link', { name: '1 gone page' })).toBeVisible();
    await expect(schedule.getByText('None yet')).toHaveCount(0);
    const runs = tab.getByRole('region', { name: 'Runs' });
    await expect(runs.getByRole('row').nth(1)).toContainText('Done');
    // On a phone each run is a card: every count in sight, no table to scroll sideways.
    await tab.setViewportSize({ width: 390, height: 844 });
    const runTable = runs.getByRole('table', { name: 'Recent runs of localhost' });
    await expect(runTable.getByRole('row').nth(1)).toContainText('Done');
    const box = await runTable.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await tab.setViewportSize({ width: 1280, height: 720 });
    await tab.mouse.move(0, 0);
    await lookAt(tab, 'project-runs');

    await current.getByRole('link', { name: '1 gone page' }).click();
    await expect(tab).toHaveURL(/\/reports\?project=localhost&gone=1$/);
    const table = tab.getByRole('table', { name: 'Reports' });
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row').nth(1);
    await expect(row.getByRole('link', { name: `${origin}${paths[2]}` })).toBeVisible();
    await expect(row).toContainText('Gone since');
    await expect(tab.getByText('Gone pages only')).toBeVisible();
    await tab.mouse.move(0, 0);
    await lookAt(tab, 'reports-gone');
  } finally {
    site.closeAllConnections();
    site.close();
  }
});
