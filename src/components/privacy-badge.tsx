import '@mantine/core/styles/Badge.css';
import { memo } from 'react';
import { PRIVACY_LABELS } from '@/api/contract';
import type { Privacy } from '@/api/contract';
import { BadgeIcon } from './badge-icon';
import type { BadgeIconName } from './badge-icon';
import { BadgeMarkup } from './badge-markup';
import type { BadgeLook } from './badge-markup';

const ICONS: Record<Privacy, BadgeIconName> = { 0: 'world', 1: 'lock', 2: 'key' };
const LOOK: BadgeLook = { variant: 'default', radius: 'sm' };
const STYLE = { textTransform: 'none' } as const;

/** Who may open a report's public page: Public, Private or Password. */
export const PrivacyBadge = memo(function PrivacyBadge({ privacy }: { privacy: Privacy }) {
  return (
    <BadgeMarkup look={LOOK} style={STYLE} leftSection={<BadgeIcon name={ICONS[privacy]} />}>
      {PRIVACY_LABELS[privacy]}
    </BadgeMarkup>
  );
});
