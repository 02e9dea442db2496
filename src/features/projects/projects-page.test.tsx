// The projects table: its rows (links, dates, counts, the keyboard) and each row's health.
import { act, screen, waitFor, within } from '@testing-library/react';
import { holdDeletes } from '@/workflows/pending-deletes';
import { describe, expect, it } from 'vitest';
import { capabilitiesWithout, recordRequests, server, useRealApi } from '../../../test/msw';
import { createTestQueryClient } from '../../../test/render';
import { AWKWARD, renderProjects, seedProjects, seedReport, signInForEachTest } from '../../../test/projects-kit';
import { projectHref } from './project-list-view';

signInForEachTest();

describe('Projects table: rows', () => {
  it('shows a skeleton, then each project with a link to its page, its created date and its report count', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'shop.example', 'https://shop.example/cart');
    await seedReport(api, 'blog.example');
    const page = renderProjects();

    expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading projects');
    await waitFor(() => expect(page.names()).toEqual(['blog.example', 'shop.example']));

    const shop = page.rows()[1]!;
    expect(within(shop).getByRole('link', { name: 'shop.example' })).toHaveAttribute(
      'href',
      '/projects/shop.example',
    );
    expect(within(shop).getByRole('cell', { name: '2' })).toBeInTheDocument();
    expect(shop.querySelector('time')).toHaveAttribute('datetime', expect.stringMatching(/^2026-03-01T/));
    expect(within(shop).getByRole('button', { name: 'Delete project shop.example' })).toBeInTheDocument();
    expect(screen.getByText('1–2 of 2 projects')).toBeInTheDocument();
  });

  it('works from the keyboard: j / k move and are said, Enter opens, ? lists the keys', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'blog.example');
    const page = renderProjects();
    await waitFor(() => expect(page.names()).toEqual(['blog.example', 'shop.example']));
    // The keys load once the first view is on screen: press until the first one takes effect.
    await waitFor(async () => {
      await page.user.keyboard('j');
      expect(page.rows()[0]).toHaveFocus();
    });
    await page.user.keyboard('j');
    expect(page.rows()[1]).toHaveFocus();
    expect(screen.getByText('shop.example, project 2 of 2')).toHaveAttribute('role', 'status');
    await page.user.keyboard('k');
    expect(page.rows()[0]).toHaveFocus();

    await page.user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('row', { name: /Enter Open the project you are on/ })).toBeInTheDocument();
    // No selection on this list: no x.
    expect(within(help).queryByRole('row', { name: /^x / })).not.toBeInTheDocument();
    await page.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    page.rows()[0]!.focus();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.address()).toBe('/projects/blog.example'));
  });

  it('links an awkwardly named project to exactly that project’s page', async () => {
    const api = useRealApi();
    await seedProjects(api, [AWKWARD, 'a b', 'ä']);
    const page = renderProjects();

    const link = await screen.findByRole('link', { name: AWKWARD });
    const href = link.getAttribute('href') ?? '';
    expect(href).toBe(projectHref(AWKWARD));
    // Nothing of the name leaks into another path segment, the query or a fragment.
    const url = new URL(href, 'http://localhost');
    expect(url.pathname).toBe('/projects/a%20b%2F%25%26%23%2B%3F%C3%A4');
    expect(url.hash).toBe('');
    expect(url.search).toBe('');

    await page.user.click(link);
    expect(await screen.findByText(`Page of project: ${JSON.stringify(AWKWARD)}`)).toBeInTheDocument();
  });

  it.each([
    'with space',
    'slash/inside',
    '100%',
    'a&b=c',
    'hash#tag',
    'plus+sign',
    'question?mark',
    'bücher.de',
    '例え.jp',
  ])('builds a project link for %j that round-trips', (name) => {
    const url = new URL(projectHref(name), 'http://localhost');
    expect(url.pathname.split('/')).toHaveLength(3);
    expect(decodeURIComponent(url.pathname.split('/')[2]!)).toBe(name);
  });
});

describe('Projects table: health', () => {
  /** GET /reports requests that reached the API. */
  function reportLists(seen: Request[]): URLSearchParams[] {
    return seen
      .filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/v1/reports')
      .map((r) => new URL(r.url).searchParams);
  }

  it('shows each row’s health once the rows are on screen: at most 3 list requests a row, none again within 5 minutes', async () => {
    const api = useRealApi();
    // A deployment without the overview: its rows come without their health.
    server.use(capabilitiesWithout(api, 'overview'));
    const results = ['good', 'good', 'decent', 'bad'] as const;
    // 12 projects; on the first page (10 rows, newest first) project-11 has 4 reports of every result.
    for (let i = 0; i < 12; i += 1) {
      const name = `project-${String(i).padStart(2, '0')}`;
      for (const [n, result] of (i === 11 ? results : results.slice(0, 1)).entries())
        await seedReport(api, name, `https://${name}.example/${n}`, { score: 50, result });
    }
    const queryClient = createTestQueryClient();
    const seen = recordRequests();
    const page = renderProjects('/projects', { queryClient });
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    await waitFor(() => expect(screen.getAllByRole('img', { name: /of \d+ reports?$/ })).toHaveLength(10));
    const row = page.rows()[0]!;
    expect(within(row).getByRole('img', { name: '2 Good, 1 Decent, 1 Bad, of 4 reports' })).toBeInTheDocument();
    expect(within(row).getByText('2 good · 1 decent · 1 bad')).toBeInTheDocument();
    expect(within(page.rows()[1]!).getByRole('img', { name: '1 Good, 0 Decent, 0 Bad, of 1 report' })).toBeInTheDocument();

    const first = reportLists(seen);
    expect(first).toHaveLength(30);
    expect(first.every((params) => params.get('per_page') === '10' && params.has('result'))).toBe(true);

    // Back on the table within 5 minutes: the health comes from the cache, nothing is asked again.
    page.unmount();
    renderProjects('/projects', { queryClient });
    await waitFor(() => expect(screen.getAllByRole('img', { name: /of \d+ reports?$/ })).toHaveLength(10));
    expect(reportLists(seen)).toHaveLength(30);
  });

  it('with the overview, takes each row’s health, average score and unread alerts from one request, and sorts by them', async () => {
    const api = useRealApi();
    for (const [n, result] of (['good', 'bad', 'bad'] as const).entries())
      await seedReport(api, 'shop', `https://shop.example/${n}`, { score: result === 'good' ? 90 : 30, result });
    await seedReport(api, 'blog', 'https://blog.example/', { score: 95, result: 'good' });
    await seedReport(api, 'docs', 'https://docs.example/', { score: 60, result: 'decent' });
    const seen = recordRequests();
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    const row = (name: string) => page.rows().find((r) => within(r).queryByRole('link', { name }))!;
    expect(await within(row('shop')).findByRole('img', { name: '1 Good, 0 Decent, 2 Bad, of 3 reports' })).toBeInTheDocument();
    expect(within(row('shop')).getByText('50.0')).toBeInTheDocument();
    expect(within(row('blog')).getByText('95.0')).toBeInTheDocument();
    // The rows' health came with them: one list request, no report counts per row.
    expect(reportLists(seen)).toHaveLength(0);
    expect(seen.filter((r) => new URL(r.url).pathname === '/api/v1/projects').map((r) => new URL(r.url).searchParams.get('with'))).toEqual(['health']);

    const header = (name: string) => screen.getByRole('columnheader', { name });
    await page.user.click(within(header('Health')).getByRole('button', { name: 'Health' }));
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=health'));
    // Worst first: the largest share of Bad reports.
    await waitFor(() => expect(page.names()[0]).toBe('shop'));
    await page.user.click(within(header('Average score')).getByRole('button', { name: 'Average score' }));
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=average_score'));
    await waitFor(() => expect(page.names()).toEqual(['blog', 'docs', 'shop']));
    await page.user.selectOptions(page.sortBy(), 'Reports');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=reports'));
    await waitFor(() => expect(page.names()[0]).toBe('shop'));
    expect(within(row('shop')).getByRole('cell', { name: '3' })).toBeInTheDocument();
  });

  it('without the overview, drops a sort by health from the address and offers only the contract’s sorts', async () => {
    const api = useRealApi();
    server.use(capabilitiesWithout(api, 'overview'));
    await seedReport(api, 'shop', 'https://shop.example/');
    const page = renderProjects('/projects?sort_by=health');
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    await waitFor(() => expect(page.address()).toBe('/projects'));
    expect(within(page.sortBy()).getAllByRole('option').map((o) => o.textContent)).toEqual(['Date created', 'Name']);
    expect(screen.queryByRole('columnheader', { name: 'Average score' })).not.toBeInTheDocument();
  });

  it('leaves reports held for Undo out of a row’s count and health; a project whose every report is held is not listed', async () => {
    const api = useRealApi();
    const shop = await Promise.all(
      (['good', 'good', 'bad'] as const).map((result, n) =>
        seedReport(api, 'shop', `https://shop.example/${n}`, { score: 50, result }),
      ),
    );
    const blog = await seedReport(api, 'blog', 'https://blog.example/', { score: 90, result: 'good' });
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    const shopRow = () => page.rows().find((row) => within(row).queryByRole('link', { name: 'shop' }))!;
    expect(await within(shopRow()).findByRole('img', { name: '2 Good, 0 Decent, 1 Bad, of 3 reports' })).toBeInTheDocument();

    const target = (report: { id: number; url: string }, project: string, result: 'good' | 'bad') =>
      ({ kind: 'report', id: report.id, url: report.url, project, result }) as const;
    const held = holdDeletes(createTestQueryClient(), [target(shop[2]!, 'shop', 'bad'), target(blog, 'blog', 'good')]);
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    expect(await within(shopRow()).findByRole('img', { name: '2 Good, 0 Decent, 0 Bad, of 2 reports' })).toBeInTheDocument();

    act(() => void held.undo());
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(await within(shopRow()).findByRole('img', { name: '2 Good, 0 Decent, 1 Bad, of 3 reports' })).toBeInTheDocument();
  });
});
