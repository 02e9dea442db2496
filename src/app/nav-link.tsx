import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { NavItem } from './navigation';

/** One link of the header's navigation (or the narrow-screen menu), marked current in its section. */
export function NavLink({
  item,
  section,
  drawer,
  onClick,
  label,
  badge,
}: {
  item: NavItem;
  section: string | null;
  drawer?: boolean;
  onClick?: () => void;
  /** An accessible name other than the visible label ("Alerts, 3 unread"). */
  label?: string;
  /** Shown after the label, hidden from assistive technology (the name says it). */
  badge?: ReactNode;
}) {
  const active = section === item.to;
  return (
    <Button
      component={Link}
      to={item.to}
      onClick={onClick}
      variant={active ? 'light' : 'subtle'}
      color={active ? undefined : 'gray'}
      aria-current={active ? 'page' : undefined}
      aria-label={label}
      rightSection={badge}
      {...(drawer ? { justify: 'flex-start', fullWidth: true, size: 'md' } : {})}
    >
      {item.label}
    </Button>
  );
}
