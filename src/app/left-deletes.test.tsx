// The next visit: deletes a closed tab left on the device are said, with Undo, then sent.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { holdDeletes, sendBeforeLeaving } from '@/workflows/pending-deletes';
import { noteRateBudget, rateLimitScope } from '@/api/http/rate-limit';
import { PENDING_DELETES_KEY } from '@/lib/pending-deletes-key';
import { recordRequests, useRealApi } from '../../test/msw';
import { deletes, seedReport, signInForEachTest } from '../../test/projects-kit';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { passUndoWindow, useUndoClock } from '../../test/undo-clock';
import { offerLeftDeletes } from './left-deletes';

signInForEachTest();

/** A tab that held this delete closed when the rate limit left no room: it is left on the device. */
function leftByAClosedTab(target: { id: number; url: string }) {
  noteRateBudget(
    rateLimitScope(new URL(window.location.origin), 'test-key'),
    new Headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0' }),
  );
  holdDeletes(createTestQueryClient(), [{ kind: 'report', ...target, project: 'shop.example' }]);
  sendBeforeLeaving();
  // As another tab wrote it.
  const stored = JSON.parse(window.localStorage.getItem(PENDING_DELETES_KEY)!) as {
    entries: { tab: string; left: boolean }[];
  };
  expect(stored.entries.map((entry) => entry.left)).toEqual([true]);
  for (const entry of stored.entries) entry.tab = 'a-closed-tab';
  window.localStorage.setItem(PENDING_DELETES_KEY, JSON.stringify(stored));
  noteRateBudget(
    rateLimitScope(new URL(window.location.origin), 'test-key'),
    new Headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '60' }),
  );
}

/** A report a closed tab left held for deletion, and the next visit's page offering it. */
async function nextVisit(api: ReturnType<typeof useRealApi>) {
  const report = await seedReport(api, 'shop.example');
  leftByAClosedTab(report);
  const seen = recordRequests();
  const { queryClient, user } = renderWithProviders(<h1>Reports</h1>);
  offerLeftDeletes(queryClient);
  return { report, seen, user };
}

describe('Deletes from the last visit', () => {
  it('are said with Undo, and sent once their window is over', async () => {
    useUndoClock();
    const api = useRealApi();
    const { report, seen } = await nextVisit(api);

    const notice = (await screen.findByText('Deletes from your last visit')).closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent(`the report of ${report.url}`);
    expect(within(notice).getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    expect(deletes(seen)).toEqual([]);
    await passUndoWindow();
    await waitFor(() => expect(deletes(seen)).toHaveLength(1));
    const { storage } = await api.backend();
    await waitFor(async () => expect(await storage.getReport(report.id)).toBeNull());
    expect(window.localStorage.getItem(PENDING_DELETES_KEY)).toBeNull();
  });

  it('Undo there sends nothing and forgets them', async () => {
    useUndoClock();
    const api = useRealApi();
    const { report, seen, user } = await nextVisit(api);
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await passUndoWindow();
    await passUndoWindow();
    expect(deletes(seen)).toEqual([]);
    expect(window.localStorage.getItem(PENDING_DELETES_KEY)).toBeNull();
    const { storage } = await api.backend();
    expect(await storage.getReport(report.id)).not.toBeNull();
  });
});
