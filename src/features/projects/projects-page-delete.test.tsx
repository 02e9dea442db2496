// Deleting a project from the projects table: asked first, one DELETE of its name, progress, failure,
// and what it drops from the cache.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { reportQueries } from '@/api/reports';
import { recordRequests, server, useRealApi } from '../../../test/msw';
import { createTestQueryClient } from '../../../test/render';
import { AWKWARD, deletes, renderProjects, seedReport, signInForEachTest } from '../../../test/projects-kit';

signInForEachTest();

describe('Deleting a project', () => {
  async function openDialog(page: ReturnType<typeof renderProjects>, name: string) {
    await page.user.click(await screen.findByRole('button', { name: `Delete project ${name}` }));
    return screen.findByRole('dialog', { name: `Delete project ${name}?` });
  }

  it.each([
    [
      'Cancel',
      async (page: ReturnType<typeof renderProjects>) =>
        page.user.click(screen.getByRole('button', { name: 'Cancel' })),
    ],
    ['Escape', async (page: ReturnType<typeof renderProjects>) => page.user.keyboard('{Escape}')],
    [
      'a click outside',
      async (page: ReturnType<typeof renderProjects>) =>
        page.user.click(document.querySelector('.mantine-Modal-overlay') as Element),
    ],
  ])('asks first, naming the project and its reports; %s sends nothing', async (_way, leave) => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'shop.example', 'https://shop.example/cart');
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    expect(dialog).toHaveTextContent('All 2 of its reports will be deleted with the project shop.example.');
    await leave(page);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The dialog is loaded and mounted on this first opening; the focus still goes back to its button.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Delete project shop.example' })).toHaveFocus(),
    );
    expect(deletes(seen)).toEqual([]);
    expect(page.names()).toEqual(['shop.example']);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(2);
  });

  it('deletes an awkwardly named project with one DELETE of its name as one path segment', async () => {
    const api = useRealApi();
    await seedReport(api, AWKWARD);
    await seedReport(api, 'blog.example');
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, AWKWARD);
    expect(dialog).toHaveTextContent(`Its 1 report will be deleted with the project ${AWKWARD}.`);
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Project deleted')).toBeInTheDocument();
    expect(screen.getByText(`${AWKWARD} and its 1 report were deleted.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.names()).toEqual(['blog.example']);
    // The Delete button that opened the dialog is gone; the focus goes to the top of the page, not nowhere.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toHaveFocus());

    expect(deletes(seen)).toHaveLength(1);
    const path = new URL(deletes(seen)[0]!.url).pathname;
    expect(path).toBe(`/api/v1/projects/${encodeURIComponent(AWKWARD)}`);
    expect(decodeURIComponent(path.split('/')[4] ?? '')).toBe(AWKWARD);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(1);
  });

  it('shows progress on Delete while the request runs, and Delete cannot be pressed twice', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.delete('*/api/v1/projects/:project', async () => {
        await held;
        return undefined; // then the real API answers
      }),
    );
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    await page.user.click(confirm);
    await waitFor(() => expect(confirm).toHaveAttribute('data-loading'));
    expect(confirm).toBeDisabled();
    await page.user.click(confirm);
    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    release();
    expect(await screen.findByText('Project deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('table')).not.toBeInTheDocument());
    expect(screen.getByText('No projects yet')).toBeInTheDocument();
    expect(deletes(seen)).toHaveLength(1);
  });

  it('keeps everything when the delete fails, and shows why in the dialog and a notification', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    server.use(
      http.delete('*/api/v1/projects/:project', async () => {
        await delay(10);
        return HttpResponse.json({ message: 'Server Error', status: 500 }, { status: 500 });
      }),
    );
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Server Error');
    expect(await screen.findByText('Project shop.example was not deleted')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.names()).toEqual(['shop.example']);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(1);

    // Opened again, the dialog starts afresh rather than showing the old failure.
    const again = await openDialog(page, 'shop.example');
    expect(within(again).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('drops every cached report list and report of the deleted project, and leaves other projects’ alone', async () => {
    const api = useRealApi();
    const gone = await seedReport(api, AWKWARD);
    const kept = await seedReport(api, 'blog.example');
    const queryClient = createTestQueryClient();
    // What an earlier visit to the reports pages left in the cache.
    await queryClient.fetchQuery(reportQueries.list({ project: AWKWARD }));
    await queryClient.fetchQuery(reportQueries.list({ project: 'blog.example' }));
    await queryClient.fetchQuery(reportQueries.list());
    await queryClient.fetchQuery(reportQueries.detail(gone.id));
    await queryClient.fetchQuery(reportQueries.detail(kept.id));
    const cache = queryClient.getQueryCache();
    const cached = (key: readonly unknown[]) => cache.find({ queryKey: key, exact: true });
    expect(cached(reportQueries.list({ project: AWKWARD }).queryKey)).toBeDefined();

    const page = renderProjects('/projects', { queryClient });
    const dialog = await openDialog(page, AWKWARD);
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Project deleted')).toBeInTheDocument();

    expect(cached(reportQueries.list({ project: AWKWARD }).queryKey)).toBeUndefined();
    expect(cached(reportQueries.detail(gone.id).queryKey)).toBeUndefined();
    // Lists that may hold the project's reports are stale now; another project's report is untouched.
    expect(queryClient.getQueryState(reportQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(reportQueries.detail(kept.id).queryKey)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryData(reportQueries.detail(kept.id).queryKey)).toMatchObject({ id: kept.id });
  });
});
