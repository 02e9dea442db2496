import { expect, test } from '@playwright/test';
import { lookAt, signIn } from './support';

// Health over time (issue 46): the projects table's health from one request, sorted by it, and a
// project's page with its health per day over 30 / 90 / 365 days, drawn, and in words. The demo's
// reports were first analysed over the last two weeks (server/src/demo/seed.ts).

test('the projects table sorts by health; a project’s page draws its health over time', async ({ page }) => {
  await signIn(page);
  await page.goto('/projects');
  const table = page.getByRole('table', { name: 'Projects' });
  await table.getByRole('columnheader', { name: 'Health' }).getByRole('button', { name: 'Health' }).click();
  await expect(page).toHaveURL(/\/projects\?sort_by=health$/);
  await expect(table.getByRole('columnheader', { name: 'Health' })).toHaveAttribute('aria-sort', 'descending');
  const first = table.getByRole('row').nth(1);
  await expect(first.getByRole('img', { name: /of \d+ reports?$/ })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Average score' })).toBeVisible();
  await page.mouse.move(0, 0);
  await lookAt(page, 'projects-health');

  await page.goto('/projects/shop.example');
  const section = page.getByRole('region', { name: 'Health over time' });
  // Drawn: a canvas in the chart, named by what it shows.
  const chart = section.getByRole('img', { name: /^Health over the last 30 days, \d+ days with reports: / });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toHaveCount(1);
  const box = await chart.locator('canvas').boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(200);
  // Two weeks of demo history: more than one day with reports.
  await expect(chart).not.toHaveAccessibleName(/, 1 days with reports/);

  await section.getByRole('button', { name: 'Show the days' }).click();
  const days = section.getByRole('table', { name: 'Health by day' });
  await expect(days.getByRole('row').nth(1)).toBeVisible();
  expect(await days.getByRole('row').count()).toBeGreaterThan(2);

  await section.getByText('90 days').click();
  await expect(section.getByRole('img', { name: /^Health over the last 90 days/ })).toBeVisible();
  // On a phone each choice of Days shown is a 44 px target.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const label of ['30 days', '90 days']) {
    const choice = section.getByText(label, { exact: true });
    const target = choice.locator('xpath=ancestor-or-self::label[1]');
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.mouse.move(0, 0);
  await lookAt(page, 'project-health-days');
});
