import { Button } from '@mantine/core';
import { useUncontrolled } from '@mantine/hooks';
import { useId } from 'react';
import type { ReactNode } from 'react';

/**
 * "Show keys" / "Hide keys": a button that shows what it names below it. The content is made only
 * while shown, so what it asks the server is asked on the first Show. Opened from outside too where
 * `shown` is given (a webhook's test sent shows its deliveries).
 */
export function ShowMore({
  what,
  shown,
  onShownChange,
  children,
}: {
  what: string;
  shown?: boolean;
  onShownChange?: (shown: boolean) => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useUncontrolled({ value: shown, defaultValue: false, onChange: onShownChange });
  const id = useId();
  return (
    <>
      <div>
        <Button size="compact-sm" variant="subtle" px={0} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {open ? `Hide ${what}` : `Show ${what}`}
        </Button>
      </div>
      <div id={id}>{open && children}</div>
    </>
  );
}
