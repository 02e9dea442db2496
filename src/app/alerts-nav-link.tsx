// The navigation's Alerts link: only where the server raises alerts (its capabilities), its name
// carrying the unread count ("Alerts, 3 unread"), asked again every 30 s while the tab is visible (a
// conditional request: 304 while nothing changed), on window focus, and at once after the tab's own
// actions (their mutations invalidate it).
import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { capabilitiesQuery } from '@/api/capabilities';
import { watchQueries } from '@/api/watch';
import { NavLink } from './nav-link';
import { ALERTS_NAV_ITEM, navLabel } from './navigation';

export default function AlertsNavLink(props: { section: string | null; drawer?: boolean; onClick?: () => void }) {
  const alerts = useQuery(capabilitiesQuery()).data?.alerts === true;
  const unread = useQuery({ ...watchQueries.unread(), enabled: alerts }).data ?? null;
  if (!alerts) return null;
  const label = navLabel(ALERTS_NAV_ITEM, unread);
  return (
    <NavLink
      {...props}
      item={ALERTS_NAV_ITEM}
      label={label === ALERTS_NAV_ITEM.label ? undefined : label}
      badge={
        unread ? (
          <Badge size="sm" color="red" variant="filled" aria-hidden>
            {unread > 99 ? '99+' : unread}
          </Badge>
        ) : undefined
      }
    />
  );
}
