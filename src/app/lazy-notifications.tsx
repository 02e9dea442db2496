import { useNotifications } from '@mantine/notifications';
import { Suspense, lazy, useEffect, useState } from 'react';

const NotificationsHost = lazy(() => import('./notifications-host'));

/**
 * Mantine's notifications UI, not with the first visit's code: `notifications.show()` only touches a
 * small store, which keeps what was shown until this mounts. It mounts with the first notification,
 * or once the page is idle, whichever comes first: a notification that follows an action (the Undo
 * of a delete) then shows at once, with no download and no Suspense reveal in between.
 */
export function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  const pending = notifications.length + queue.length > 0;
  // Once mounted it stays, so closing animations can finish.
  if (pending && !needed) setNeeded(true);
  useEffect(() => {
    if (needed) return;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1000));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => setNeeded(true));
    return () => cancel(handle);
  }, [needed]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}
