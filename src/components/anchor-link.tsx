import { Anchor, Text } from '@mantine/core';
import { memo } from 'react';
import type { ReactNode } from 'react';
import classes from './anchor-link.module.css';

// Anchor's and Text's classes and the static ones the Styles API adds (size sm's variables: the CSS).
const CLASS = `mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root} mantine-Text-root mantine-Anchor-root`;

/**
 * What `<Anchor component={Link} to size="sm">` renders (anchor-link.test compares the two), with
 * `fw={500}` for `strong` and `c="dimmed"` for `dimmed`, without the two Mantine components and
 * without `Link`: a page of reports has 200 links, and Anchor and Text work out their props and
 * styles again for each, and each `Link` renders again on every navigation.
 *
 * A plain `<a href>`: a container must navigate its clicks in the app (`useRouterLinkClicks`), or a
 * click loads the whole dashboard again. `href` is a path of the app ("/reports/7").
 */
export const AnchorLink = memo(function AnchorLink({
  href,
  look = 'plain',
  title,
  className,
  children,
}: {
  href: string;
  look?: 'plain' | 'strong' | 'dimmed';
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      className={`${CLASS} ${classes[look]}${className ? ` ${className}` : ''}`}
      data-size="sm"
      data-underline="hover"
      title={title}
    >
      {children}
    </a>
  );
});
