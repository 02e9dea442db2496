import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readConnection, saveConnection } from '@/api/connection';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';
import { applySignInLink } from './sign-in-link';

function storedValues(storage: Storage): string[] {
  return Object.keys(storage).map((key) => storage.getItem(key) ?? '');
}

function visit(url: string) {
  window.history.replaceState(null, '', url);
}

afterEach(() => visit('/'));

describe('the #api_key= sign-in link', () => {
  it('saves the key for this tab only, strips it from the address at once, and says so', async () => {
    saveConnection({ baseUrl: '', apiKey: 'remembered-key', remember: true });
    visit('/settings#api_key=link-key');

    expect(applySignInLink()).toBe(true);

    expect(window.location.href).not.toContain('link-key');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/settings');
    expect(readConnection()).toMatchObject({ apiKey: 'link-key', remember: false });
    expect(storedValues(window.sessionStorage)).toContain('link-key');
    expect(storedValues(window.localStorage)).not.toContain('link-key');
    expect(storedValues(window.localStorage)).not.toContain('remembered-key');

    const queryClient = createTestQueryClient();
    renderWithProviders(createRoutes(queryClient), { route: '/settings', queryClient });
    expect(await screen.findByText('Signed in with the key from the link')).toBeInTheDocument();
    // The page loads on its own: the notification may come first on a busy machine.
    expect(await screen.findByLabelText('API key')).toHaveValue('link-key');
  });

  it('keeps the rest of the fragment and the query', () => {
    visit('/settings?x=1#api_key=link-key&section=keys');
    expect(applySignInLink()).toBe(true);
    expect(window.location.search).toBe('?x=1');
    expect(window.location.hash).toBe('#section=keys');
  });

  it('leaves everything alone without the parameter', () => {
    visit('/settings#section=keys');
    expect(applySignInLink()).toBe(false);
    expect(window.location.hash).toBe('#section=keys');
    expect(readConnection().apiKey).toBeNull();
  });

  it('strips an empty key without saving anything', () => {
    visit('/settings#api_key=');
    expect(applySignInLink()).toBe(false);
    expect(window.location.hash).toBe('');
    expect(readConnection().apiKey).toBeNull();
  });
});
