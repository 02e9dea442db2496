import { Anchor, Text } from '@mantine/core';
import { memo } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router-dom';

// Anchor's and Text's classes, the static ones the Styles API adds, and size sm's variables.
const CLASS = `mantine-focus-auto ${Anchor.classes.root} ${Text.classes.root} mantine-Text-root mantine-Anchor-root`;
const SIZE_SM = { '--text-fz': 'var(--mantine-font-size-sm)', '--text-lh': 'var(--mantine-line-height-sm)' };
const STYLES = {
  plain: SIZE_SM as CSSProperties,
  strong: { ...SIZE_SM, fontWeight: 500 } as CSSProperties,
  dimmed: { ...SIZE_SM, color: 'var(--mantine-color-dimmed)' } as CSSProperties,
};

/**
 * What `<Anchor component={Link} to size="sm">` renders (anchor-link.test compares the two), with
 * `fw={500}` for `strong` and `c="dimmed"` for `dimmed`, without the two Mantine components: a page
 * of reports has 200 links, and Anchor and Text work out their props and styles again for each.
 */
export const AnchorLink = memo(function AnchorLink({
  to,
  look = 'plain',
  title,
  children,
}: {
  to: string;
  look?: keyof typeof STYLES;
  title?: string;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={CLASS} style={STYLES[look]} data-size="sm" data-underline="hover" title={title}>
      {children}
    </Link>
  );
});
