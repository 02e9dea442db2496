// Saved views on the reports list: Save view, and the Views menu's open, rename and delete; kept on
// the device, a damaged entry left out with a note and kept as it was.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { realApi } from '../../../test/msw';
import { renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

beforeAll(async () => {
  await realApi().backend();
});

const STORE = 'wrs.saved-views';
const stored = () =>
  JSON.parse(window.localStorage.getItem(STORE) ?? 'null') as { version: number; views: unknown[] };

type Page = ReturnType<typeof renderReports>;

async function openViews(page: Page) {
  await page.user.click(await screen.findByRole('button', { name: 'Views' }));
  return screen.findByRole('menu');
}

async function saveView(page: Page, name: string) {
  await page.user.click(await screen.findByRole('button', { name: 'Save view' }));
  const dialog = await screen.findByRole('dialog', { name: 'Save view' });
  const field = within(dialog).getByRole('textbox', { name: 'Name' });
  await page.user.clear(field);
  await page.user.type(field, name);
  await page.user.click(within(dialog).getByRole('button', { name: 'Save view' }));
}

describe('Reports: saved views', () => {
  it('saves the view under a name, opens it from Views, renames it and deletes it', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const page = renderReports('/reports?result=good&sort_by=url&sort=asc&page=1');
    await waitFor(() => expect(page.urls()).toEqual(['https://shop.example/']));

    await saveView(page, 'Good <b>pages</b>');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save view' })).toBeNull());
    expect(stored().views).toEqual([
      expect.objectContaining({
        name: 'Good <b>pages</b>',
        path: '/reports',
        // Its rows a page spelled out: a device that remembers another choice opens it with these.
        search: 'result=good&sort_by=url&sort=asc&per_page=10',
      }),
    ]);

    // Elsewhere, the view brings its filters and sort back; it is a plain address.
    await page.router.navigate('/reports');
    await waitFor(() => expect(page.urls()).toHaveLength(3));
    let menu = await openViews(page);
    const item = within(menu).getByRole('menuitem', { name: 'Good <b>pages</b>' });
    expect(item).toHaveAttribute('href', '/reports?result=good&sort_by=url&sort=asc&per_page=10');
    await page.user.click(item);
    await waitFor(() => expect(page.search()).toBe('?result=good&sort_by=url&sort=asc'));
    await waitFor(() => expect(page.urls()).toEqual(['https://shop.example/']));
    expect(page.control('Result')).toHaveValue('good');
    expect(page.control('Sort by')).toHaveValue('url');

    menu = await openViews(page);
    const rename1 = within(menu).getByRole('menuitem', { name: 'Rename', description: 'Good <b>pages</b>' });
    await page.user.click(rename1);
    const rename = await screen.findByRole('dialog', { name: /^Rename view/ });
    const name = within(rename).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Good <b>pages</b>');
    await page.user.clear(name);
    await page.user.type(name, 'Best');
    await page.user.click(within(rename).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Rename view/ })).toBeNull());
    expect(stored().views).toEqual([
      expect.objectContaining({ name: 'Best', search: 'result=good&sort_by=url&sort=asc&per_page=10' }),
    ]);

    menu = await openViews(page);
    expect(within(menu).getByRole('menuitem', { name: 'Best' })).toBeInTheDocument();
    await page.user.click(within(menu).getByRole('menuitem', { name: 'Delete', description: 'Best' }));
    await waitFor(() => expect(stored().views).toEqual([]));
    menu = await openViews(page);
    expect(within(menu).queryAllByRole('menuitem')).toEqual([]);
    expect(within(menu).getByText(/No saved views of this list yet/)).toBeInTheDocument();
  });

  it('asks for a name, and a name no other view of the list has', async () => {
    await withReports(['https://shop.example/']);
    const page = renderReports('/reports?result=good');
    await waitFor(() => expect(page.urls()).toHaveLength(1));
    await saveView(page, 'Mine');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await page.user.click(await screen.findByRole('button', { name: 'Save view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText('Give the view a name.')).toBeInTheDocument();
    await page.user.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' MINE ');
    await page.user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText(/already named “MINE”/)).toBeInTheDocument();
    expect(stored().views).toHaveLength(1);
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Save view' })).toHaveFocus();
  });

  it('leaves out a saved view it cannot read, says so, and keeps it when the others change', async () => {
    const good = {
      id: 'a1',
      name: 'Bad ones',
      path: '/reports',
      search: 'result=bad',
      columns: null,
      savedAt: 1,
    };
    const damaged = [
      { id: 'b2', name: 42, path: '/reports' },
      { id: 'c3', name: 'Elsewhere', path: '//evil.example', search: '', columns: null, savedAt: 1 },
    ];
    window.localStorage.setItem(STORE, JSON.stringify({ version: 1, views: [damaged[0], good, damaged[1]] }));
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const page = renderReports();
    await waitFor(() => expect(page.urls()).toHaveLength(2));

    const menu = await openViews(page);
    expect(within(menu).getByText('2 saved views could not be read and are left out.')).toBeInTheDocument();
    expect(
      within(menu)
        .getAllByRole('menuitem', { name: /^(?!Rename$|Delete$)/ })
        .map((item) => item.textContent),
    ).toEqual(['Bad ones']);
    await page.user.click(within(menu).getByRole('menuitem', { name: 'Bad ones' }));
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));

    await saveView(page, 'Again');
    await waitFor(() => expect(stored().views).toHaveLength(4));
    expect(stored().views.slice(0, 3)).toEqual([damaged[0], good, damaged[1]]);
  });

  it('says so when the device holds views it cannot read at all, and keeps them aside', async () => {
    window.localStorage.setItem(STORE, '{"version":1,"views":');
    await withReports(['https://shop.example/']);
    const page = renderReports();
    await waitFor(() => expect(page.urls()).toHaveLength(1));
    const menu = await openViews(page);
    expect(within(menu).getByText(/could not be read/)).toBeInTheDocument();
    await page.user.keyboard('{Escape}');

    await saveView(page, 'Fresh');
    await waitFor(() => expect(stored().views).toHaveLength(1));
    expect(window.localStorage.getItem(`${STORE}.unreadable`)).toBe('{"version":1,"views":');
  });
});
