import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Progress.css';
import { Anchor, Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import { IconPlayerStop, IconRefresh, IconX } from '@tabler/icons-react';
import { PRIVACY_LABELS } from '@/contract/values';
import { formatClock } from '@/lib/dates';
import { memo, useDeferredValue, useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Outcome } from '@/lib/what-changed';
import type { BulkAction, BulkItem, BulkRun, BulkRunner, ItemStatus as Status } from '@/workflows/use-bulk-run';
import { countStatuses } from '@/workflows/use-bulk-run';
import classes from './bulk-progress.module.css';

const STATUS: Record<Status, { label: string; color: MantineColor }> = {
  pending: { label: 'Pending', color: 'gray' },
  running: { label: 'Running', color: 'blue' },
  done: { label: 'Done', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'yellow' },
};

const OUTCOME: Record<Outcome, { label: string; color: MantineColor }> = {
  improved: { label: 'Improved', color: 'teal' },
  worse: { label: 'Worse', color: 'orange' },
  unchanged: { label: 'Unchanged', color: 'gray' },
};

/** Where the list begins: what needs a look first (failed, worse), then what else stands out. */
function rank(item: BulkItem): number {
  if (item.status === 'failed') return 0;
  if (item.outcome === 'worse') return 1;
  if (item.status === 'skipped') return 2;
  // Improved, or done with a note (Add many's "found, not created again").
  if (item.outcome === 'improved' || item.message !== null) return 3;
  return 4;
}

/** An item worth a line while the list is folded: anything but pending, and done as expected. */
function unusual(item: BulkItem): boolean {
  return item.status === 'running' || rank(item) < 4;
}

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
  runner: Omit<BulkRunner, 'start'>;
}

/**
 * One report's line in the list. Memoised: each answer changes one item (use-bulk-run.ts keeps the
 * others' objects), and without it every change rendered all 1,000 lines again (bench:bulk: about
 * 20 ms a change, the page's main thread busy the whole run, 18-27 updates a second where the server
 * takes 390).
 */
const ItemStatus = memo(function ItemStatus({ item, href }: { item: BulkItem; href: string | null }) {
  // A refreshed report that moved says so in place of "Done".
  const shown = item.status === 'done' && item.outcome ? OUTCOME[item.outcome] : STATUS[item.status];
  return (
    <li className={classes.item}>
      {/* The tint carries the colour; the word keeps the text colour (4.5:1 in both schemes). */}
      <Badge
        color={shown.color}
        variant="light"
        radius="sm"
        tt="none"
        c="var(--mantine-color-text)"
        className={classes.status}
      >
        {shown.label}
      </Badge>
      {href === null ? (
        <span className={classes.url}>{item.url}</span>
      ) : (
        <Anchor component={Link} to={href} size="sm" className={classes.url}>
          {item.url}
        </Anchor>
      )}
      {item.message !== null && (
        <Text span size="sm" c={item.status === 'failed' ? 'red' : 'dimmed'} className={classes.message}>
          {item.message}
        </Text>
      )}
    </li>
  );
});

/** How the refreshed reports came out; null when the run refreshed nothing it could compare. */
function outcomeCounts(items: readonly BulkItem[]) {
  const counts = { improved: 0, worse: 0, unchanged: 0, unknown: 0 };
  let any = false;
  for (const item of items) {
    if (item.outcome === undefined) continue;
    any = true;
    if (item.status === 'done') counts[item.outcome ?? 'unknown'] += 1;
  }
  return any ? counts : null;
}

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
      // A deleted report has no page left to open; one whose delete failed still has.
      linkOf={
        runner.run.action.kind === 'delete'
          ? (item) => (item.status === 'failed' ? `/reports/${item.id}` : null)
          : (item) => `/reports/${item.id}`
      }
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
  /** What else the end of a run says, under its summary (Add many: the results, a link to them). */
  finishedSummary?: ReactNode;
  /** The per-item list's name; default "Status of each report". */
  listLabel?: string;
  /** The page of an item's report, for its line to link to; without it, no links. */
  linkOf?: (item: BulkItem) => string | null;
  /** What the items are, for "Show all 66 reports"; default "reports". */
  noun?: string;
}

/** Any run over many items (a bulk action, Add many): done / total, each item's state, Cancel, the summary. */
export function RunProgress({
  title,
  run,
  onCancel,
  onRetryFailed,
  onDismiss,
  finishedActions,
  finishedSummary,
  listLabel = 'Status of each report',
  linkOf,
  noun = 'reports',
}: RunProgressProps) {
  // The list may lag behind the counts and the bar while answers come in fast: React renders it
  // when it has time, with the latest states, instead of once per answer.
  const items = useDeferredValue(run.items);
  const total = run.items.length;
  const counts = countStatuses(run.items);
  const settled = counts.done + counts.failed + counts.skipped;
  const lasting = run.items.filter((item) => item.status === 'failed' && item.retryable === false).length;
  const finished = run.phase === 'finished';
  let summary = `${settled.toLocaleString('en')} of ${total.toLocaleString('en')} finished: ${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped.`;
  if (finished)
    summary = `${run.cancelled ? 'Cancelled' : 'Finished'}: ${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped.`;
  else if (run.phase === 'stopping')
    summary = `Cancelling: nothing more is sent; waiting for ${counts.running} ${counts.running === 1 ? 'request' : 'requests'} already sent.`;

  // The list folds to what stands out (at the end: failed and worse first); the rest one click away.
  const [showAll, setShowAll] = useState(false);
  const listId = useId();
  const outcomes = outcomeCounts(run.items);
  const picked = showAll ? items : items.filter(unusual);
  const shown = finished ? picked.slice().sort((a, b) => rank(a) - rank(b)) : picked;
  const folded = items.length - items.filter(unusual).length;

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={title}>
      <Stack gap={8}>
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
            {finished && counts.failed > lasting && (
              <Button size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRetryFailed}>
                Retry failed
              </Button>
            )}
            {finished && finishedActions}
            {finished && onDismiss && (
              <Button
                variant="default"
                size="xs"
                leftSection={<IconX size={14} aria-hidden />}
                onClick={onDismiss}
              >
                Close
              </Button>
            )}
          </Group>
        </Group>
        <Progress.Root
          size="md"
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
        <Group gap="xs" align="center">
          <Text size="sm" role="status">
            {summary}
            {run.waitingUntil !== null &&
              ` Paused by the service’s rate limit until ${formatClock(run.waitingUntil)}; it goes on by itself.`}
          </Text>
          {finished && outcomes !== null && (
            <Group gap={6} component="ul" aria-label="Outcome" className={classes.outcome}>
              {(
                [
                  ['worse', outcomes.worse, 'orange'],
                  ['failed', counts.failed, 'red'],
                  ['improved', outcomes.improved, 'teal'],
                  ['unchanged', outcomes.unchanged, 'gray'],
                  ['not compared', outcomes.unknown, 'gray'],
                ] as const
              )
                .filter(([label, n]) => n > 0 || label !== 'not compared')
                .map(([label, n, color]) => (
                  <Badge
                    key={label}
                    component="li"
                    color={n > 0 ? color : 'gray'}
                    variant={n > 0 && color !== 'gray' ? 'light' : 'outline'}
                    radius="sm"
                    tt="none"
                    size="md"
                    c="var(--mantine-color-text)"
                  >
                    {n.toLocaleString('en')} {label}
                  </Badge>
                ))}
            </Group>
          )}
        </Group>
        {finished && lasting > 0 && (
          <Text size="sm">
            {lasting === counts.failed
              ? `${lasting === 1 ? 'The failure' : 'The failures'} cannot be fixed by trying again`
              : `${lasting} of the failures cannot be fixed by trying again`}
            : {lasting === 1 ? 'its reason is' : 'their reasons are'} listed below.
          </Text>
        )}
        {finished && finishedSummary}
        {/* A long list scrolls in its own box; a box that scrolls must take focus for the keyboard. */}
        {shown.length > 0 && (
          <ul id={listId} className={classes.items} aria-label={listLabel} tabIndex={0}>
            {shown.map((item) => (
              <ItemStatus key={item.id} item={item} href={linkOf?.(item) ?? null} />
            ))}
          </ul>
        )}
        {folded > 0 && (
          <Button
            variant="subtle"
            size="compact-sm"
            style={{ alignSelf: 'flex-start' }}
            aria-expanded={showAll}
            aria-controls={shown.length > 0 ? listId : undefined}
            onClick={() => setShowAll((all) => !all)}
          >
            {showAll ? 'Show only what stands out' : `Show all ${total.toLocaleString('en')} ${noun}`}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
