import { Burger, Button, Container, Group, Loader, Stack, em } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import type { MouseEvent } from 'react';
import {
  Link,
  Outlet,
  ScrollRestoration,
  useLocation,
  useMatch,
  useMatches,
  useNavigation,
} from 'react-router-dom';
import { useAfter } from '@/lib/use-after';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { LazyNotifications } from './lazy-notifications';
import { NAV_ITEMS, PRODUCT_NAME, documentTitle } from './navigation';
import type { NavItem, RouteHandle } from './navigation';
import classes from './shell-layout.module.css';

const MAIN_ID = 'main-content';
const PAGE_SPINNER_AFTER_MS = 250;
// Mantine's `sm` breakpoint (48em), where the header links replace the burger.
const SM_BREAKPOINT_PX = 768;

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).title === 'string';
}

function useDocumentTitle() {
  const matches = useMatches();
  const title = matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/**
 * After moving to another page, put focus on the new content so screen readers start there.
 * The focus waits for the new page's first frame: focusing makes the browser lay the page out at
 * once (a few ms for a long page), which the first paint need not wait for. Focus someone moved in
 * the meantime stays where they put it.
 */
function useFocusMainOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const focusedBefore = document.activeElement;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (document.activeElement === focusedBefore || document.activeElement === document.body)
          document.getElementById(MAIN_ID)?.focus({ preventScroll: true });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [pathname]);
}

function HeaderLink({ item }: { item: NavItem }) {
  const active = useMatch({ path: item.to, end: false }) !== null;
  return (
    <Button
      component={Link}
      to={item.to}
      variant={active ? 'light' : 'subtle'}
      color={active ? undefined : 'gray'}
      aria-current={active ? 'page' : undefined}
    >
      {item.label}
    </Button>
  );
}

function DrawerLink({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const active = useMatch({ path: item.to, end: false }) !== null;
  return (
    <Button
      component={Link}
      to={item.to}
      variant={active ? 'light' : 'subtle'}
      color={active ? undefined : 'gray'}
      justify="flex-start"
      fullWidth
      size="md"
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    >
      {item.label}
    </Button>
  );
}

function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  // Focus the target by hand: following the #fragment would put it in the address bar and history.
  event.preventDefault();
  document.getElementById(MAIN_ID)?.focus();
}

export function ShellLayout() {
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  // A page whose code and data come quickly shows no spinner: the header would change twice for nothing.
  const loadingPage = useAfter(useNavigation().state === 'loading', PAGE_SPINNER_AFTER_MS);
  const wide = useMediaQuery(`(min-width: ${em(SM_BREAKPOINT_PX)})`);
  // The drawer only exists on narrow screens: widening the window closes it.
  useEffect(() => {
    if (wide) closeNav();
  }, [wide, closeNav]);
  useDocumentTitle();
  useFocusMainOnNavigation();

  // A plain header/nav/main layout instead of Mantine's AppShell: the same landmarks for about 7 KB
  // gzip less on every first visit (AppShell brings its aside, footer and scroll-lock code along).
  return (
    <div className={classes.shell}>
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skipToMain}>
        Skip to main content
      </a>
      <header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navOpened}
              onClick={toggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={navOpened}
              aria-controls="app-navigation"
            />
            <Link to="/" className={classes.brand}>
              <img src="/favicon.svg" alt="" width={28} height={28} />
              {PRODUCT_NAME}
            </Link>
            <Group component="nav" aria-label="Main" gap={4} ml="lg" visibleFrom="sm">
              {NAV_ITEMS.map((item) => (
                <HeaderLink key={item.to} item={item} />
              ))}
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {loadingPage && <Loader size="sm" aria-label="Loading page" />}
            <ColorSchemeToggle />
          </Group>
        </Group>
      </header>
      {/* The narrow-screen menu exists only while open, so its links are never in the tab order hidden. */}
      {navOpened && (
        <nav id="app-navigation" aria-label="Main" className={classes.drawer}>
          <Stack gap={4}>
            {NAV_ITEMS.map((item) => (
              <DrawerLink key={item.to} item={item} onNavigate={closeNav} />
            ))}
          </Stack>
        </nav>
      )}
      <main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <Container size="lg" px={0}>
          <Outlet />
        </Container>
      </main>
      <LazyNotifications />
      <ScrollRestoration />
    </div>
  );
}
