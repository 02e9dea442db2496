import { Text } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { formatAbsolute, formatRelative } from '@/lib/dates';

// Lists show dozens of dates and nobody hovers most of them: the tooltip (and floating-ui with it)
// loads on the first hover or touch.
const DateTextTooltip = lazy(() => import('./date-text-tooltip'));

/** A date as relative text ("3 days ago"), the exact moment in a tooltip and in `<time dateTime>`; "—" for none. */
export function DateText({ date }: { date: Date | null }) {
  const [wanted, setWanted] = useState(false);
  const [pointerOver, setPointerOver] = useState(false);
  if (date === null) {
    return (
      <Text span size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const time = (
    <Text
      component="time"
      size="sm"
      style={{ whiteSpace: 'nowrap' }}
      dateTime={date.toISOString()}
      onPointerEnter={() => {
        setWanted(true);
        setPointerOver(true);
      }}
      onPointerLeave={() => setPointerOver(false)}
    >
      {formatRelative(date)}
    </Text>
  );
  if (!wanted) return time;
  return (
    <Suspense fallback={time}>
      <DateTextTooltip label={formatAbsolute(date)} opened={pointerOver}>
        {time}
      </DateTextTooltip>
    </Suspense>
  );
}
