import { Suspense, lazy, useEffect } from 'react';
import type { RefObject } from 'react';
import { useBlocker } from 'react-router-dom';

const loadLeaveDialog = () => import('./leave-dialog');
const LeaveDialog = lazy(loadLeaveDialog);

export interface LeaveGuardProps {
  /** Whether there is something to lose. */
  when: boolean;
  /** Set to true right before a navigation that must not ask (e.g. after deleting the report). */
  allowRef?: RefObject<boolean>;
}

/**
 * Asks before leaving the page with unsaved changes: in the app with a dialog (Stay / Leave), and on
 * reload, close or an outside link with the browser's own prompt.
 */
export function LeaveGuard({ when, allowRef }: LeaveGuardProps) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && !allowRef?.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    // Fetched once there is something to lose, so the dialog opens at once when it is needed.
    void loadLeaveDialog();
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // Saved or discarded meanwhile: nothing left to ask about.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.reset();
  }, [blocker, when]);

  if (blocker.state !== 'blocked') return null;
  return (
    <Suspense fallback={null}>
      <LeaveDialog opened onStay={() => blocker.reset()} onLeave={() => blocker.proceed()} />
    </Suspense>
  );
}
