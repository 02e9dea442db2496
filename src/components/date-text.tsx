import { Text } from '@mantine/core';
import { Suspense, lazy, memo, useState } from 'react';
import { formatAbsolute, formatRelative } from '@/lib/dates';
import classes from './date-text.module.css';

// Lists show dozens of dates and nobody hovers most of them: the tooltip (and floating-ui with it)
// loads on the first hover or touch.
const DateTextTooltip = lazy(() => import('./date-text-tooltip'));

// What <Text span size="sm"> renders (its classes; its inline variables as date-text.module.css;
// date-text.test compares the two), without the component: a page of reports shows 100 dates, and
// Text works out its props and styles again for each.
const TEXT_CLASS = `mantine-focus-auto ${Text.classes.root} mantine-Text-root`;

/** A date as relative text ("3 days ago"), the exact moment in a tooltip and in `<time dateTime>`; "—" for none. */
export const DateText = memo(function DateText({ date }: { date: Date | null }) {
  const [wanted, setWanted] = useState(false);
  const [pointerOver, setPointerOver] = useState(false);
  if (date === null) {
    return (
      <span className={`${TEXT_CLASS} ${classes.none}`}>
        —
      </span>
    );
  }
  const time = (
    <time
      className={`${TEXT_CLASS} ${classes.time}`}
      dateTime={date.toISOString()}
      onPointerEnter={() => {
        setWanted(true);
        setPointerOver(true);
      }}
      onPointerLeave={() => setPointerOver(false)}
    >
      {formatRelative(date)}
    </time>
  );
  if (!wanted) return time;
  return (
    <Suspense fallback={time}>
      <DateTextTooltip label={formatAbsolute(date)} opened={pointerOver}>
        {time}
      </DateTextTooltip>
    </Suspense>
  );
});
