// The member of the connection, remembered on the device for five minutes: a page opened again (a new
// query cache, as after a reload) shows the role's controls at once and asks nothing (issue 50: a
// list's first load asks at most two things besides its list); another key, or a key forgotten, asks anew.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetKey, saveConnection } from './http/connection';
import { ME_REMEMBERED_MS, meQuery } from './me';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import { createTestQueryClient } from '../../test/render';

const asked = (requests: Request[]) => requests.filter((request) => new URL(request.url).pathname === '/api/v1/me').length;

/** The member as a freshly opened page gets it (a new query cache). */
const openPage = () => createTestQueryClient().ensureQueryData(meQuery());

afterEach(() => {
  vi.useRealTimers();
});

describe('the member of the connection, remembered', () => {
  it('is asked once, then used without asking by a page opened again within five minutes, and asked again after', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-30T06:00:00Z') });
    expect(await openPage()).toMatchObject({ name: expect.any(String), role: 'owner' });
    expect(asked(requests)).toBe(1);
    vi.setSystemTime(new Date(Date.now() + ME_REMEMBERED_MS - 1000));
    expect(await openPage()).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(1);
    vi.setSystemTime(new Date(Date.now() + 2000));
    expect(await openPage()).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(2);
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
    expect(await openPage()).toMatchObject({ role: 'owner' });
    window.localStorage.setItem('webpage-report.me', 'not json');
    expect(await openPage()).toMatchObject({ role: 'owner' });
    expect(asked(requests)).toBe(3);
  });
});
