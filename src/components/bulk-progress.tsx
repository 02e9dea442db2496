import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Progress.css';
import { Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import { IconPlayerStop, IconRefresh, IconX } from '@tabler/icons-react';
import { PRIVACY_LABELS } from '@/contract/values';
import { formatClock } from '@/lib/dates';
import { memo, useDeferredValue } from 'react';
import type { ReactNode } from 'react';
import type { BulkAction, BulkItem, BulkRun, BulkRunner, ItemStatus as Status } from '@/api/use-bulk-run';
import { countStatuses } from '@/api/use-bulk-run';
import classes from './bulk-progress.module.css';

const STATUS: Record<Status, { label: string; color: MantineColor }> = {
  pending: { label: 'Pending', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  done: { label: 'Done', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'yellow' },
};

function actionTitle(action: BulkAction, total: number): string {
  const reports = `${total.toLocaleString('en')} ${total === 1 ? 'report' : 'reports'}`;
  switch (action.kind) {
    case 'privacy':
      return `Changing the privacy of ${reports} to ${PRIVACY_LABELS[action.privacy]}`;
    case 'refresh':
      return `Refreshing the results of ${reports}`;
    case 'delete':
      return `Deleting ${reports}`;
  }
}

export interface BulkProgressProps {
  /** Nothing is shown until it runs something. */
  runner: BulkRunner;
}

/**
 * One report's line in the list. Memoised: each answer changes one item (use-bulk-run.ts keeps the
 * others' objects), and without it every change rendered all 1,000 lines again (bench:bulk: about
 * 20 ms a change, the page's main thread busy the whole run, 18-27 updates a second where the server
 * takes 390).
 */
const ItemStatus = memo(function ItemStatus({ item }: { item: BulkItem }) {
  return (
    <li className={classes.item}>
      {/* The tint carries the colour; the word keeps the text colour (4.5:1 in both schemes). */}
      <Badge
        color={STATUS[item.status].color}
        variant="light"
        radius="sm"
        tt="none"
        c="var(--mantine-color-text)"
        className={classes.status}
      >
        {STATUS[item.status].label}
      </Badge>
      <span className={classes.url}>{item.url}</span>
      {item.message !== null && (
        <Text span size="sm" c={item.status === 'failed' ? 'red' : 'dimmed'} className={classes.message}>
          {item.message}
        </Text>
      )}
    </li>
  );
});

/** A bulk action's progress: done / total, each report's state, Cancel; at the end a summary. */
export function BulkProgress({ runner }: BulkProgressProps) {
  if (runner.run === null) return null;
  return (
    <RunProgress
      title={actionTitle(runner.run.action, runner.run.items.length)}
      run={runner.run}
      onCancel={runner.cancel}
      onRetryFailed={runner.retryFailed}
      onDismiss={runner.dismiss}
    />
  );
}

export interface RunProgressProps {
  /** What runs ("Deleting 12 reports"); it names the section and the progress bar. */
  title: string;
  run: Pick<BulkRun, 'items' | 'phase' | 'cancelled' | 'waitingUntil'>;
  onCancel: () => void;
  onRetryFailed: () => void;
  /** Without it, no Close button. */
  onDismiss?: () => void;
  /** More buttons at the end of a run (Download failed rows). */
  finishedActions?: ReactNode;
  /** The per-item list's name; default "Status of each report". */
  listLabel?: string;
}

/** Any run over many items (a bulk action, Add many): done / total, each item's state, Cancel, the summary. */
export function RunProgress({
  title,
  run,
  onCancel,
  onRetryFailed,
  onDismiss,
  finishedActions,
  listLabel = 'Status of each report',
}: RunProgressProps) {
  // The list may lag behind the counts and the bar while answers come in fast: React renders it
  // when it has time, with the latest states, instead of once per answer.
  const items = useDeferredValue(run.items);
  const total = run.items.length;
  const counts = countStatuses(run.items);
  const settled = counts.done + counts.failed + counts.skipped;
  const finished = run.phase === 'finished';
  let summary = `${settled.toLocaleString('en')} of ${total.toLocaleString('en')} finished: ${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped.`;
  if (finished) summary = `${run.cancelled ? 'Cancelled' : 'Finished'}: ${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped.`;
  else if (run.phase === 'stopping')
    summary = `Cancelling: nothing more is sent; waiting for ${counts.running} ${counts.running === 1 ? 'request' : 'requests'} already sent.`;

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={title}>
      <Stack gap="xs">
        <Group justify="space-between" gap="sm">
          <Text fw={700}>{title}</Text>
          <Group gap="xs">
            {!finished && (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconPlayerStop size={14} aria-hidden />}
                onClick={onCancel}
                disabled={run.phase === 'stopping'}
              >
                Cancel
              </Button>
            )}
            {finished && counts.failed > 0 && (
              <Button size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRetryFailed}>
                Retry failed
              </Button>
            )}
            {finished && finishedActions}
            {finished && onDismiss && (
              <Button variant="default" size="xs" leftSection={<IconX size={14} aria-hidden />} onClick={onDismiss}>
                Close
              </Button>
            )}
          </Group>
        </Group>
        <Progress.Root
          size="lg"
          role="progressbar"
          aria-label={`${title}: progress`}
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={settled}
          aria-valuetext={`${settled} of ${total}`}
        >
          <Progress.Section value={(counts.done / total) * 100} color="green" withAria={false} />
          <Progress.Section value={(counts.failed / total) * 100} color="red" withAria={false} />
          <Progress.Section value={(counts.skipped / total) * 100} color="yellow" withAria={false} />
        </Progress.Root>
        <Text size="sm" role="status">
          {summary}
          {run.waitingUntil !== null &&
            ` Paused by the service’s rate limit until ${formatClock(run.waitingUntil)}; it goes on by itself.`}
        </Text>
        {/* A long list scrolls in its own box; a box that scrolls must take focus for the keyboard. */}
        <ul className={classes.items} aria-label={listLabel} tabIndex={0}>
          {items.map((item) => (
            <ItemStatus key={item.id} item={item} />
          ))}
        </ul>
      </Stack>
    </Paper>
  );
}
