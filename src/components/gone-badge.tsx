import '@mantine/core/styles/Badge.css';
import { Badge, VisuallyHidden } from '@mantine/core';
import { IconUnlink } from '@tabler/icons-react';
import { formatAbsolute } from '@/lib/dates';

/**
 * A report whose page is gone (the reference server following a sitemap): it left the sitemap, or
 * answered 404 or 410. Runs leave it out until it answers again.
 */
export function GoneBadge({ since }: { since: Date }) {
  const when = formatAbsolute(since);
  return (
    <Badge variant="outline" color="gray" radius="sm" tt="none" title={`Gone since ${when}`} leftSection={<IconUnlink size={12} aria-hidden />}>
      Gone<VisuallyHidden> since {when}</VisuallyHidden>
    </Badge>
  );
}
