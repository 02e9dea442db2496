import { memo } from 'react';
import { PRIVACY_LABELS } from '@/api/contract';
import type { Privacy } from '@/api/contract';
import { BadgeIcon } from './badge-icon';
import type { BadgeIconName } from './badge-icon';
import { BadgeMarkup } from './badge-markup';

const ICONS: Record<Privacy, BadgeIconName> = { 0: 'world', 1: 'lock', 2: 'key' };

/** Who may open a report's public page: Public, Private or Password. */
export const PrivacyBadge = memo(function PrivacyBadge({ privacy }: { privacy: Privacy }) {
  return (
    <BadgeMarkup look="neutral" leftSection={<BadgeIcon name={ICONS[privacy]} />}>
      {PRIVACY_LABELS[privacy]}
    </BadgeMarkup>
  );
});
