import { VisuallyHidden } from '@mantine/core';
import { Suspense, lazy, useEffect, useId, useState } from 'react';
import { formatAbsolute } from '@/lib/dates';

// The tooltip (Mantine's, with floating-ui) loads on the first hover, focus or tap of a date: lists
// show dozens of dates and nobody hovers most of them. Mantine's Tooltip around every date put 20 KB
// on the lists' first visit and was slower to sort (docs/decisions.md, D8).
const DateTextTooltip = lazy(() => import('./date-text-tooltip'));

/** The dates that show their exact moment (DateText's `<time data-date-tip>`). */
const DATE_SELECTOR = 'time[data-date-tip]';

function dateOf(target: EventTarget | null): HTMLTimeElement | null {
  return target instanceof Element ? target.closest<HTMLTimeElement>(DATE_SELECTOR) : null;
}

/**
 * The page's one tooltip for its dates (DateText), by event delegation on the document: a date is
 * plain markup, and a list of 100 reports holds no tooltip machinery for its 200 dates. The date
 * hovered (not by touch) or else the date focused (a tap focuses it) shows its exact moment, which is
 * also its accessible description while shown; Escape hides it until the next hover or focus.
 */
export function DateTooltips() {
  const [hovered, setHovered] = useState<HTMLTimeElement | null>(null);
  const [focused, setFocused] = useState<HTMLTimeElement | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const [wanted, setWanted] = useState(false);
  const descriptionId = useId();
  const shown = dismissed ? null : (hovered ?? focused);

  useEffect(() => {
    const over = (event: PointerEvent) => {
      const date = dateOf(event.target);
      // A touch "enters" and leaves at once; the tap's focus shows it instead.
      if (date === null || event.pointerType === 'touch') return;
      setWanted(true);
      setDismissed(false);
      setHovered(date);
    };
    const out = (event: PointerEvent) => {
      const date = dateOf(event.target);
      if (date !== null && !(event.relatedTarget instanceof Node && date.contains(event.relatedTarget)))
        setHovered((current) => (current === date ? null : current));
    };
    const focusIn = (event: FocusEvent) => {
      const date = dateOf(event.target);
      if (date === null) return;
      setWanted(true);
      setDismissed(false);
      setFocused(date);
    };
    const focusOut = (event: FocusEvent) => {
      const date = dateOf(event.target);
      if (date !== null) setFocused((current) => (current === date ? null : current));
    };
    document.addEventListener('pointerover', over);
    document.addEventListener('pointerout', out);
    document.addEventListener('focusin', focusIn);
    document.addEventListener('focusout', focusOut);
    return () => {
      document.removeEventListener('pointerover', over);
      document.removeEventListener('pointerout', out);
      document.removeEventListener('focusin', focusIn);
      document.removeEventListener('focusout', focusOut);
    };
  }, []);

  useEffect(() => {
    if (shown === null) return;
    // Escape on the date hides its tooltip only (nothing else, such as a dialog around it, closes).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (dateOf(event.target) === shown) event.stopPropagation();
      setDismissed(true);
    };
    // The description goes with the tooltip: set on the date shown, taken off when it goes.
    shown.setAttribute('aria-describedby', descriptionId);
    document.addEventListener('keydown', escape, true);
    return () => {
      shown.removeAttribute('aria-describedby');
      document.removeEventListener('keydown', escape, true);
    };
  }, [shown, descriptionId]);

  // A list keeps its rows' elements and changes their text (a sort): the label is read as shown.
  const label = shown === null ? null : formatAbsolute(new Date(shown.dateTime));
  return (
    <>
      {/* What the tooltip shows, for screen readers: the tooltip itself is not reachable. */}
      {label !== null && <VisuallyHidden id={descriptionId}>{label}</VisuallyHidden>}
      {wanted && (
        <Suspense fallback={null}>
          <DateTextTooltip label={label ?? ''} target={shown} />
        </Suspense>
      )}
    </>
  );
}
