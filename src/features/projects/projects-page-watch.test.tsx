// The projects table's Watch column: which projects are analysed again on a schedule and when next,
// from the list itself (the reference server's extension: one request, not one per project); none
// where the deployment has no schedules.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { noCapabilities, recordRequests, server, useRealApi } from '../../../test/msw';
import { renderProjects, seedProjects, signInForEachTest } from '../../../test/projects-kit';

signInForEachTest();

describe('Projects table: the Watch column', () => {
  it('says which projects are watched and their next run, with no request per project', async () => {
    const api = useRealApi();
    await seedProjects(api, ['a.example', 'b.example', 'c.example']);
    const { storage } = await api.backend();
    // Hours and days away whatever the time the test runs (06:00 was 55 minutes away at 05:05).
    const now = new Date();
    const hour = (now.getUTCHours() + 3) % 24;
    const weekday = (now.getUTCDay() + 3) % 7;
    const dayName = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][weekday];
    await storage.watch.setSchedule('a.example', { every: 'daily', hour, weekday: null, drop: 10 }, now);
    await storage.watch.setSchedule('b.example', { every: 'weekly', hour: 12, weekday, drop: 10 }, now);
    const seen = recordRequests();
    const page = renderProjects('/projects?sort_by=project&sort=asc');
    await waitFor(() => expect(page.names()).toEqual(['a.example', 'b.example', 'c.example']));
    expect(screen.getByRole('columnheader', { name: 'Watch' })).toBeInTheDocument();
    const watch = (row: number) => within(page.rows()[row]!).getAllByRole('cell').at(-2)?.textContent;
    const hh = String(hour).padStart(2, '0');
    await waitFor(() => expect(watch(0)).toMatch(new RegExp(`^Daily at ${hh}:00 UTC, next in \\d+ hours?$`)));
    expect(watch(1)).toMatch(new RegExp(`^Weekly on ${dayName} at 12:00 UTC, next in \\d+ days?$`));
    expect(watch(2)).toBe('Off');
    expect(within(page.rows()[0]!).getByRole('cell', { name: /^Daily/ }).querySelector('time')).toHaveAttribute('datetime');
    expect(seen.some((request) => request.url.includes('/schedule'))).toBe(false);
  });

  it('is not there where the deployment has no schedules', async () => {
    const api = useRealApi();
    server.use(noCapabilities());
    await seedProjects(api, ['a.example']);
    const page = renderProjects();
    await waitFor(() => expect(page.names()).toEqual(['a.example']));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Watch' })).not.toBeInTheDocument());
  });
});
