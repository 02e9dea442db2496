import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { readConnection, saveConnection } from '@/api/http/connection';
import { rememberSignInTarget } from '@/lib/sign-in-target';
import { REAL_API_KEY, useRealApi } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';
import { applySignInLink } from './sign-in-link';

function storedValues(storage: Storage): string[] {
  return Object.keys(storage).map((key) => storage.getItem(key) ?? '');
}

function visit(url: string) {
  window.history.replaceState(null, '', url);
}

function address(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

afterEach(() => visit('/'));

describe('the #api_key= sign-in link', () => {
  it('saves the key for this tab only, strips it from the address at once, says so, and leads to the start page', async () => {
    useRealApi();
    saveConnection({ baseUrl: '', apiKey: 'remembered-key', remember: true });
    visit(`/settings#api_key=${REAL_API_KEY}`);
    const historyLength = window.history.length;

    expect(applySignInLink()).toBe(true);

    expect(window.location.href).not.toContain(REAL_API_KEY);
    expect(address()).toBe('/');
    // Replaced, not pushed: Back does not lead to the address with the key.
    expect(window.history.length).toBe(historyLength);
    expect(readConnection()).toMatchObject({ apiKey: REAL_API_KEY, remember: false });
    expect(storedValues(window.sessionStorage)).toContain(REAL_API_KEY);
    expect(storedValues(window.localStorage)).not.toContain(REAL_API_KEY);
    expect(storedValues(window.localStorage)).not.toContain('remembered-key');

    const queryClient = createTestQueryClient();
    renderWithProviders(createRoutes(), { route: address(), queryClient });
    expect(await screen.findByText('Signed in with the key from the link')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();

    // Remember on this device, in one click from the notification.
    await userEvent.click(screen.getByRole('button', { name: 'Remember on this device' }));
    expect(await screen.findByText('Remembered on this device')).toBeInTheDocument();
    expect(readConnection()).toMatchObject({ apiKey: REAL_API_KEY, remember: true });
    expect(storedValues(window.localStorage)).toContain(REAL_API_KEY);
    expect(storedValues(window.sessionStorage)).not.toContain(REAL_API_KEY);
  });

  it('leads to the page the sign-in panel stood in for, in this tab', () => {
    rememberSignInTarget('/projects/a%20b?page=2');
    visit('/settings#api_key=link-key');
    expect(applySignInLink()).toBe(true);
    expect(address()).toBe('/projects/a%20b?page=2');

    // Once: the next link leads to the start page again.
    visit('/settings#api_key=link-key');
    applySignInLink();
    expect(address()).toBe('/');
  });

  it('on any other page stays there, keeping the rest of the fragment and the query', () => {
    rememberSignInTarget('/projects');
    visit('/reports/42?x=1#api_key=link-key&section=keys');
    expect(applySignInLink()).toBe(true);
    expect(address()).toBe('/reports/42?x=1#section=keys');
    expect(readConnection().apiKey).toBe('link-key');
  });

  it('leaves everything alone without the parameter', () => {
    visit('/settings#section=keys');
    expect(applySignInLink()).toBe(false);
    expect(window.location.hash).toBe('#section=keys');
    expect(readConnection().apiKey).toBeNull();
  });

  it('strips an empty key without saving anything, and stays on Settings', () => {
    visit('/settings#api_key=');
    expect(applySignInLink()).toBe(false);
    expect(address()).toBe('/settings');
    expect(readConnection().apiKey).toBeNull();
  });
});
