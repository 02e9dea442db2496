// The member of the connection, remembered on the device: a page opened again (a new query cache, as
// after a reload) shows the role's controls at once and, within five minutes, asks nothing (issue 50:
// a list's first load asks at most two things besides its list); after that it shows them at once and
// asks. Another key, or a key forgotten, asks anew. Signing in tells it before the first page.
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetKey, saveConnection } from './http/connection';
import { ME_REMEMBERED_MS, learnMember, meQuery } from './me';
import { accountKeys } from './query-keys';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import { createTestQueryClient } from '../../test/render';

const asked = (requests: Request[]) => requests.filter((request) => new URL(request.url).pathname === '/api/v1/me').length;

/** A freshly opened page (a new query cache): the member it paints first, and the member once it asked, if it asks. */
async function openPage() {
  const client = createTestQueryClient();
  const first = new QueryObserver(client, meQuery()).getCurrentResult().data;
  await client.prefetchQuery(meQuery());
  return { first, then: client.getQueryData(accountKeys.me()) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the member of the connection, remembered', () => {
  it('is asked once, then used without asking by a page opened again within five minutes; after, painted at once and asked again', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-30T06:00:00Z') });
    const opened = await openPage();
    expect(opened.first).toBeUndefined();
    expect(opened.then).toMatchObject({ name: expect.any(String), role: 'owner' });
    expect(asked(requests)).toBe(1);
    vi.setSystemTime(new Date(Date.now() + ME_REMEMBERED_MS - 1000));
    expect((await openPage()).first).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(1);
    vi.setSystemTime(new Date(Date.now() + 24 * 60 * 60_000));
    const nextDay = await openPage();
    expect(nextDay.first).toMatchObject({ role: 'owner' });
    expect(nextDay.then).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(2);
  });

  it('is told by signing in, before the key is saved: the first page paints the role and asks nothing', async () => {
    useRealApi();
    const requests = recordRequests();
    await learnMember({ baseUrl: ' ', apiKey: ` ${REAL_API_KEY} ` });
    expect(asked(requests)).toBe(1);
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    expect((await openPage()).first).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(1);
  });

  it('signing in with a key the service refuses remembers nothing', async () => {
    useRealApi();
    await learnMember({ baseUrl: '', apiKey: 'not-a-key' });
    expect(window.localStorage.getItem('webpage-report.me')).toBeNull();
  });

  it('is asked anew for another key, and goes with a forgotten key', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    await openPage();
    expect(asked(requests)).toBe(1);
    expect(window.localStorage.getItem('webpage-report.me')).not.toContain(REAL_API_KEY);
    saveConnection({ baseUrl: '', apiKey: `${REAL_API_KEY}-other`, remember: false });
    await openPage().catch(() => undefined);
    expect(asked(requests)).toBe(2);
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    await openPage();
    forgetKey();
    expect(window.localStorage.getItem('webpage-report.me')).toBeNull();
  });

  it('ignores what storage holds that is not a member', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    await openPage();
    const stored = JSON.parse(window.localStorage.getItem('webpage-report.me') ?? '{}') as { data: { role: string } };
    window.localStorage.setItem('webpage-report.me', JSON.stringify({ ...stored, data: { ...stored.data, role: 'admin' } }));
    expect((await openPage()).then).toMatchObject({ role: 'owner' });
    window.localStorage.setItem('webpage-report.me', 'not json');
    expect((await openPage()).then).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(3);
  });
});
