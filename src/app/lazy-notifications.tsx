import { useNotifications } from '@mantine/notifications';
import { Suspense, lazy, useState } from 'react';

const NotificationsHost = lazy(() => import('./notifications-host'));

/**
 * Mantine's notifications UI, downloaded with the first notification rather than with every page:
 * `notifications.show()` only touches a small store, which keeps what was shown until this mounts.
 */
export function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  const pending = notifications.length + queue.length > 0;
  // Once mounted it stays, so closing animations can finish.
  if (pending && !needed) setNeeded(true);
  if (!needed && !pending) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}
