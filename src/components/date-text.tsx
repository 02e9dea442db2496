import { Text, VisuallyHidden } from '@mantine/core';
import { Suspense, lazy, useId, useRef, useState } from 'react';
import { formatAbsolute, formatRelative } from '@/lib/dates';
import { useNow } from '@/lib/use-now';

// Lists show dozens of dates and nobody hovers most of them: the tooltip (and floating-ui with it)
// loads on the first hover, focus or tap of a date. Mantine's Tooltip around every date instead put
// 20 KB on the lists' first visit (/reports 198.2 KB, over the 190 KB budget) and was slower to sort
// (README, "What stays hand-written"). It points at the date rather than wrapping it, so the focused
// element stays the same while the tooltip's code arrives; so DateText keeps the open state itself.
const DateTextTooltip = lazy(() => import('./date-text-tooltip'));

/** Two dates closer than this read as one ("same"). */
const SAME_WITHIN_MS = 60_000;

/** Whether two dates read as one moment ("same"): a second line for the other one says nothing new. */
export function sameMoment(date: Date | null, other: Date | null): boolean {
  return date !== null && other !== null && Math.abs(other.getTime() - date.getTime()) < SAME_WITHIN_MS;
}

/**
 * A date as relative text ("3 days ago"), kept up to date while the page is open; the exact moment in
 * `<time dateTime>` and in a tooltip on hover, on focus (each date is a tab stop) and on tap (which
 * focuses it); Escape hides it. "—" for none.
 */
export function DateText({
  date,
  sameAs,
}: {
  date: Date | null;
  /**
   * The date beside it (a report's Generated for its Created): when both are the same minute, this one
   * reads "same" (its own moment still in the tooltip), so a row shows one date, not two equal ones.
   */
  sameAs?: Date | null;
}) {
  useNow(); // rendered again on the page's clock, so "2 minutes ago" moves on
  const target = useRef<HTMLTimeElement>(null);
  const descriptionId = useId();
  const [wanted, setWanted] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  if (date === null) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const opened = (hovered || focused) && !dismissed;
  const same = sameMoment(date, sameAs ?? null);
  const show = (set: (on: boolean) => void) => {
    setWanted(true);
    setDismissed(false);
    set(true);
  };
  return (
    <>
      <Text
        ref={target}
        component="time"
        size="sm"
        style={{ whiteSpace: 'nowrap' }}
        dateTime={date.toISOString()}
        tabIndex={0}
        aria-describedby={opened ? descriptionId : undefined}
        // A touch "enters" and leaves at once; the tap's focus opens it instead.
        onPointerEnter={(event) => event.pointerType !== 'touch' && show(setHovered)}
        onPointerLeave={() => setHovered(false)}
        onFocus={() => show(setFocused)}
        onBlur={() => setFocused(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && opened) {
            event.stopPropagation();
            setDismissed(true);
          }
        }}
      >
        {same ? (
          <Text span inherit c="dimmed">
            same<VisuallyHidden> as generated</VisuallyHidden>
          </Text>
        ) : (
          formatRelative(date)
        )}
      </Text>
      {/* What the tooltip shows, for screen readers: the tooltip itself is not reachable. */}
      {opened && <VisuallyHidden id={descriptionId}>{formatAbsolute(date)}</VisuallyHidden>}
      {wanted && (
        <Suspense fallback={null}>
          <DateTextTooltip label={formatAbsolute(date)} opened={opened} target={target} />
        </Suspense>
      )}
    </>
  );
}
