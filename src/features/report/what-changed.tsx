import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/List.css';
import { CloseButton, Group, List, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  IconArrowRight,
  IconCircleCheck,
  IconCircleMinus,
  IconCirclePlus,
  IconCircleX,
} from '@tabler/icons-react';
import { useEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import { RESULT_LABELS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { hasChanges, whatChanged } from '@/lib/what-changed';
import type { AnalysisSnapshot, CheckChange } from '@/lib/what-changed';
import { checkName } from '@/checks/check-info';
import { formatNumber } from '@/checks/evidence-format';

function resultText(result: Result | null): string {
  return result === null ? 'Unknown' : RESULT_LABELS[result];
}

function scoreText(score: number | null): string {
  return score === null ? 'none' : formatNumber(score);
}

const CHANGE_TEXT: Record<CheckChange['kind'], (passed: boolean) => string> = {
  'now-failing': () => 'passed before, fails now',
  'now-passing': () => 'failed before, passes now',
  added: (passed) => `new check, ${passed ? 'passes' : 'fails'}`,
  removed: (passed) => `no longer checked (${passed ? 'passed' : 'failed'} before)`,
};

function ChangeIcon({ change }: { change: CheckChange }) {
  const props = { size: 18, 'aria-hidden': true, style: { flex: 'none' } } as const;
  if (change.kind === 'removed') return <IconCircleMinus {...props} color="var(--mantine-color-dimmed)" />;
  if (change.kind === 'added' && change.passed)
    return <IconCirclePlus {...props} color="var(--mantine-color-teal-7)" />;
  return change.passed ? (
    <IconCircleCheck {...props} color="var(--mantine-color-teal-7)" />
  ) : (
    <IconCircleX {...props} color="var(--mantine-color-red-7)" />
  );
}

function BeforeAfter({ label, before, after }: { label: string; before: string; after: string }) {
  return (
    <Text size="sm">
      <Text span inherit fw={600}>
        {label}:
      </Text>{' '}
      {before} <IconArrowRight size={14} aria-hidden style={{ verticalAlign: 'middle' }} />
      <VisuallyHidden>to</VisuallyHidden> {after}
    </Text>
  );
}

export interface WhatChangedSummaryProps {
  before: AnalysisSnapshot;
  after: AnalysisSnapshot;
  /** Shows a close button. */
  onDismiss?: () => void;
  /** Which two analyses these are (the history's runs), under the heading. */
  description?: ReactNode;
  /** Moves the focus to the heading when shown and whenever the comparison changes. */
  autoFocus?: boolean;
  /** 2 on its own, 3 inside the history. */
  headingOrder?: 2 | 3;
  /** Drawn with a border on its own; inside the history, the section has it. */
  withBorder?: boolean;
}

/**
 * Score and result before → after, and every check that flipped: after "Refresh results", and
 * between any two runs of the history. Loaded on first use: most visits never need it.
 */
export function WhatChangedSummary({
  before,
  after,
  onDismiss,
  description,
  autoFocus = true,
  headingOrder = 2,
  withBorder = true,
}: WhatChangedSummaryProps) {
  const change = useMemo(() => whatChanged(before, after), [before, after]);
  const { score, result, checks } = change;
  // The summary appears above the form that asked for it, perhaps out of view: take the reader there.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (autoFocus) heading.current?.focus();
  }, [change, autoFocus]);
  const delta =
    score.delta === null || score.delta === 0
      ? ''
      : ` (${score.delta > 0 ? '+' : ''}${formatNumber(score.delta)})`;
  return (
    <Paper
      withBorder={withBorder}
      p={withBorder ? 'md' : 0}
      radius="md"
      component="section"
      aria-labelledby="what-changed-heading"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title
            order={headingOrder}
            fz={headingOrder === 2 ? 'h3' : 'h4'}
            id="what-changed-heading"
            ref={heading}
            tabIndex={-1}
            style={{ outline: 'none' }}
          >
            What changed
          </Title>
          {onDismiss && <CloseButton aria-label="Dismiss what changed" onClick={onDismiss} />}
        </Group>
        {description}
        {/* Only what moved: "78 → 78" says nothing the line below does not. */}
        {(score.before !== score.after || result.changed) && (
          <Stack gap={4}>
            {score.before !== score.after && (
              <BeforeAfter
                label="Score"
                before={scoreText(score.before)}
                after={`${scoreText(score.after)}${delta}`}
              />
            )}
            {result.changed && (
              <BeforeAfter label="Result" before={resultText(result.before)} after={resultText(result.after)} />
            )}
          </Stack>
        )}
        {checks.length > 0 ? (
          <List spacing={4} size="sm" listStyleType="none" aria-label="Checks that changed">
            {checks.map((c) => (
              <List.Item key={c.key}>
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <ChangeIcon change={c} />
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Text span inherit fw={600}>
                      {checkName(c.key)}
                    </Text>
                    : {CHANGE_TEXT[c.kind](c.passed)}
                  </Text>
                </Group>
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            {hasChanges(change)
              ? 'Every check came out as before.'
              : 'Nothing changed: the score, the result and every check came out as before.'}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
