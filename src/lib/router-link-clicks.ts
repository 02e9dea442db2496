import { useCallback } from 'react';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * One click handler for a container of plain `<a href="/…">` links (AnchorLink), which navigates
 * inside the app as react-router's `Link` does. A page of reports has 200 links; as `Link`s each
 * would read the router's location and render again on every navigation, even while its row stays
 * the same. Clicks a browser handles itself (other buttons, modifier keys, `target`, `download`,
 * another origin) are left to it, exactly as `Link` leaves them.
 */
export function useRouterLinkClicks(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      if (!(event.target instanceof Element)) return;
      const link = event.target.closest('a[href]');
      if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link)) return;
      if ((link.target !== '' && link.target !== '_self') || link.hasAttribute('download')) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = `${url.pathname}${url.search}${url.hash}`;
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      // Like Link: a link to the page already shown replaces its history entry.
      void navigate(to, { replace: to === here });
    },
    [navigate],
  );
}
