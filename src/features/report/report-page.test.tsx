import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { saveReportPageTemplate } from '@/lib/report-link';
import { reportQueries } from '@/api/reports';
import type { Report } from '@/contract/domain';
import { createTestQueryClient, renderWithProviders } from '../../../test/render';
import { server } from '../../../test/msw';
import { passUndoWindow, useUndoClock } from '../../../test/undo-clock';
import { ReportHeader } from './header';
import {
  FIRST_ANALYSIS,
  PAGE_URL,
  connectRealApi,
  recordRequests,
  renderReportPage,
  seedReport,
  stopRecording,
} from '../../../test/report-page-kit';

// Each test runs the real API (SQLite) and renders the whole page for every keystroke: seconds, not
// milliseconds, on a busy machine.

afterEach(() => {
  stopRecording();
});

describe('the report page: header', () => {
  it('shows the URL as the heading, a safe Open page link, project, result, score, privacy and dates', async () => {
    connectRealApi();
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);

    expect(await screen.findByRole('heading', { level: 1, name: PAGE_URL })).toBeInTheDocument();
    const open = screen.getByRole('link', { name: /open page/i });
    expect(open).toHaveAttribute('href', PAGE_URL);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'shop.example' })).toHaveAttribute(
      'href',
      '/projects/shop.example',
    );
    expect(screen.getByRole('img', { name: 'Score 62 of 100' })).toBeInTheDocument();
    const details = screen.getByLabelText('Report details');
    expect(within(details).getByText('Decent')).toBeInTheDocument();
    expect(within(details).getByText('Public')).toBeInTheDocument();
    // Generated and created: relative text, the exact moment in <time dateTime>.
    const times = details.querySelectorAll('time');
    expect(times).toHaveLength(2);
    expect(times[0]?.getAttribute('datetime')).toBe(report.generatedAt?.toISOString());
    expect(times[1]?.getAttribute('datetime')).toBe(report.createdAt?.toISOString());
    // Created with its first analysis: said in full here, not a bare "same" (issue 50).
    expect(times[1]).toHaveTextContent(/^same as Generated$/);
  });

  const base: Report = {
    id: 7,
    url: 'example.com/pricing',
    project: 'a b&c.example',
    privacy: 1,
    hasPassword: null,
    result: null,
    score: null,
    results: {},
    generatedAt: null,
    createdAt: null,
    updatedAt: null,
    pageUrl: null,
    runs: null,
    recentScores: null,
  };

  it('links a scheme-less URL over https, encodes the project, and says when there is no score', () => {
    renderWithProviders(<ReportHeader report={base} />);
    expect(screen.getByRole('heading', { level: 1, name: 'example.com/pricing' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /open page/i })).toHaveAttribute(
      'href',
      'https://example.com/pricing',
    );
    expect(screen.getByRole('link', { name: 'a b&c.example' })).toHaveAttribute(
      'href',
      '/projects/a%20b%26c.example',
    );
    expect(screen.queryByRole('img', { name: /score/i })).not.toBeInTheDocument();
    expect(screen.getByText('Not given by the service')).toBeInTheDocument();
    expect(screen.getByText('Unknown')).toBeInTheDocument();
    expect(screen.getAllByText('—')).toHaveLength(2);
  });

  it('never links a URL that is not http(s), and shows markup in it as text', () => {
    const url = 'javascript:alert(1)//<b>bold</b>';
    renderWithProviders(<ReportHeader report={{ ...base, url }} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(url);
    expect(document.querySelector('b')).toBeNull();
    expect(screen.queryByRole('link', { name: /open page/i })).not.toBeInTheDocument();
  });
});

describe('the report page: results', () => {
  it('groups checks by category with passed/total, failed first then by importance, unknown keys under Other', async () => {
    connectRealApi();
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);

    const results = await screen.findByRole('region', { name: 'Results' });
    const categories = within(results).getAllByRole('region');
    expect(
      categories.map((region) => [
        within(region).getByRole('heading', { level: 3 }).textContent,
        within(region).getByText(/of \d+ passed$/).textContent,
      ]),
    ).toEqual([
      ['SEO', '2 of 5 passed'],
      ['Performance', '1 of 2 passed'],
      ['Security', '1 of 1 passed'],
      ['Miscellaneous', '1 of 1 passed'],
      ['Other', '0 of 1 passed'],
    ]);
    expect(screen.getByText('5 of 10 checks passed')).toBeInTheDocument();

    const seo = screen.getByRole('list', { name: 'SEO checks' });
    expect(
      within(seo)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Meta description', 'Language', 'Favicon', 'Title', 'Headings']);

    // A failed known check: icon plus word, importance, what went wrong, how to fix it.
    const meta = within(seo).getAllByRole('listitem')[0]!;
    expect(within(meta).getByText('Failed')).toBeInTheDocument();
    expect(within(meta).getByText('High importance')).toBeInTheDocument();
    expect(within(meta).getByText('The page has no meta description.')).toBeInTheDocument();
    expect(within(meta).getByText(/How to fix/)).toBeInTheDocument();
    // A passed one: no advice, its evidence.
    const title = within(seo)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByRole('heading', { name: 'Title' }))!;
    expect(within(title).getByText('Passed')).toBeInTheDocument();
    expect(within(title).queryByText(/How to fix/)).not.toBeInTheDocument();
    expect(within(title).getByText('Pricing - Example Shop')).toBeInTheDocument();
    expect(within(title).getByText('22 characters')).toBeInTheDocument();

    const performance = screen.getByRole('list', { name: 'Performance checks' });
    expect(within(performance).getByText('2,140 ms')).toBeInTheDocument();
    expect(within(performance).getByText('341.8 KB')).toBeInTheDocument();
    expect(
      within(performance).getByText('The page took 2,140 ms to arrive; under 1,000 ms is the aim.'),
    ).toBeInTheDocument();

    // The unknown check, its nested value as rows and its unknown error in words.
    const other = screen.getByRole('list', { name: 'Other checks' });
    expect(within(other).getByRole('heading', { name: 'Page speed index' })).toBeInTheDocument();
    expect(within(other).getByText('First paint')).toBeInTheDocument();
    expect(within(other).getByText('1,420')).toBeInTheDocument();
    expect(within(other).getByText('Over budget: limit: 1,000')).toBeInTheDocument();
  });

  it('renders results of shapes it does not know as text: nested objects, arrays, nulls', async () => {
    connectRealApi({
      score: 40,
      result: 'bad',
      results: {
        title: {
          passed: false,
          importance: 'high',
          value: { text: null, candidates: [['a', { b: null }], []] },
        },
        mystery: {
          passed: false,
          importance: 'medium',
          value: [{ url: 'https://x.example/a', sizes: { w: 10, h: null } }, null, [1, [2, [3, [4, [5]]]]]],
          errors: { nested: { reason: { code: 7 } }, list: [1, 'two'], 3: null },
        },
        nothing: { passed: true, importance: 'low', value: null },
      },
    });
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);

    const other = await screen.findByRole('list', { name: 'Other checks' });
    expect(within(other).getByRole('heading', { name: 'Mystery' })).toBeInTheDocument();
    expect(within(other).getByText('https://x.example/a')).toBeInTheDocument();
    expect(within(other).getByText('Sizes')).toBeInTheDocument();
    expect(within(other).getByText('Nested: reason: code: 7')).toBeInTheDocument();
    expect(within(other).getByText('List: 1, two')).toBeInTheDocument();
    // Deeper than the limit: counted, not dropped.
    expect(within(other).getByText('2 items')).toBeInTheDocument();
    const seo = screen.getByRole('list', { name: 'SEO checks' });
    expect(within(seo).getByText('Candidates')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/\[object Object\]|undefined/);
  });

  it('says so when the service sent no results', async () => {
    connectRealApi({ score: 0, result: 'bad', results: {} });
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);
    expect(await screen.findByText('No results')).toBeInTheDocument();
  });
});

describe('the report page: Fix first and passed checks', () => {
  const SHOW_PASSED_KEY = 'report-show-passed';
  afterEach(() => localStorage.removeItem(SHOW_PASSED_KEY));

  it('lists the failed checks of every category, most important first, with their advice', async () => {
    connectRealApi();
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);
    const fix = await screen.findByRole('region', { name: 'Fix first' });
    const items = within(fix).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual([
      'Meta description',
      'Load time',
      'Language',
      'Favicon',
      'Page speed index',
    ]);
    expect(within(items[0]!).getByRole('link')).toHaveAttribute('href', '#check-meta_description');
    expect(items[0]).toHaveTextContent('High importance');
    expect(items[0]).toHaveTextContent(
      'Search engines often use the description as the snippet under the title.',
    );
    expect(items[0]).toHaveTextContent('Add a <meta name="description">');
    // The tab names the report.
    expect(document.title).toBe(`${PAGE_URL} · Report · Webpage Reports`);
  });

  it('shows the five most important with "+N more"; the results link to advice shown above instead of repeating it', async () => {
    const failing = (importance: 'high' | 'medium' | 'low') => ({ passed: false, importance, value: null });
    connectRealApi({
      score: 20,
      result: 'bad',
      results: {
        title: failing('high'),
        meta_description: failing('high'),
        headings: failing('medium'),
        image_keywords: failing('medium'),
        language: failing('low'),
        favicon: failing('low'),
        https_encryption: failing('high'),
        load_time: failing('medium'),
      },
    });
    const report = await seedReport();
    const { user } = renderReportPage(`/reports/${report.id}`);
    const fix = await screen.findByRole('region', { name: 'Fix first' });
    const names = () =>
      within(fix)
        .getAllByRole('listitem')
        .map((item) => within(item).getByRole('link').textContent);
    expect(names()).toHaveLength(5);
    const more = within(fix).getByRole('button', { name: '+3 more' });
    expect(more).toHaveAttribute('aria-expanded', 'false');

    // The advice of the five shown is said once, in Fix first; the results link there.
    const shown = new Set(names());
    const checks = await screen.findAllByRole('heading', { level: 4 });
    for (const heading of checks) {
      const item = heading.closest('li')!;
      const name = heading.textContent!;
      const advice = within(item).getByText(/How to fix/).parentElement!;
      if (shown.has(name)) {
        expect(advice).toHaveTextContent(`How to fix: see ${name} in Fix first.`);
        expect(within(advice).getByRole('link', { name: `${name} in Fix first` })).toBeInTheDocument();
      } else {
        expect(advice.textContent!.length).toBeGreaterThan(60);
      }
    }
    const first = names()[0]!;
    const link = screen.getByRole('link', { name: `${first} in Fix first` });
    await user.click(link);
    expect(within(fix).getAllByRole('listitem')[0]).toHaveFocus();

    await user.click(more);
    expect(names()).toHaveLength(8);
    expect(within(fix).getByRole('button', { name: 'Show the first five only' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('moves the focus to a check from its Fix first link, and puts the check in the address', async () => {
    connectRealApi();
    const report = await seedReport();
    const { user, router } = renderReportPage(`/reports/${report.id}`);
    const fix = await screen.findByRole('region', { name: 'Fix first' });
    await screen.findByRole('list', { name: 'Performance checks' });
    await user.click(within(fix).getByRole('link', { name: 'Load time' }));
    expect(router.state.location.hash).toBe('#check-load_time');
    const loadTime = within(screen.getByRole('list', { name: 'Performance checks' }))
      .getAllByRole('listitem')
      .find((item) => within(item).queryByRole('heading', { name: 'Load time' }));
    expect(loadTime).toHaveFocus();
  });

  it('collapses passed checks per category behind a count; Show passed checks shows them all and is remembered', async () => {
    connectRealApi();
    const report = await seedReport();
    const { user, unmount } = renderReportPage(`/reports/${report.id}`);
    const seo = await screen.findByRole('region', { name: 'SEO' });
    const collapsed = () =>
      screen
        .getAllByRole('listitem')
        .filter((item) => item.hasAttribute('data-collapsed'))
        .map((item) => within(item).getByRole('heading', { level: 4 }).textContent);
    expect(collapsed()).toEqual(['Title', 'Headings', 'Page size', 'HTTPS encryption', 'Character set']);
    // The category headings keep their counts.
    expect(within(seo).getByText('2 of 5 passed')).toBeInTheDocument();

    await user.click(within(seo).getByRole('button', { name: 'Show 2 passed checks' }));
    expect(collapsed()).toEqual(['Page size', 'HTTPS encryption', 'Character set']);

    const toggle = screen.getByRole('switch', { name: 'Show passed checks' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(collapsed()).toEqual([]);
    expect(screen.queryByRole('button', { name: /^Show \d+ passed/ })).not.toBeInTheDocument();

    // Another visit on this device: still shown.
    unmount();
    renderReportPage(`/reports/${report.id}`);
    expect(await screen.findByRole('switch', { name: 'Show passed checks' })).toBeChecked();
    expect(collapsed()).toEqual([]);
  });

  it('opens and focuses a passed check when the address names it', async () => {
    connectRealApi();
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}#check-title`);
    const seo = await screen.findByRole('list', { name: 'SEO checks' });
    const title = within(seo)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByRole('heading', { name: 'Title' }))!;
    await waitFor(() => expect(title).toHaveFocus());
    expect(title).not.toHaveAttribute('data-collapsed');
  });

  it('gives the address of the report’s public page to copy, and says what a visitor meets there', async () => {
    connectRealApi();
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);
    const link = await screen.findByRole('textbox', { name: 'Report link' });
    expect(link).toHaveAttribute('readonly');
    expect((link as HTMLInputElement).value).toMatch(new RegExp(`^https?://[^/]+/r/${report.id}$`));
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.getByText('Public: anyone with the link sees the report.')).toBeInTheDocument();
  });

  it('uses the Report page address from Settings over the service’s page_url', async () => {
    connectRealApi();
    const report = await seedReport();
    saveReportPageTemplate('https://share.example/report/{id}');
    renderReportPage(`/reports/${report.id}`);
    expect(await screen.findByRole('textbox', { name: 'Report link' })).toHaveValue(
      `https://share.example/report/${report.id}`,
    );
  });

  it('says so when nothing failed', async () => {
    connectRealApi({
      score: 100,
      result: 'good',
      results: { title: { passed: true, importance: 'high', value: 'A page' } },
    });
    const report = await seedReport();
    renderReportPage(`/reports/${report.id}`);
    const fix = await screen.findByRole('region', { name: 'Fix first' });
    expect(fix).toHaveTextContent('Nothing failed: every check passed.');
  });
});

describe('the report page: not found and failures', () => {
  it('shows "Report not found" with a way back for an unknown id', async () => {
    connectRealApi();
    renderReportPage('/reports/999');
    expect(await screen.findByRole('heading', { level: 1, name: 'Report not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to all reports' })).toHaveAttribute('href', '/reports');
  });

  it('shows "Report not found" for an id that cannot exist, without asking the API', async () => {
    // No handlers: any request would fail the test (onUnhandledRequest: 'error').
    saveConnection({ baseUrl: '', apiKey: 'some-key', remember: false });
    for (const path of ['/reports/abc', '/reports/0', '/reports/12.5', '/reports/99999999999999999']) {
      const { unmount } = renderReportPage(path);
      expect(await screen.findByRole('heading', { level: 1, name: 'Report not found' })).toBeInTheDocument();
      unmount();
    }
  });

  it('shows a failed load with Retry, and the report once Retry works', async () => {
    connectRealApi();
    const report = await seedReport();
    let failures = 1;
    server.use(
      http.get('*/api/v1/reports/:id', () => {
        if (failures-- > 0)
          return HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 });
        return undefined;
      }),
    );
    const queryClient = createTestQueryClient();
    const { user } = renderReportPage(`/reports/${report.id}`, queryClient);
    expect(await screen.findByText('The report could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Server error.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 1, name: PAGE_URL })).toBeInTheDocument();
  });
});

describe('the report page: delete', () => {
  it('Cancel sends nothing; Delete returns to /reports, says so with Undo, and sends the DELETE once the window is over', async () => {
    useUndoClock();
    connectRealApi();
    const report = await seedReport();
    const other = await seedReport({ url: 'https://shop.example/other' });
    const queryClient = createTestQueryClient();
    // A list seen earlier, no longer on screen.
    await queryClient.fetchQuery(reportQueries.list());
    expect(queryClient.getQueryData(reportQueries.list().queryKey)?.items.map((r) => r.id)).toEqual([
      other.id,
      report.id,
    ]);
    const requests = recordRequests();
    const { user, router } = renderReportPage(`/reports/${report.id}`, queryClient);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });

    await user.click(await screen.findByRole('button', { name: 'Delete report' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this report?' });
    expect(dialog).toHaveTextContent(PAGE_URL);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The focus goes back to the button that opened the dialog, not to the page's body.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete report' })).toHaveFocus());
    expect((await requests.settled()).filter((r) => r.method !== 'GET')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete report' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reports');
    const notice = (await screen.findByText('Report deleted')).closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent(`The report of ${PAGE_URL} was deleted.`);
    expect(within(notice).getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    expect((await requests.settled()).filter((r) => r.method !== 'GET')).toEqual([]);

    await passUndoWindow();
    await waitFor(() => expect(within(notice).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument());
    await waitFor(async () =>
      expect((await requests.settled()).filter((r) => r.method === 'DELETE')).toEqual([
        { method: 'DELETE', path: `/api/v1/reports/${report.id}`, body: [] },
      ]),
    );
    await waitFor(() =>
      expect(queryClient.getQueryData(reportQueries.list().queryKey)?.items.map((r) => r.id)).toEqual([other.id]),
    );
    expect(queryClient.getQueryData(reportQueries.detail(report.id).queryKey)).toBeUndefined();
  });

  it('Undo sends nothing and brings the person back to the report', async () => {
    useUndoClock();
    connectRealApi();
    const report = await seedReport();
    const requests = recordRequests();
    const { user, router } = renderReportPage(`/reports/${report.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('heading', { level: 1, name: PAGE_URL })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/reports/${report.id}`);
    expect(await screen.findByText('Delete undone')).toBeInTheDocument();
    await passUndoWindow();
    await passUndoWindow();
    expect((await requests.settled()).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('leaves without asking about unsaved changes once the report is deleted', async () => {
    connectRealApi();
    const report = await seedReport();
    const { user, router } = renderReportPage(`/reports/${report.id}`);
    await user.click(await screen.findByRole('radio', { name: 'Private' }));
    await user.click(screen.getByRole('button', { name: 'Delete report' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this report?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reports');
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).not.toBeInTheDocument();
  });

  it('says why when the delete fails once sent, and offers the report again', async () => {
    useUndoClock();
    connectRealApi();
    const report = await seedReport();
    server.use(
      http.delete('*/api/v1/reports/:id', () =>
        HttpResponse.json({ message: 'This action is unauthorized.' }, { status: 403 }),
      ),
    );
    const { user, router } = renderReportPage(`/reports/${report.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await passUndoWindow();

    const reason = 'This report does not exist or does not belong to your API key.';
    const failure = (await screen.findByText('Report not deleted')).closest('[role="alert"]') as HTMLElement;
    expect(failure).toHaveTextContent(reason);
    expect(failure).toHaveTextContent(`${PAGE_URL}: `);
    expect(router.state.location.pathname).toBe('/reports');
  });
});

describe('the report page: leaving with unsaved changes', () => {
  it('asks before leaving; Stay stays, Leave leaves; nothing is asked without changes', async () => {
    connectRealApi(FIRST_ANALYSIS);
    const report = await seedReport();
    const { user, router } = renderReportPage(`/reports/${report.id}`);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });

    // The browser's own prompt on unload only with changes.
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);

    await user.click(await screen.findByRole('radio', { name: 'Private' }));
    expect(unload()).toBe(true);

    await user.click(screen.getByRole('link', { name: 'All reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(`/reports/${report.id}`);
    expect(screen.getByRole('radio', { name: 'Private' })).toBeChecked();

    await user.click(screen.getByRole('link', { name: 'shop.example' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Project shop.example' }),
    ).toBeInTheDocument();
  });

  it('lets the person go without asking once the change is undone', async () => {
    connectRealApi(FIRST_ANALYSIS);
    const report = await seedReport();
    const { user } = renderReportPage(`/reports/${report.id}`);
    await user.click(await screen.findByRole('radio', { name: 'Private' }));
    await user.click(screen.getByRole('radio', { name: 'Public' }));
    await user.click(screen.getByRole('link', { name: 'All reports' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
