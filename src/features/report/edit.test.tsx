import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisError } from '../../../test/reference-server';
import { reportQueries, updateReport } from '@/api/reports';
import { server } from '../../../test/msw';
import {
  PASSWORD_REQUIRED,
  PASSWORD_TOO_LONG,
  editChanges,
  editReportSchema,
} from './edit-schema';
import {
  FIRST_ANALYSIS,
  PAGE_URL,
  SECOND_ANALYSIS,
  connectRealApi,
  editForm,
  withoutHistory,
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

const form = editForm;

function privacyShown(): string {
  return (
    within(screen.getByLabelText('Report details')).getByText(/^(Public|Private|Password)$/).textContent ?? ''
  );
}

async function openReport(privacy: 0 | 1 | 2 = 0, ...analyses: Parameters<typeof connectRealApi>) {
  const api = connectRealApi(...analyses);
  const report = await seedReport(privacy === 2 ? { privacy, password: 'first-secret' } : { privacy });
  const requests = recordRequests();
  const rendered = renderReportPage(`/reports/${report.id}`);
  await screen.findByRole('heading', { level: 1, name: PAGE_URL });
  const writes = async () => (await requests.settled()).filter((r) => r.method !== 'GET');
  return { ...rendered, api, report, writes };
}

describe('edit schema and changes', () => {
  it('requires a password when switching to Password, not when one is stored already', () => {
    const fromPublic = editReportSchema({ privacy: 0, hasPassword: false });
    const result = fromPublic.safeParse({ privacy: '2', password: '', refresh: false });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['password', PASSWORD_REQUIRED],
    ]);
    expect(fromPublic.safeParse({ privacy: '1', password: '', refresh: false }).success).toBe(true);

    const protectedReport = editReportSchema({ privacy: 2, hasPassword: true });
    expect(protectedReport.safeParse({ privacy: '2', password: '', refresh: false }).success).toBe(true);
    // A deployment that does not say whether one is stored: at privacy 2, one is.
    expect(
      editReportSchema({ privacy: 2, hasPassword: null }).safeParse({
        privacy: '2',
        password: '',
        refresh: false,
      }).success,
    ).toBe(true);
    const tooLong = protectedReport.safeParse({ privacy: '2', password: 'x'.repeat(129), refresh: false });
    expect(tooLong.error?.issues[0]?.message).toBe(PASSWORD_TOO_LONG);
    expect(
      protectedReport.safeParse({ privacy: '2', password: '😀'.repeat(128), refresh: false }).success,
    ).toBe(true);
  });

  it('sends only what differs from the report', () => {
    const stored = { privacy: 2, hasPassword: true } as const;
    expect(editChanges(stored, { privacy: '2', password: '', refresh: false })).toEqual({});
    expect(editChanges(stored, { privacy: '2', password: 'new', refresh: false })).toEqual({
      password: 'new',
    });
    // A password typed before leaving Password privacy is not sent.
    expect(editChanges(stored, { privacy: '0', password: 'typed', refresh: false })).toEqual({ privacy: 0 });
    expect(editChanges(stored, { privacy: '2', password: '', refresh: true })).toEqual({
      refreshResults: true,
    });
  });
});

describe('the edit form', () => {
  it('keeps Save disabled until something changes, and again once the change is undone', async () => {
    const { user } = await openReport(0);
    const f = await form();
    expect(f.radio('Public')).toBeChecked();
    expect(f.save()).toBeDisabled();
    await user.click(f.radio('Private'));
    expect(f.save()).toBeEnabled();
    await user.click(f.radio('Public'));
    expect(f.save()).toBeDisabled();
    await user.click(f.refresh());
    expect(f.save()).toBeEnabled();
    await user.click(f.refresh());
    expect(f.save()).toBeDisabled();
  });

  it('switching to Password needs a password; Save then sends privacy and password only', async () => {
    const { user, writes } = await openReport(0);
    const f = await form();
    expect(f.password()).toBeNull();
    await user.click(f.radio('Password'));
    expect(f.password()).toBeInTheDocument();
    expect(screen.getByText('Required: people will need it to open this report.')).toBeInTheDocument();

    await user.click(f.save());
    expect(await screen.findByText(PASSWORD_REQUIRED)).toBeInTheDocument();
    expect(await writes()).toEqual([]);

    await user.type(f.password()!, 'hunter22');
    await user.click(f.save());
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(screen.getByText('Privacy is now Password.')).toBeInTheDocument();
    expect(await writes()).toEqual([
      {
        method: 'PATCH',
        path: expect.stringMatching(/^\/api\/v1\/reports\/\d+$/),
        body: [
          ['privacy', '2'],
          ['password', 'hunter22'],
        ],
      },
    ]);
    expect(privacyShown()).toBe('Password');
    // Saved: the form starts again from the report as it now is.
    expect(f.save()).toBeDisabled();
    expect(f.password()).toHaveValue('');
    expect(
      screen.getByText('A password is set. Leave this empty to keep it, or type a new one to replace it.'),
    ).toBeInTheDocument();
  });

  it('a protected report keeps its password when the field stays empty; a new one replaces it', async () => {
    const { user, writes } = await openReport(2);
    const f = await form();
    expect(f.radio('Password')).toBeChecked();
    expect(
      screen.getByText('A password is set. Leave this empty to keep it, or type a new one to replace it.'),
    ).toBeInTheDocument();
    // Away and back: nothing changed, nothing to send.
    await user.click(f.radio('Private'));
    await user.click(f.radio('Password'));
    expect(f.save()).toBeDisabled();

    await user.type(f.password()!, 'second-secret');
    expect(f.save()).toBeEnabled();
    await user.click(f.save());
    expect(await screen.findByText('The password was changed.')).toBeInTheDocument();
    expect((await writes()).map((w) => w.body)).toEqual([[['password', 'second-secret']]]);
  });

  it('leaving Password privacy sends the privacy alone', async () => {
    const { user, writes } = await openReport(2);
    const f = await form();
    await user.type(f.password()!, 'typed-then-abandoned');
    await user.click(f.radio('Public'));
    expect(f.password()).toBeNull();
    await user.click(f.save());
    expect(await screen.findByText('Privacy is now Public.')).toBeInTheDocument();
    expect((await writes()).map((w) => w.body)).toEqual([[['privacy', '0']]]);
    expect(privacyShown()).toBe('Public');
  });

  it('follows a change made elsewhere while the form is untouched', async () => {
    const { report, queryClient } = await openReport(0);
    await updateReport({ id: report.id, privacy: 1 });
    await queryClient.invalidateQueries({ queryKey: reportQueries.detail(report.id).queryKey });
    await waitFor(async () => expect((await form()).radio('Private')).toBeChecked());
    expect(privacyShown()).toBe('Private');
    expect((await form()).save()).toBeDisabled();
  });

  it('blocks double submits', async () => {
    const { user, writes } = await openReport(0);
    const f = await form();
    await user.click(f.radio('Private'));
    await user.dblClick(f.save());
    await user.click(f.save());
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(await writes()).toHaveLength(1);
  });

  it('shows a privacy change at once and rolls it back when the service refuses it', async () => {
    const { user, report } = await openReport(0);
    let answer: (response: Response) => void = () => {};
    server.use(
      http.patch('*/api/v1/reports/:id', () => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const f = await form();
    await user.click(f.radio('Private'));
    await user.click(f.save());
    // Before the service has answered.
    await waitFor(() => expect(privacyShown()).toBe('Private'));
    expect(f.save()).toBeDisabled();

    answer(HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 }));
    await waitFor(() => expect(privacyShown()).toBe('Public'));
    expect(await screen.findByText('Changes not saved')).toBeInTheDocument();
    expect(within(f.edit).getByRole('alert')).toHaveTextContent('Server error.');
    // The person's choice is still there, ready to try again.
    expect(f.radio('Private')).toBeChecked();
    expect(f.save()).toBeEnabled();
    expect(report.privacy).toBe(0);
  });

  it('says in plain words that a 403 means the report is not the key’s', async () => {
    const { user } = await openReport(0);
    server.use(
      http.patch('*/api/v1/reports/:id', () =>
        HttpResponse.json({ message: 'This action is unauthorized.' }, { status: 403 }),
      ),
    );
    const f = await form();
    await user.click(f.radio('Private'));
    await user.click(f.save());
    const words = 'This report does not exist or does not belong to your API key.';
    expect(await within(f.edit).findByRole('alert')).toHaveTextContent(words);
    expect(await screen.findByText('Changes not saved')).toBeInTheDocument();
    expect(privacyShown()).toBe('Public');
  });

  it('puts a 422 on the password field', async () => {
    const { user } = await openReport(0);
    server.use(
      http.patch('*/api/v1/reports/:id', () =>
        HttpResponse.json(
          { message: { password: ['The password must not be greater than 128 characters.'] }, status: 422 },
          { status: 422 },
        ),
      ),
    );
    const f = await form();
    await user.click(f.radio('Password'));
    await user.type(f.password()!, 'hunter22');
    await user.click(f.save());
    expect(
      await within(f.edit).findByText('The password must not be greater than 128 characters.'),
    ).toBeInTheDocument();
    expect(f.password()).toHaveAccessibleDescription(/must not be greater than 128 characters/);
    expect(f.password()).toBeInvalid();
    expect(await screen.findByText('Changes not saved')).toBeInTheDocument();
  });
});

describe('refresh results', () => {
  // A deployment without history: what changed is this visit's before and after, until dismissed
  // (with history it is the History's comparison of the newest two runs: history.test).
  it('shows progress, then what changed: score, result and each flipped check', async () => {
    const { user, writes, api } = await openReport(0, FIRST_ANALYSIS, SECOND_ANALYSIS);
    withoutHistory(api);
    let answer: () => void = () => {};
    const gate = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.patch('*/api/v1/reports/:id', async () => {
        await gate;
        return undefined;
      }),
    );
    const f = await form();
    await user.click(f.refresh());
    await user.click(f.save());
    expect(await screen.findByRole('status')).toHaveTextContent('Analysing page again…');
    answer();

    const summary = await screen.findByRole('region', { name: 'What changed' });
    expect(screen.queryByText(/Analysing page again/)).not.toBeInTheDocument();
    await waitFor(() => expect(within(summary).getByRole('heading', { name: 'What changed' })).toHaveFocus());
    expect(within(summary).getByText(/^Score:/).parentElement?.textContent).toBe('Score: 62 to 84 (+22)');
    expect(within(summary).getByText(/^Result:/).parentElement?.textContent).toBe('Result: Decent to Good');
    expect(
      within(within(summary).getByRole('list', { name: 'Checks that changed' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Title: passed before, fails now',
      'Meta description: failed before, passes now',
      'Favicon: failed before, passes now',
      'Load time: failed before, passes now',
      'Social media tags: new check, fails',
      'Page speed index: no longer checked (failed before)',
    ]);
    expect((await writes()).map((w) => w.body)).toEqual([[['results', '1']]]);
    // The page shows the new results, and the switch is off again.
    expect(screen.getByRole('img', { name: 'Score 84 of 100' })).toBeInTheDocument();
    expect(await screen.findByText('Results refreshed: score 84, Good.')).toBeInTheDocument();
    expect(f.refresh()).not.toBeChecked();

    await user.click(within(summary).getByRole('button', { name: 'Dismiss what changed' }));
    expect(screen.queryByRole('region', { name: 'What changed' })).not.toBeInTheDocument();
  });

  it('says when nothing changed', async () => {
    const { user } = await openReport(0, FIRST_ANALYSIS, FIRST_ANALYSIS);
    const f = await form();
    await user.click(f.refresh());
    await user.click(f.save());
    const summary = await screen.findByRole('region', { name: 'What changed' });
    expect(summary).toHaveTextContent(
      'Nothing changed: the score, the result and every check came out as before.',
    );
  });

  it('shows why a new analysis failed, and nothing of the request is saved', async () => {
    const { user } = await openReport(0, FIRST_ANALYSIS, new AnalysisError('The page answered 404.'));
    const f = await form();
    await user.click(f.radio('Private'));
    await user.click(f.refresh());
    await user.click(f.save());
    expect(await within(f.edit).findByRole('alert')).toHaveTextContent('The page answered 404.');
    expect(screen.queryByRole('region', { name: 'What changed' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Analysing page again/)).not.toBeInTheDocument();
    expect(privacyShown()).toBe('Public');
    expect(screen.getByRole('img', { name: 'Score 62 of 100' })).toBeInTheDocument();
  });
});
