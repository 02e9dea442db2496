import { Burger, Group, Loader, Stack, em } from '@mantine/core';
import { useDisclosure, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { Suspense, lazy, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { MouseEvent, RefObject } from 'react';
import { Link, Outlet, ScrollRestoration, useLocation, useMatches, useNavigation } from 'react-router-dom';
import { signInReason, subscribeConnection } from '@/api/http/connection';
import { SIGN_IN_PANEL } from '@/contract/routes';
import { askingOtherTabs, subscribeKeyAsk } from '@/api/http/tab-key-share';
import { useQueryClient } from '@tanstack/react-query';
import { afterNextPaint } from '@/lib/after-next-paint';
import { hasStoredDeletes } from '@/lib/pending-deletes-key';
import { useAfter } from '@/lib/use-after';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { LazyNotifications } from './lazy-notifications';
import { documentTitle } from '@/lib/document-title';
import { ALERTS_NAV_ITEM, NAV_ITEMS, PRODUCT_NAME } from './navigation';
import type { RouteHandle } from './navigation';
import { NavLink } from './nav-link';
import { PageLoading } from './page-loading';
import { SignOut } from './sign-out';
import classes from './shell-layout.module.css';

// Only people without a usable key need it.
const SignInPanel = lazy(() => import('@/features/settings/sign-in-panel'));
// The Alerts link asks the server's capabilities and the unread count: after the page, not with it.
const AlertsNavLink = lazy(() => import('./alerts-nav-link'));
// Who is signed in, and their role, where the server has accounts: asked after the page, not with it.
const MemberName = lazy(() => import('./member-name'));
// The branding on top of printed pages: asked once signed in (and remembered), shown only on paper.
const PrintBranding = lazy(() => import('./print-branding'));

const MAIN_ID = 'main-content';
const PAGE_SPINNER_AFTER_MS = 250;
// Mantine's `sm` breakpoint (48em), where the header links replace the burger.
const SM_BREAKPOINT_PX = 768;

/** Once signed in: deletes a closed tab left on this device are offered again (with Undo), then sent. */
function useLeftDeletes(signedIn: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn || !hasStoredDeletes()) return;
    void import('./left-deletes').then((module) => module.offerLeftDeletes(queryClient));
  }, [signedIn, queryClient]);
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).title === 'string';
}

function useDocumentTitle(handle: RouteHandle | undefined) {
  const title = handle?.title;
  // Before any page's own effects: a page may then name itself more precisely (a report, its URL).
  useLayoutEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/**
 * After moving to another page, put focus on the new content so screen readers start there.
 * The focus waits for the new page's first frame: focusing makes the browser lay the page out at
 * once (a few ms for a long page), which the first paint need not wait for. Focus someone moved in
 * the meantime, or the new page put on its content, stays where it is.
 */
function useFocusMainOnNavigation(view: string) {
  const previous = useRef(view);
  useEffect(() => {
    if (previous.current === view) return;
    previous.current = view;
    const focusedBefore = document.activeElement;
    return afterNextPaint(() => {
      const main = document.getElementById(MAIN_ID);
      const active = document.activeElement;
      // A page that put the focus on its own content (Back to a list: the report opened) keeps it.
      const pageChose = active !== null && active !== main && main?.contains(active) === true;
      if (!pageChose && (active === focusedBefore || active === document.body))
        main?.focus({ preventScroll: true });
    });
  }, [view]);
}

/** The entry of NAV_ITEMS that `pathname` is in (itself or a page below it), as `useMatch` with `end: false`. */
export function sectionOf(pathname: string): string | null {
  return [...NAV_ITEMS, ALERTS_NAV_ITEM].find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`))?.to ?? null;
}

interface ShellNavProps {
  /** The NAV_ITEMS entry shown as current. */
  section: string | null;
  /** Signed in: the Alerts link may ask the server whether it has alerts. */
  signedIn: boolean;
  navOpened: boolean;
  onToggleNav: () => void;
  loadingPage: boolean;
  /** A choice in the narrow-screen menu closes it. */
  onNavChoice: () => void;
  burgerRef: RefObject<HTMLButtonElement | null>;
}

/** The header and the narrow-screen menu. */
function ShellNav({ section, signedIn, navOpened, onToggleNav, loadingPage, onNavChoice, burgerRef }: ShellNavProps) {
  return (
    <>
      <header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              ref={burgerRef}
              opened={navOpened}
              onClick={onToggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={navOpened}
              aria-controls="app-navigation"
            />
            <Link to="/" className={classes.brand} onClick={onNavChoice}>
              <img src="/favicon.svg" alt="" width={28} height={28} />
              {PRODUCT_NAME}
            </Link>
            <Group component="nav" aria-label="Main" gap={4} ml="lg" visibleFrom="sm">
              {NAV_ITEMS.map((item) => (
                <NavLink key={item.to} item={item} section={section} />
              ))}
              {signedIn && (
                <Suspense fallback={null}>
                  <AlertsNavLink section={section} />
                </Suspense>
              )}
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {loadingPage && <Loader size="sm" aria-label="Loading page" />}
            {signedIn && (
              <Suspense fallback={null}>
                <MemberName />
              </Suspense>
            )}
            <SignOut />
            <ColorSchemeToggle />
          </Group>
        </Group>
      </header>
      {/* The narrow-screen menu exists only while open, so its links are never in the tab order hidden. */}
      {navOpened && (
        <nav id="app-navigation" aria-label="Main" className={classes.drawer}>
          <Stack gap={4}>
            {NAV_ITEMS.map((item) => (
              <NavLink key={item.to} item={item} section={section} drawer onClick={onNavChoice} />
            ))}
            {signedIn && (
              <Suspense fallback={null}>
                <AlertsNavLink section={section} drawer onClick={onNavChoice} />
              </Suspense>
            )}
            {signedIn && (
              <Suspense fallback={null}>
                <MemberName drawer />
              </Suspense>
            )}
            <SignOut drawer />
          </Stack>
        </nav>
      )}
    </>
  );
}

function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  // Focus the target by hand: following the #fragment would put it in the address bar and history.
  event.preventDefault();
  document.getElementById(MAIN_ID)?.focus();
}

export function ShellLayout() {
  // Compiled (vite.config.ts): a navigation renders again what depends on the address (the sections'
  // links, the page), not the header's buttons.
  'use memo';
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  // A page whose code and data come quickly shows no spinner: the header would change twice for nothing.
  const loadingPage = useAfter(useNavigation().state === 'loading', PAGE_SPINNER_AFTER_MS);
  const wide = useMediaQuery(`(min-width: ${em(SM_BREAKPOINT_PX)})`);
  // The drawer only exists on narrow screens: widening the window closes it.
  useEffect(() => {
    if (wide) closeNav();
  }, [wide, closeNav]);
  // Escape closes the open menu and gives the focus back to the button that opened it.
  const burgerRef = useRef<HTMLButtonElement>(null);
  useWindowEvent('keydown', (event) => {
    if (!navOpened || event.key !== 'Escape') return;
    closeNav();
    burgerRef.current?.focus();
  });
  const { pathname } = useLocation();
  const handle = useMatches()
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1);
  const signIn = useSyncExternalStore(subscribeConnection, signInReason);
  useLeftDeletes(signIn === null);
  // Without a usable key a page could only show errors: the sign-in panel stands in for it.
  const gated = signIn !== null && !handle?.withoutKey;
  // A new tab without a key first asks the open ones for theirs: the page loads meanwhile, rather than
  // a sign-in panel that the answer would take away a moment later.
  const waitingForKey = useSyncExternalStore(subscribeKeyAsk, askingOtherTabs) && signIn === 'no-key';
  useDocumentTitle(gated && !waitingForKey ? SIGN_IN_PANEL : handle);
  // Signing in, or a 401 bringing the panel, swaps the content as a move to another page does.
  useFocusMainOnNavigation(`${pathname} ${gated}`);

  // A plain header/nav/main layout instead of Mantine's AppShell: the same landmarks for about 7 KB
  // gzip less on every first visit (AppShell brings its aside, footer and scroll-lock code along).
  return (
    <div className={classes.shell}>
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skipToMain}>
        Skip to main content
      </a>
      <ShellNav
        // The sign-in panel is none of the sections, whatever the address.
        section={gated ? null : sectionOf(pathname)}
        signedIn={signIn === null}
        navOpened={navOpened}
        onToggleNav={toggleNav}
        loadingPage={loadingPage}
        onNavChoice={closeNav}
        burgerRef={burgerRef}
      />
      <main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <div className={classes.content}>
          {signIn === null && (
            <Suspense fallback={null}>
              <PrintBranding />
            </Suspense>
          )}
          {gated && waitingForKey ? (
            <PageLoading />
          ) : gated ? (
            <Suspense fallback={<PageLoading />}>
              <SignInPanel reason={signIn} />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </div>
      </main>
      <LazyNotifications />
      <ScrollRestoration />
    </div>
  );
}
