import { VisuallyHidden } from '@mantine/core';
import { formatAbsolute, formatRelative } from '@/lib/dates';
import { useNow } from '@/lib/use-now';
import classes from './date-text.module.css';

/** Two dates closer than this read as one ("same"). */
const SAME_WITHIN_MS = 60_000;

/** Whether two dates read as one moment ("same"): a second line for the other one says nothing new. */
export function sameMoment(date: Date | null, other: Date | null): boolean {
  return date !== null && other !== null && Math.abs(other.getTime() - date.getTime()) < SAME_WITHIN_MS;
}

/**
 * A date as relative text ("3 days ago"), kept up to date while the page is open; the exact moment in
 * `<time dateTime>` and, from the page's one `DateTooltips` (date-tooltips.tsx), in a tooltip on
 * hover, on focus (each date is a tab stop) and on tap (which focuses it); Escape hides it. A date
 * holds no state or handlers of its own: a list of 100 rows has 200 of them. "—" for none.
 */
export function DateText({
  date,
  sameAs,
  sameAsLabel,
}: {
  date: Date | null;
  /**
   * The date beside it (a report's Generated for its Created): when both are the same minute, this one
   * reads "same" (its own moment still in the tooltip), so a row shows one date, not two equal ones.
   */
  sameAs?: Date | null;
  /**
   * Where "same" stands alone rather than in a column under its label (a report's details), what it is
   * the same as, said in full on screen: "same as Generated" (a bare "Created: same" read as a glitch).
   */
  sameAsLabel?: string;
}) {
  // Rendered again on the page's clock, so "2 minutes ago" moves on. Not compiled: its text reads the
  // clock, which the compiler's memo would keep (inside a compiled row it renders only when its date
  // or the clock changes anyway).
  useNow();
  // Plain elements with the theme's small text: a Mantine Text is three components around the same
  // element, and a page of 100 reports has 200 dates (docs/benchmarks.md, issue 27).
  if (date === null) return <span className={`${classes.date} ${classes.dimmed}`}>—</span>;
  return (
    // On paper "3 days ago" would be wrong by the time it is read: the print stylesheet shows the
    // moment itself (data-printed) in place of the text.
    <time className={classes.date} dateTime={date.toISOString()} tabIndex={0} data-date-tip="" data-printed={formatAbsolute(date)}>
      {sameMoment(date, sameAs ?? null) ? (
        sameAsLabel !== undefined ? (
          <span className={classes.dimmed}>same as {sameAsLabel}</span>
        ) : (
          <span className={classes.dimmed}>
            same<span className={VisuallyHidden.classes.root}> as generated</span>
          </span>
        )
      ) : (
        formatRelative(date)
      )}
    </time>
  );
}
