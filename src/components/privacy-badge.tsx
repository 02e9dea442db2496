import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import { IconKey, IconLock, IconWorld } from '@tabler/icons-react';
import { PRIVACY_LABELS } from '@/contract/values';
import type { Privacy } from '@/contract/values';

const ICONS = { 0: IconWorld, 1: IconLock, 2: IconKey } as const;

/** Who may open a report's public page: Public, Private or Password. */
export function PrivacyBadge({ privacy }: { privacy: Privacy }) {
  const Icon = ICONS[privacy];
  return (
    <Badge variant="default" radius="sm" tt="none" leftSection={<Icon size={12} aria-hidden />}>
      {PRIVACY_LABELS[privacy]}
    </Badge>
  );
}
