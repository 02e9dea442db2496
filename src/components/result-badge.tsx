import { memo } from 'react';
import { RESULT_LABELS } from '@/api/contract';
import type { Result } from '@/api/contract';
import { BadgeIcon } from './badge-icon';
import type { BadgeIconName } from './badge-icon';
import { BadgeMarkup } from './badge-markup';

const ICONS: Record<Result, BadgeIconName> = {
  good: 'circle-check',
  decent: 'alert-triangle',
  bad: 'circle-x',
};

/** A report's result as colour plus text: Good, Decent, Bad, or Unknown when the deployment gives none. */
export const ResultBadge = memo(function ResultBadge({ result }: { result: Result | null }) {
  if (result === null) {
    return (
      <BadgeMarkup look="neutral" leftSection={<BadgeIcon name="help-circle" />}>
        Unknown
      </BadgeMarkup>
    );
  }
  return (
    <BadgeMarkup look={result} leftSection={<BadgeIcon name={ICONS[result]} />}>
      {RESULT_LABELS[result]}
    </BadgeMarkup>
  );
});
