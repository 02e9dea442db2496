import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { updateReport } from '@/api/reports';
import {
  FIRST_ANALYSIS,
  PAGE_URL,
  SECOND_ANALYSIS,
  connectRealApi,
  connectRealApiAt,
  editForm,
  recordRequests,
  renderReportPage,
  seedReport,
  stopRecording,
  withoutHistory,
} from '../../../test/report-page-kit';

// The real API (SQLite in memory) keeps every analysis as a run; a scripted analyser decides what
// each run finds. Seconds per test on a busy machine.

afterEach(() => {
  stopRecording();
});

const CHANGES_62_TO_84 = [
  'Title: passed before, fails now',
  'Meta description: failed before, passes now',
  'Favicon: failed before, passes now',
  'Load time: failed before, passes now',
  'Social media tags: new check, fails',
  'Page speed index: no longer checked (failed before)',
];

async function history() {
  return screen.findByRole('region', { name: 'History' }, { timeout: 10_000 });
}

function changedChecks(summary: HTMLElement): (string | null)[] {
  return within(within(summary).getByRole('list', { name: 'Checks that changed' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

function runRows(section: HTMLElement): string[][] {
  const table = within(section).getByRole('table', { name: 'Runs, newest first' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((cell) => cell.textContent ?? ''),
    );
}

/** A report analysed once per analysis given (create, then a refresh for each further one). */
async function reportWithRuns(...analyses: Parameters<typeof connectRealApi>) {
  const api = connectRealApi(...analyses);
  const report = await seedReport();
  for (let i = 1; i < analyses.length; i += 1) await updateReport({ id: report.id, refreshResults: true });
  return { api, report };
}

describe('the report page: history', () => {
  it('shows the score over time, the runs, and what changed between the newest two, after a reload', async () => {
    const { report } = await reportWithRuns(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const requests = recordRequests();
    renderReportPage(`/reports/${report.id}`);

    const section = await history();
    expect(within(section).getByText('2 runs kept')).toBeInTheDocument();
    // Two runs moments apart (a page analysed twice in a row): folded to one line until asked.
    expect(
      await within(section).findByText(/^Two runs \d+ seconds? apart: score 62, then score 84\.$/),
    ).toBeInTheDocument();
    expect(within(section).queryByRole('region', { name: 'What changed' })).not.toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Show history' }));
    expect(within(section).getByRole('heading', { name: 'History' })).toHaveFocus();
    const summary = await within(section).findByRole('region', { name: 'What changed' });
    expect(within(summary).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 62 to 84 (+22)');
    expect(within(summary).getByText(/^Result:/).parentElement?.textContent).toBe('Result: Decent to Good');
    expect(changedChecks(summary)).toEqual(CHANGES_62_TO_84);
    expect(summary).toHaveTextContent('(the newest two)');
    // Shown on arrival, it does not take the focus from the page.
    expect(within(summary).getByRole('heading', { name: 'What changed' })).not.toHaveFocus();
    expect(runRows(section)).toEqual([
      ['84', 'Good'],
      ['62', 'Decent'],
    ]);
    expect(
      within(section).getByRole('img', {
        name: /^Score over time, 2 runs: 62 on .*, 84 on .*; lowest 62, highest 84\.$/,
      }),
    ).toBeInTheDocument();
    // The chart names its bands, from the contract's thresholds.
    expect(
      within(section).getByText('Bands: Good, 80 and above · Decent, 49–79 · Bad, below 49.'),
    ).toBeInTheDocument();
    // One request for the runs, newest 100.
    const runs = (await requests.settled()).filter((r) => r.path.endsWith('/runs'));
    expect(runs.map((r) => r.path)).toEqual([`/api/v1/reports/${report.id}/runs`]);
  });

  it('marks the project’s deploys made since the first run on the chart, and names them under it', async () => {
    const api = connectRealApi(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const report = await seedReport();
    const { storage } = await api.backend();
    await storage.runLog.addDeploy({ project: report.project, label: 'release 7', url: 'https://git.example/r/7', now: new Date() });
    await updateReport({ id: report.id, refreshResults: true });
    renderReportPage(`/reports/${report.id}`);
    const section = await history();
    await userEvent.click(await within(section).findByRole('button', { name: 'Show history' }));
    expect(await within(section).findByRole('link', { name: 'release 7' })).toHaveAttribute('href', 'https://git.example/r/7');
    expect(within(section).getByText(/^Deploys marked \(dashed lines\):/)).toBeInTheDocument();
  });

  it('compares any two runs, older before newer whichever field holds it', async () => {
    const { report } = await reportWithRuns(FIRST_ANALYSIS, SECOND_ANALYSIS, FIRST_ANALYSIS);
    const { user } = renderReportPage(`/reports/${report.id}`);
    const section = await history();
    await waitFor(() => expect(runRows(section).map((row) => row[0])).toEqual(['62', '84', '62']));
    // By default the newest two: 84 then 62.
    const summary = within(section).getByRole('region', { name: 'What changed' });
    expect(within(summary).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 84 to 62 (-22)');

    const compare = within(section).getByRole('form', { name: 'Compare two runs' });
    const from = within(compare).getByRole('combobox', { name: 'From run' });
    const to = within(compare).getByRole('combobox', { name: 'To run' });
    const options = within(from).getAllByRole('option');
    expect(options.map((o) => o.textContent?.split(' · ')[1])).toEqual(['score 62', 'score 84', 'score 62']);

    // The same run twice cannot be compared.
    await user.selectOptions(from, options[0]!);
    await user.selectOptions(to, within(to).getAllByRole('option')[0]!);
    expect(to).toHaveAccessibleDescription('Choose two different runs.');
    expect(within(compare).getByRole('button', { name: 'Compare' })).toBeDisabled();

    // Newest in "From", oldest in "To": still compared oldest to newest; the same analysis twice.
    await user.selectOptions(to, within(to).getAllByRole('option')[2]!);
    await user.click(within(compare).getByRole('button', { name: 'Compare' }));
    const heading = within(section).getByRole('heading', { name: 'What changed' });
    await waitFor(() => expect(heading).toHaveFocus());
    const compared = within(section).getByRole('region', { name: 'What changed' });
    expect(compared).toHaveTextContent(
      'Nothing changed: the score, the result and every check came out as before.',
    );
    expect(compared).not.toHaveTextContent('(the newest two)');
  });
});

/**
 * A report analysed once per analysis given, each on its own day (from `days` days ago, a day apart),
 * then once more per repeat, a minute apart on the last day: runs close together after a change.
 */
async function reportWithDatedRuns(analyses: Parameters<typeof connectRealApi>, repeats: number) {
  let clock = new Date(Date.now() - analyses.length * 86_400_000);
  connectRealApiAt(() => clock, ...analyses);
  const report = await seedReport();
  for (let i = 1; i < analyses.length + repeats; i += 1) {
    clock = new Date(clock.getTime() + (i < analyses.length ? 86_400_000 : 60_000));
    await updateReport({ id: report.id, refreshResults: true });
  }
  return report;
}

/** The line under the score: "Changed since last run" (a link to History's comparison). */
function lastChangeLink(name: RegExp) {
  return screen.findByRole('link', { name }, { timeout: 10_000 });
}

describe('the report page: history, the newest run against the last that differs', () => {
  it('compares the newest run with the last run that differs, past runs that came out the same', async () => {
    // 62 days ago, then 84 and the same 84 twice more, minutes apart.
    const report = await reportWithDatedRuns([FIRST_ANALYSIS, SECOND_ANALYSIS], 2);
    renderReportPage(`/reports/${report.id}`);
    const section = await history();
    await waitFor(() => expect(runRows(section).map((row) => row[0])).toEqual(['84', '84', '84', '62']));
    const summary = within(section).getByRole('region', { name: 'What changed' });
    expect(within(summary).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 62 to 84 (+22)');
    expect(changedChecks(summary)).toEqual(CHANGES_62_TO_84);
    expect(summary).toHaveTextContent(/From the run of .* to the run of .*: the last change \(the newest 3 runs came out the same\)\./);
    // Compare still takes any two: the newest two are the same analysis.
    const compare = within(section).getByRole('form', { name: 'Compare two runs' });
    expect(within(compare).getByRole('combobox', { name: 'From run' })).toHaveValue('3');
    expect(within(compare).getByRole('combobox', { name: 'To run' })).toHaveValue('0');
    const user = userEvent.setup();
    await user.selectOptions(within(compare).getByRole('combobox', { name: 'From run' }), '1');
    await user.click(within(compare).getByRole('button', { name: 'Compare' }));
    await waitFor(() => expect(summary).toHaveTextContent('Nothing changed: the score, the result and every check came out as before.'));
  });

  it('says plainly when no run kept differs from the newest', async () => {
    const report = await reportWithDatedRuns([SECOND_ANALYSIS], 2);
    renderReportPage(`/reports/${report.id}`);
    const section = await history();
    const summary = await within(section).findByRole('region', { name: 'What changed' });
    expect(summary).toHaveTextContent(
      /No change in the last 3 runs: the score and the failing checks are the same from the run of .* to the run of .*\./,
    );
    expect(await lastChangeLink(/^No change in the last 3 runs$/)).toBeInTheDocument();
  });
});

describe('the report page: changed since last run, under the score', () => {
  it('says what changed since the last run that differs, and links to that comparison in History', async () => {
    const report = await reportWithDatedRuns([FIRST_ANALYSIS, SECOND_ANALYSIS], 1);
    const requests = recordRequests();
    const { user } = renderReportPage(`/reports/${report.id}`);
    // "since" the day of the 62 run: 2 checks fail that did not (the title, the new social tags).
    const link = await lastChangeLink(/^Score 62 → 84 since \d{1,2} \w{3}( \d{4})? \(2 checks newly failing\)$/);
    expect(link).toHaveAttribute('href', `/reports/${report.id}#history-comparison`);
    await user.click(link);
    const section = await history();
    const heading = await within(section).findByRole('heading', { name: 'What changed' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(within(section).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 62 to 84 (+22)');
    // The line and History share one request for the runs.
    const runs = (await requests.settled()).filter((r) => r.path.endsWith('/runs'));
    expect(runs).toHaveLength(1);
  });

  it('unfolds two runs seconds apart when its link is followed', async () => {
    const { report } = await reportWithRuns(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const { user } = renderReportPage(`/reports/${report.id}`);
    const section = await history();
    expect(await within(section).findByRole('button', { name: 'Show history' })).toBeInTheDocument();
    await user.click(await lastChangeLink(/^Score 62 → 84 since (\d\d:\d\d|\d{1,2} \w{3}) \(2 checks newly failing\)$/));
    const heading = await within(section).findByRole('heading', { name: 'What changed' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(within(section).queryByRole('button', { name: 'Show history' })).not.toBeInTheDocument();
  });

  it('is absent for a report with one run, and where the server keeps no runs', async () => {
    const api = connectRealApi(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const one = await seedReport();
    const { unmount } = renderReportPage(`/reports/${one.id}`);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });
    await editForm();
    expect(screen.queryByRole('link', { name: /since|No change/ })).not.toBeInTheDocument();
    unmount();

    withoutHistory(api);
    await updateReport({ id: one.id, refreshResults: true });
    const requests = recordRequests();
    renderReportPage(`/reports/${one.id}`);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });
    await editForm();
    expect(screen.getByRole('img', { name: 'Score 84 of 100' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /since|No change/ })).not.toBeInTheDocument();
    // Nor does it ask for runs there.
    expect((await requests.settled()).some((r) => r.path.endsWith('/runs'))).toBe(false);
  });
});

describe('the report page: history, the comparison in the address', () => {
  it('compares exactly the two runs ?compare= names (by generated_at), and takes the reader there', async () => {
    const { report } = await reportWithRuns(FIRST_ANALYSIS, SECOND_ANALYSIS, FIRST_ANALYSIS);
    const { fetchRuns } = await import('@/api/runs');
    const runs = (await fetchRuns(report.id)).items;
    const [newest, middle, oldest] = runs.map((run) => run.generatedAt?.toISOString());
    // The oldest to the middle one: 62 to 84, not the newest two (84 to 62).
    renderReportPage(`/reports/${report.id}?compare=${oldest}..${middle}`);
    const section = await history();
    const summary = await within(section).findByRole('region', { name: 'What changed' });
    expect(within(summary).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 62 to 84 (+22)');
    expect(summary).not.toHaveTextContent('(the newest two)');
    await waitFor(() => expect(within(section).getByRole('heading', { name: 'What changed' })).toHaveFocus());
    const compare = within(section).getByRole('form', { name: 'Compare two runs' });
    expect(within(compare).getByRole('combobox', { name: 'From run' })).toHaveValue('2');
    expect(within(compare).getByRole('combobox', { name: 'To run' })).toHaveValue('1');
    expect(newest).not.toBe(middle);
  });

  it('opens a history of two runs seconds apart (folded otherwise) when the address names them', async () => {
    const { report } = await reportWithRuns(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const { fetchRuns } = await import('@/api/runs');
    const [newest, oldest] = (await fetchRuns(report.id)).items.map((run) => run.generatedAt?.toISOString());
    renderReportPage(`/reports/${report.id}?compare=${oldest}..${newest}`);
    const section = await history();
    const summary = await within(section).findByRole('region', { name: 'What changed' });
    expect(within(summary).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 62 to 84 (+22)');
    expect(within(section).queryByRole('button', { name: 'Show history' })).not.toBeInTheDocument();
  });

  it('says so when the runs of the address are not kept, and compares the newest two', async () => {
    const { report } = await reportWithRuns(FIRST_ANALYSIS, SECOND_ANALYSIS);
    renderReportPage(`/reports/${report.id}?compare=2020-01-01T00:00:00.000Z..2020-01-02T00:00:00.000Z`);
    const section = await history();
    expect(await within(section).findByText('The two runs this address compares are not among the runs kept.')).toBeInTheDocument();
    const summary = within(section).getByRole('region', { name: 'What changed' });
    expect(summary).toHaveTextContent('(the newest two)');
    expect(within(summary).getByRole('heading', { name: 'What changed' })).not.toHaveFocus();
  });
});

describe('the report page: history after a refresh', () => {
  it('shows no History for one run, then the newest two compared once the refresh is in', async () => {
    connectRealApi(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const report = await seedReport();
    const requests = recordRequests();
    const { user } = renderReportPage(`/reports/${report.id}`);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });
    const f = await editForm();
    expect(screen.queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    expect((await requests.settled()).some((r) => r.path.endsWith('/runs'))).toBe(false);

    await user.click(f.refresh());
    await user.click(f.save());
    const section = await history();
    const summary = await within(section).findByRole('region', { name: 'What changed' });
    await waitFor(() => expect(within(summary).getByRole('heading', { name: 'What changed' })).toHaveFocus());
    expect(changedChecks(summary)).toEqual(CHANGES_62_TO_84);
    // One What changed on the page, the history's: nothing to dismiss, it stays.
    expect(screen.getAllByRole('region', { name: 'What changed' })).toHaveLength(1);
    expect(within(summary).queryByRole('button', { name: 'Dismiss what changed' })).not.toBeInTheDocument();
  });
});

describe('the report page: Analyse again beside the score', () => {
  it('analyses the page again in one click: the new score, said and shown, and the newest two compared', async () => {
    connectRealApi(FIRST_ANALYSIS, SECOND_ANALYSIS);
    const report = await seedReport();
    const requests = recordRequests();
    const { user } = renderReportPage(`/reports/${report.id}`);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });
    expect(screen.getByRole('img', { name: 'Score 62 of 100' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Analyse again' }));
    expect(await screen.findByText('Analysed again: score 62 → 84, Good.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Score 84 of 100' })).toBeInTheDocument();
    const summary = await within(await history()).findByRole('region', { name: 'What changed' });
    expect(changedChecks(summary)).toEqual(CHANGES_62_TO_84);
    // The same request the form's Refresh results sends, once.
    const patches = (await requests.settled()).filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
  });
});

describe('the report page without history (a deployment that keeps no runs)', () => {
  it('shows no History, never asks for runs, and shows what changed after a refresh until dismissed', async () => {
    const api = connectRealApi(FIRST_ANALYSIS, SECOND_ANALYSIS);
    withoutHistory(api);
    const report = await seedReport();
    await updateReport({ id: report.id, refreshResults: true });
    const requests = recordRequests();
    const { user } = renderReportPage(`/reports/${report.id}`);
    await screen.findByRole('heading', { level: 1, name: PAGE_URL });
    const f = await editForm();

    await user.click(f.refresh());
    await user.click(f.save());
    const summary = await screen.findByRole('region', { name: 'What changed' });
    await waitFor(() => expect(within(summary).getByRole('heading', { name: 'What changed' })).toHaveFocus());
    // Nothing moved: no "84 to 84, Good to Good" above the line that says so.
    expect(summary).toHaveTextContent(
      'Nothing changed: the score, the result and every check came out as before.',
    );
    expect(within(summary).queryByText(/^Score:/)).not.toBeInTheDocument();
    expect(within(summary).queryByText(/^Result:/)).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    await user.click(within(summary).getByRole('button', { name: 'Dismiss what changed' }));
    expect(screen.queryByRole('region', { name: 'What changed' })).not.toBeInTheDocument();
    expect((await requests.settled()).some((r) => r.path.endsWith('/runs'))).toBe(false);
  });
});
