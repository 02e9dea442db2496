import { act, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { nextUrlState, parseUrlState, serialiseUrlState, urlParam, useUrlState } from './url-state';
import type { UrlStateSpec } from './url-state';

type State = { search: string; sort: 'asc' | 'desc'; per_page: 10 | 25 | 50 | 100; page: number };
const spec: UrlStateSpec<State> = {
  params: {
    search: urlParam.text(),
    sort: urlParam.oneOf(['desc', 'asc']),
    per_page: urlParam.numberOf([10, 25, 50, 100]),
    page: urlParam.page(),
  },
  defaults: { search: '', sort: 'desc', per_page: 10, page: 1 },
};

describe('parseUrlState', () => {
  it('reads valid values and keeps defaults for the rest', () => {
    expect(parseUrlState(spec, new URLSearchParams('search=shop&sort=asc&per_page=50&page=3'))).toEqual({
      search: 'shop',
      sort: 'asc',
      per_page: 50,
      page: 3,
    });
  });

  it.each(['per_page=7', 'per_page=abc', 'per_page=25.0', 'sort=up', 'page=-1', 'page=0', 'page=1.5', 'page=x'])(
    'drops the invalid %s in favour of the default',
    (query) => {
      expect(parseUrlState(spec, new URLSearchParams(query))).toEqual(spec.defaults);
    },
  );

  it('reads control characters in text as spaces, which the API would refuse', () => {
    expect(parseUrlState(spec, new URLSearchParams('search=%09shop%00%0A%0Dexample%7F')).search).toBe('shop example');
    expect(parseUrlState(spec, new URLSearchParams('search=%00')).search).toBe('');
  });
});

describe('serialiseUrlState', () => {
  it('leaves defaults and empty values out', () => {
    expect(serialiseUrlState(spec, { search: '', sort: 'desc', per_page: 10, page: 1 }).toString()).toBe('');
    expect(serialiseUrlState(spec, { search: 'a b/ä', sort: 'asc', per_page: 10, page: 2 }).toString()).toBe(
      'search=a+b%2F%C3%A4&sort=asc&page=2',
    );
  });
});

describe('nextUrlState', () => {
  const state: State = { search: '', sort: 'desc', per_page: 10, page: 4 };
  it('goes back to page 1 when the view changes', () => {
    expect(nextUrlState(state, { sort: 'asc' }).page).toBe(1);
    expect(nextUrlState(state, { per_page: 25 }).page).toBe(1);
  });
  it('keeps the page when only the page changes, or nothing does', () => {
    expect(nextUrlState(state, { page: 5 }).page).toBe(5);
    expect(nextUrlState(state, { sort: 'desc' }).page).toBe(4);
  });
});

describe('useUrlState', () => {
  function setup(initial: string) {
    const seen: { state?: State; set?: ReturnType<typeof useUrlState<State>>[1]; search?: string } = {};
    function Probe() {
      const [state, set] = useUrlState(spec);
      seen.state = state;
      seen.set = set;
      seen.search = useLocation().search;
      return null;
    }
    const router = createMemoryRouter([{ path: '/t', Component: Probe }], { initialEntries: [initial] });
    render(<RouterProvider router={router} />);
    return { router, seen };
  }

  it('drops invalid values from the address bar at once', async () => {
    const { seen } = setup('/t?per_page=7&sort=asc&page=3&utm=x');
    await waitFor(() => expect(seen.search).toBe('?sort=asc&page=3'));
    expect(seen.state).toEqual({ search: '', sort: 'asc', per_page: 10, page: 3 });
  });

  it('writes a change to the URL, resets the page, and Back returns to the previous view', async () => {
    const { router, seen } = setup('/t?page=3');
    act(() => seen.set!({ per_page: 25 }));
    await waitFor(() => expect(seen.search).toBe('?per_page=25'));
    expect(seen.state).toEqual({ search: '', sort: 'desc', per_page: 25, page: 1 });
    await act(() => router.navigate(-1));
    await waitFor(() => expect(seen.state?.page).toBe(3));
  });
});
