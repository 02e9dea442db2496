import '@mantine/core/styles/Badge.css';
import { memo } from 'react';
import { RESULT_LABELS } from '@/api/contract';
import type { Result } from '@/api/contract';
import { BadgeIcon } from './badge-icon';
import type { BadgeIconName } from './badge-icon';
import { BadgeMarkup } from './badge-markup';
import type { BadgeLook } from './badge-markup';

const COLOURS: Record<Result, string> = { good: 'teal', decent: 'orange', bad: 'red' };
const ICONS: Record<Result, BadgeIconName> = {
  good: 'circle-check',
  decent: 'alert-triangle',
  bad: 'circle-x',
};
const LOOKS: Record<Result, BadgeLook> = {
  good: { variant: 'light', color: COLOURS.good, radius: 'sm' },
  decent: { variant: 'light', color: COLOURS.decent, radius: 'sm' },
  bad: { variant: 'light', color: COLOURS.bad, radius: 'sm' },
};
const UNKNOWN_LOOK: BadgeLook = { variant: 'default', radius: 'sm' };
// Badge's tt="none", and c="var(--mantine-color-text)" for the coloured ones.
const UNKNOWN_STYLE = { textTransform: 'none' } as const;
const RESULT_STYLE = { textTransform: 'none', color: 'var(--mantine-color-text)' } as const;

/** A report's result as colour plus text: Good, Decent, Bad, or Unknown when the deployment gives none. */
export const ResultBadge = memo(function ResultBadge({ result }: { result: Result | null }) {
  if (result === null) {
    return (
      <BadgeMarkup look={UNKNOWN_LOOK} style={UNKNOWN_STYLE} leftSection={<BadgeIcon name="help-circle" />}>
        Unknown
      </BadgeMarkup>
    );
  }
  const colour = COLOURS[result];
  // The tint and the icon carry the colour; the word keeps the text colour, which reaches 4.5:1 in
  // both schemes (white on teal or orange, or orange on its tint, does not).
  return (
    <BadgeMarkup
      look={LOOKS[result]}
      style={RESULT_STYLE}
      leftSection={<BadgeIcon name={ICONS[result]} color={`var(--mantine-color-${colour}-light-color)`} />}
    >
      {RESULT_LABELS[result]}
    </BadgeMarkup>
  );
});
