// The deployment's capabilities, remembered on the device per base URL for an hour: a page opened
// again (a new query cache, as after a reload) asks nothing, a deployment without them included.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveConnection } from './http/connection';
import { CAPABILITIES_REMEMBERED_MS, capabilitiesQuery } from './capabilities';
import { NO_CAPABILITIES } from './lenient-schemas';
import { REAL_API_KEY, noCapabilities, recordRequests, server, useRealApi } from '../../test/msw';
import { createTestQueryClient } from '../../test/render';

const asked = (requests: Request[]) => requests.filter((request) => new URL(request.url).pathname === '/api/v1/capabilities').length;

/** The capabilities as a freshly opened page gets them (a new query cache). */
const openPage = () => createTestQueryClient().ensureQueryData(capabilitiesQuery());

afterEach(() => {
  vi.useRealTimers();
});

describe('capabilities, remembered per base URL', () => {
  it('are asked once, then used without asking by a page opened again within the hour, and asked again after it', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T06:00:00Z') });
    expect(await openPage()).toMatchObject({ runs: true, failing_filter: true });
    expect(asked(requests)).toBe(1);
    vi.setSystemTime(new Date(Date.now() + CAPABILITIES_REMEMBERED_MS - 1000));
    expect(await openPage()).toMatchObject({ runs: true, failing_filter: true });
    expect(asked(requests)).toBe(1);
    vi.setSystemTime(new Date(Date.now() + 2000));
    expect(await openPage()).toMatchObject({ runs: true });
    expect(asked(requests)).toBe(2);
  });

  it('remember a deployment without them (its 404) too, and each base URL its own', async () => {
    server.use(noCapabilities());
    saveConnection({ baseUrl: 'https://peer.example', apiKey: 'key', remember: false });
    const requests = recordRequests();
    expect(await openPage()).toEqual(NO_CAPABILITIES);
    expect(await openPage()).toEqual(NO_CAPABILITIES);
    expect(asked(requests)).toBe(1);
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    expect(await openPage()).toMatchObject({ runs: true });
    expect(asked(requests)).toBe(2);
    // Back to the first: still remembered.
    saveConnection({ baseUrl: 'https://peer.example', apiKey: 'key', remember: false });
    expect(await openPage()).toEqual(NO_CAPABILITIES);
    expect(asked(requests)).toBe(2);
  });

  it('ignore what storage holds that is not an answer', async () => {
    window.localStorage.setItem('webpage-report.capabilities', '{"": {"at": "yesterday", "data": 1}}');
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const requests = recordRequests();
    expect(await openPage()).toMatchObject({ runs: true });
    expect(asked(requests)).toBe(1);
    window.localStorage.setItem('webpage-report.capabilities', 'not json');
    expect(await openPage()).toMatchObject({ runs: true });
    expect(asked(requests)).toBe(2);
  });
});
