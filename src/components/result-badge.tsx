import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconHelpCircle } from '@tabler/icons-react';
import { RESULT_LABELS } from '@/contract/values';
import type { Result } from '@/contract/values';

const LOOKS = {
  good: { color: 'teal', Icon: IconCircleCheck },
  decent: { color: 'orange', Icon: IconAlertTriangle },
  bad: { color: 'red', Icon: IconCircleX },
} as const;

/** A report's result as colour plus text: Good, Decent, Bad, or Unknown when the deployment gives none. */
export function ResultBadge({ result }: { result: Result | null }) {
  if (result === null) {
    return (
      <Badge variant="default" radius="sm" tt="none" leftSection={<IconHelpCircle size={12} aria-hidden />}>
        Unknown
      </Badge>
    );
  }
  const { color, Icon } = LOOKS[result];
  // The tint and the icon carry the colour; the word keeps the text colour, which reaches 4.5:1 in
  // both schemes (white on teal or orange, or orange on its tint, does not).
  return (
    <Badge
      variant="light"
      color={color}
      radius="sm"
      tt="none"
      c="var(--mantine-color-text)"
      leftSection={<Icon size={12} color={`var(--mantine-color-${color}-light-color)`} aria-hidden />}
    >
      {RESULT_LABELS[result]}
    </Badge>
  );
}
