import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconHelpCircle, IconAlertTriangle } from '@tabler/icons-react';
import { RESULT_LABELS } from '@/api/contract';
import type { Result } from '@/api/contract';

const COLOURS: Record<Result, string> = { good: 'teal', decent: 'orange', bad: 'red' };
const ICONS = { good: IconCircleCheck, decent: IconAlertTriangle, bad: IconCircleX } as const;

/** A report's result as colour plus text: Good, Decent, Bad, or Unknown when the deployment gives none. */
export function ResultBadge({ result }: { result: Result | null }) {
  if (result === null) {
    return (
      <Badge variant="default" tt="none" radius="sm" leftSection={<IconHelpCircle size={12} aria-hidden />}>
        Unknown
      </Badge>
    );
  }
  const colour = COLOURS[result];
  const Icon = ICONS[result];
  // The tint and the icon carry the colour; the word keeps the text colour, which reaches 4.5:1 in
  // both schemes (white on teal or orange, or orange on its tint, does not).
  return (
    <Badge
      color={colour}
      variant="light"
      tt="none"
      radius="sm"
      c="var(--mantine-color-text)"
      leftSection={<Icon size={12} aria-hidden color={`var(--mantine-color-${colour}-light-color)`} />}
    >
      {RESULT_LABELS[result]}
    </Badge>
  );
}
