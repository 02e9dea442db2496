// Deleting a project from the projects table: asked first (its name typed when it holds more than 10
// reports), held for Undo, then one DELETE of its name; failure, and what it drops from the cache.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { reportQueries } from '@/api/reports';
import { recordRequests, server, useRealApi } from '../../../test/msw';
import { createTestQueryClient } from '../../../test/render';
import { AWKWARD, deletes, renderProjects, seedReport, signInForEachTest } from '../../../test/projects-kit';
import { passUndoWindow, useUndoClock } from '../../../test/undo-clock';

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

  it('holds the delete with Undo, hides the row at once, and sends one DELETE of its name as one path segment', async () => {
    useUndoClock();
    const api = useRealApi();
    await seedReport(api, AWKWARD);
    await seedReport(api, 'blog.example');
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, AWKWARD);
    expect(dialog).toHaveTextContent(`Its 1 report will be deleted with the project ${AWKWARD}.`);
    // 10 reports or fewer: no name to type.
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    const notice = (await screen.findByText('Project deleted')).closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent(`${AWKWARD} and its 1 report were deleted.`);
    expect(within(notice).getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.names()).toEqual(['blog.example']);
    // The Delete button that opened the dialog is gone; the focus goes to the top of the page, not nowhere.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toHaveFocus());
    expect(deletes(seen)).toEqual([]);

    await passUndoWindow();
    await waitFor(() => expect(deletes(seen)).toHaveLength(1));
    const path = new URL(deletes(seen)[0]!.url).pathname;
    expect(path).toBe(`/api/v1/projects/${encodeURIComponent(AWKWARD)}`);
    expect(decodeURIComponent(path.split('/')[4] ?? '')).toBe(AWKWARD);
    const { storage } = await api.backend();
    await waitFor(async () => expect(await storage.countReports()).toBe(1));
    expect(page.names()).toEqual(['blog.example']);
  });

  it('Undo within the window sends nothing, ever, and the row is back at once', async () => {
    useUndoClock();
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'blog.example');
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(page.names()).toEqual(['blog.example']));
    const gets = seen.length;
    await page.user.click(await screen.findByRole('button', { name: 'Undo' }));
    // Back from the cache: no request, no loading.
    expect([...page.names()].sort()).toEqual(['blog.example', 'shop.example']);
    expect(seen.length).toBe(gets);
    expect(await screen.findByText('Delete undone')).toBeInTheDocument();

    await passUndoWindow();
    await passUndoWindow();
    expect(deletes(seen)).toEqual([]);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(2);
  });

  it('a project of more than 10 reports asks for its name to be typed; a wrong name keeps Delete disabled', async () => {
    const api = useRealApi();
    for (let i = 0; i < 11; i += 1) await seedReport(api, 'shop.example', `https://shop.example/${i}`);
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    expect(dialog).toHaveTextContent('All 11 of its reports will be deleted with the project shop.example.');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    const name = within(dialog).getByRole('textbox', { name: 'Type shop.example to confirm' });
    expect(confirm).toBeDisabled();
    await page.user.type(name, 'shop.exampl');
    expect(confirm).toBeDisabled();
    await page.user.type(name, '{Enter}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await page.user.type(name, 'e ');
    expect(confirm).toBeDisabled();
    await page.user.type(name, '{Backspace}');
    expect(confirm).toBeEnabled();
    await page.user.click(confirm);
    expect(await screen.findByText('Project deleted')).toBeInTheDocument();
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    expect(deletes(seen)).toEqual([]);

    // Opened again (after Undo), the field starts empty.
    await page.user.click(screen.getByRole('button', { name: 'Undo' }));
    const again = await openDialog(page, 'shop.example');
    expect(within(again).getByRole('textbox', { name: 'Type shop.example to confirm' })).toHaveValue('');
    expect(within(again).getByRole('button', { name: 'Delete' })).toBeDisabled();
  });

  it('keeps everything when the delete fails once sent, and says why in a notification', async () => {
    useUndoClock();
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
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    // The scheduler tries a 5xx again, with backoff, before it gives up.
    for (let i = 0; i < 6; i += 1) await passUndoWindow();

    const failure = (await screen.findByText('Project shop.example was not deleted')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(failure).toHaveTextContent('Server Error');
    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(1);
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

    useUndoClock();
    const page = renderProjects('/projects', { queryClient });
    const dialog = await openDialog(page, AWKWARD);
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Project deleted')).toBeInTheDocument();
    await passUndoWindow();

    await waitFor(() => expect(cached(reportQueries.list({ project: AWKWARD }).queryKey)).toBeUndefined());
    expect(cached(reportQueries.detail(gone.id).queryKey)).toBeUndefined();
    // Lists that may hold the project's reports are stale now; another project's report is untouched.
    expect(queryClient.getQueryState(reportQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(reportQueries.detail(kept.id).queryKey)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryData(reportQueries.detail(kept.id).queryKey)).toMatchObject({ id: kept.id });
  });
});
