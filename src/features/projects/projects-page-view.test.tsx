// The projects table: sort, search, per page and paging, in the URL and sent to the API as they are;
// empty and failed loads.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { recordRequests, server, useRealApi } from '../../../test/msw';
import { projectListQueries, renderProjects, seedProjects, signInForEachTest } from '../../../test/projects-kit';

signInForEachTest();

describe('Projects table: controls and the URL', () => {
  it('sorts from the column headers, in step with Sort by and Order', async () => {
    const api = useRealApi();
    await seedProjects(api, ['b.example', 'c.example', 'a.example']);
    const page = renderProjects();
    await waitFor(() => expect(page.names()).toEqual(['a.example', 'c.example', 'b.example']));
    const header = (name: string) => screen.getByRole('columnheader', { name });
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');

    await page.user.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc'));
    await waitFor(() => expect(page.names()).toEqual(['a.example', 'b.example', 'c.example']));
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(page.sortBy()).toHaveValue('project');
    expect(page.order()).toHaveValue('asc');

    await page.user.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(page.names()).toEqual(['c.example', 'b.example', 'a.example']));
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    await page.user.click(within(header('Created')).getByRole('button', { name: 'Created' }));
    await waitFor(() => expect(page.address()).toBe('/projects'));
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');
  });

  it('sends each control’s value to the API and writes it to the URL, back to page 1', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `site-${String(i + 1).padStart(2, '0')}.example`),
    );
    const seen = recordRequests();
    const page = renderProjects('/projects?page=2');
    await waitFor(() => expect(page.names()).toEqual(['site-02.example', 'site-01.example']));

    // Name starts A-Z, as its column header's first click does.
    await page.user.selectOptions(page.sortBy(), 'Name');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc'));
    await waitFor(() => expect(page.names()[0]).toBe('site-01.example'));

    await page.user.selectOptions(page.order(), 'Descending');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project'));
    await waitFor(() => expect(page.names()[0]).toBe('site-12.example'));

    await page.user.selectOptions(page.order(), 'Ascending');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc'));

    await page.user.selectOptions(page.perPage(), '25');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc&per_page=25'));
    await waitFor(() => expect(page.rows()).toHaveLength(12));

    expect(projectListQueries(seen)).toEqual(
      expect.arrayContaining([
        '?per_page=10&sort_by=created_at&sort=desc&page=2',
        '?per_page=10&sort_by=project&sort=desc',
        '?per_page=10&sort_by=project&sort=asc',
        '?per_page=25&sort_by=project&sort=asc',
      ]),
    );
  });

  it('searches once the person stops typing, not once per key', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example', 'shopping.example', 'blog.example']);
    const seen = recordRequests();
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(3));

    await page.user.type(page.search(), 'shop');
    await waitFor(() => expect(page.address()).toBe('/projects?search=shop'));
    await waitFor(() => expect(page.names()).toEqual(['shopping.example', 'shop.example']));
    const searches = projectListQueries(seen)
      .map((query) => new URLSearchParams(query))
      .filter((params) => params.has('search'));
    expect(searches.map((params) => params.get('search'))).toEqual(['shop']);
    expect(searches[0]?.get('search_by')).toBe('project');
  });

  it('shows the view a URL describes and asks the API for exactly that', async () => {
    const api = useRealApi();
    await seedProjects(api, ['b-shop.example', 'a-shop.example', 'blog.example']);
    const seen = recordRequests();
    const page = renderProjects('/projects?search=shop&sort_by=project&sort=asc&per_page=25');

    await waitFor(() => expect(page.names()).toEqual(['a-shop.example', 'b-shop.example']));
    expect(page.search()).toHaveValue('shop');
    expect(page.sortBy()).toHaveDisplayValue('Name');
    expect(page.order()).toHaveDisplayValue('Ascending');
    expect(page.perPage()).toHaveDisplayValue('25');
    expect(projectListQueries(seen)[0]).toBe(
      '?per_page=25&search=shop&search_by=project&sort_by=project&sort=asc',
    );
  });

  it('drops invalid values from the address bar and never sends them', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example']);
    const seen = recordRequests();
    const page = renderProjects('/projects?per_page=7&sort=up&sort_by=password&page=-1&search_by=url');

    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    await waitFor(() => expect(page.address()).toBe('/projects'));
    expect(page.sortBy()).toHaveDisplayValue('Date created');
    expect(page.order()).toHaveDisplayValue('Descending');
    expect(page.perPage()).toHaveDisplayValue('10');
    expect(new Set(projectListQueries(seen))).toEqual(new Set(['?per_page=10&sort_by=created_at&sort=desc']));
  });

  it('goes to the last page when the page asked for is past the end', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `p${i}.example`),
    );
    const page = renderProjects('/projects?page=9');

    await waitFor(() => expect(page.address()).toBe('/projects?page=2'));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByText('11–12 of 12 projects')).toBeInTheDocument();
  });

  it('pages through the list, fetching the next page ahead, and Back returns to the previous page', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}.example`),
    );
    const seen = recordRequests();
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    expect(screen.getByText('1–10 of 12 projects')).toBeInTheDocument();
    // Prefetched before anyone asks for it.
    await waitFor(() =>
      expect(projectListQueries(seen)).toContain('?per_page=10&sort_by=created_at&sort=desc&page=2'),
    );
    const before = seen.length;

    await page.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(page.address()).toBe('/projects?page=2');
    await waitFor(() => expect(page.names()).toEqual(['p01.example', 'p00.example']));
    expect(screen.getByText('11–12 of 12 projects')).toBeInTheDocument();
    expect(projectListQueries(seen.slice(before))).toEqual([]);

    await page.router.navigate(-1);
    await waitFor(() => expect(page.address()).toBe('/projects'));
    await waitFor(() => expect(page.rows()).toHaveLength(10));
  });
  it('keeps the previous rows, marked busy and under a loading bar, while another page loads', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}.example`),
    );
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/api/v1/projects', async ({ request }) => {
        if (new URL(request.url).searchParams.get('page') === '2') await held;
        return undefined; // then the real API answers
      }),
    );
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(10));

    await page.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByRole('table', { name: 'Projects' })).toHaveAttribute('aria-busy', 'true');
    expect(page.rows()).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Page 1' })).toBeDisabled();
    expect(await screen.findByRole('progressbar', { name: 'Loading the projects' })).toBeInTheDocument();

    release();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByRole('table', { name: 'Projects' })).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});

describe('Projects table: empty and failed loads', () => {
  it('says there are no projects yet, and offers to create a report', async () => {
    useRealApi();
    renderProjects();
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New report' })).toHaveAttribute('href', '/reports/new');
  });

  it('says when nothing matches a search, and Clear search shows everything again', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example']);
    const page = renderProjects('/projects?search=nothing-like-this');

    expect(await screen.findByText('No projects match this search')).toBeInTheDocument();
    // The empty state's own button (the search box's clear icon has the same name and effect).
    await page.user.click(screen.getByText('Clear search').closest('button')!);
    await waitFor(() => expect(page.address()).toBe('/projects'));
    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    expect(page.search()).toHaveValue('');
  });

  it('shows a failed load in the table area, keeps the controls, and Retry loads the list', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example']);
    let fail = true;
    server.use(
      http.get('*/api/v1/projects', () =>
        fail ? HttpResponse.json({ message: 'Server Error', status: 500 }, { status: 500 }) : undefined,
      ),
    );
    const page = renderProjects();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The projects could not be loaded');
    expect(page.sortBy()).toBeInTheDocument();
    fail = false;
    await page.user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
