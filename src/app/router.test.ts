// The code of a linked page loads when a pointer or the focus reaches the link (the app's one way of
// preloading a page's code), and nothing else: loaders do not run, other links load nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { preloadLinkedPages } from './router';

function link(href: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.setAttribute('href', href);
  a.innerHTML = '<span>text</span>';
  document.body.append(a);
  return a;
}

afterEach(() => document.body.replaceChildren());

describe('preloadLinkedPages', () => {
  it('loads the code of the page a hovered or focused link leads to, without running its loader', () => {
    const report = vi.fn(() => Promise.resolve({}));
    const list = vi.fn(() => Promise.resolve({}));
    const loader = vi.fn(() => null);
    const routes: RouteObject[] = [
      {
        path: '/',
        loader,
        children: [
          { path: 'reports', lazy: list },
          { path: 'reports/:id', lazy: report },
        ],
      },
    ];
    const stop = preloadLinkedPages({ routes });

    link('/reports/7').firstElementChild!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(report).toHaveBeenCalledTimes(1);
    expect(list).not.toHaveBeenCalled();

    link('/reports?project=shop').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(list).toHaveBeenCalledTimes(1);

    link('https://elsewhere.example/reports/7').dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(report).toHaveBeenCalledTimes(1);
    expect(loader).not.toHaveBeenCalled();

    stop();
    link('/reports/8').dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(report).toHaveBeenCalledTimes(1);
  });
});
