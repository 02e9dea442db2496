import { fireEvent, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { useRouterLinkClicks } from './router-link-clicks';

function Links({ children }: { children: ReactNode }) {
  const onClick = useRouterLinkClicks();
  return <div onClick={onClick}>{children}</div>;
}

/** Clicks the link as fireEvent does and tells whether the browser's own navigation was stopped. */
function click(name: string, init: MouseEventInit = {}): boolean {
  return !fireEvent.click(screen.getByRole('link', { name }), { button: 0, ...init });
}

describe('useRouterLinkClicks', () => {
  it('navigates a plain click inside the app, pushing a history entry', () => {
    const { router } = renderWithProviders(
      <Links>
        <a href="/reports/7?x=1">Seven</a>
      </Links>,
    );
    expect(click('Seven')).toBe(true);
    expect(router.state.location.pathname).toBe('/reports/7');
    expect(router.state.location.search).toBe('?x=1');
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('follows an element inside the link (the click lands on its text or icon)', () => {
    const { router } = renderWithProviders(
      <Links>
        <a href="/projects">
          <span>Projects</span>
        </a>
      </Links>,
    );
    fireEvent.click(screen.getByText('Projects'), { button: 0 });
    expect(router.state.location.pathname).toBe('/projects');
  });

  it('replaces the history entry for a link to the page already shown', () => {
    const { router } = renderWithProviders(
      <Links>
        <a href="/">Here</a>
      </Links>,
    );
    expect(click('Here')).toBe(true);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it.each<[string, MouseEventInit]>([
    ['Ctrl', { ctrlKey: true }],
    ['Cmd', { metaKey: true }],
    ['Shift', { shiftKey: true }],
    ['Alt', { altKey: true }],
    ['the middle button', { button: 1 }],
  ])('leaves a click with %s to the browser (a new tab or window)', (_name, init) => {
    const { router } = renderWithProviders(
      <Links>
        <a href="/reports/7">Seven</a>
      </Links>,
    );
    expect(click('Seven', init)).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    ['target="_blank"', <a href="/reports/7" target="_blank" rel="noreferrer">Away</a>],
    ['download', <a href="/reports/7" download>Away</a>],
    ['another origin', <a href="https://elsewhere.example/reports/7">Away</a>],
  ])('leaves a link with %s to the browser', (_name, link) => {
    const { router } = renderWithProviders(<Links>{link}</Links>);
    expect(click('Away')).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });
});
