// The export itself, loaded on the first click of Export CSV (use-export-csv.tsx): every page of
// the view through one request scheduler, which keeps to the deployment's rate limit and can stop
// every request at once, then the CSV file.
import '@mantine/core/styles/Progress.css';
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { collectReports } from '@/api/fetch-every-page';
import type { CollectProgress } from '@/api/fetch-every-page';
import type { ReportListParams } from '@/api/reports';
import type { Report } from '@/contract/domain';
import { formatClock } from '@/lib/dates';
import { createScheduler } from '@/api/http/scheduler';
import type { RequestScheduler } from '@/api/http/scheduler';
import { ErrorState } from '@/components/error-state';
import { downloadBlob } from '@/lib/download';
import { reportsCsv, reportsCsvFileName } from './report-csv';

type ExportState =
  | { status: 'running'; progress: CollectProgress | null }
  | { status: 'done'; count: number; fileName: string }
  | { status: 'empty' }
  | { status: 'cancelled' }
  | { status: 'failed'; error: unknown };

const numberFormat = new Intl.NumberFormat('en');
const reportCount = (n: number) => `${numberFormat.format(n)} report${n === 1 ? '' : 's'}`;

export interface ExportCsvProps {
  params: ReportListParams;
  /** The view's reports where it was filtered here: exported as they are, nothing fetched. */
  reports?: readonly Report[];
  onRunningChange: (running: boolean) => void;
  /** The Export CSV button: it gets the focus back when Cancel, which had it, goes away. */
  trigger: RefObject<HTMLButtonElement | null>;
}

/** Starts exporting `params` when mounted; shows the progress with Cancel, then the outcome. */
export function ExportCsv({ params, reports: given, onRunningChange, trigger }: ExportCsvProps) {
  // The view of the click: a filter changed meanwhile does not change the file, and Retry repeats it.
  const [view] = useState(params);
  const [picked] = useState(given);
  const [state, setState] = useState<ExportState>({ status: 'running', progress: null });
  // While the scheduler sits out the service's rate limit: when it goes on (epoch ms).
  const [waitingUntil, setWaitingUntil] = useState<number | null>(null);
  // The run whose answers still count; a cancelled or unmounted run's answers are dropped.
  const current = useRef<RequestScheduler | null>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<'trigger' | 'cancel' | null>(null);

  const finish = (outcome: ExportState) => {
    current.current = null;
    // Cancel goes with the run: if it had the focus, the Export CSV button gets it.
    if (cancelButton.current === document.activeElement) focusNext.current = 'trigger';
    setState(outcome);
    onRunningChange(false);
  };

  const run = () => {
    const scheduler = createScheduler({ onWait: (until) => setWaitingUntil(until) });
    current.current = scheduler;
    const live = () => current.current === scheduler;
    void (async () => {
      let outcome: ExportState;
      try {
        const reports = picked
          ? [...picked]
          : await collectReports(view, {
              scheduler,
              onProgress: (progress) => live() && setState({ status: 'running', progress }),
            });
        if (!live()) return;
        if (reports.length === 0) {
          outcome = { status: 'empty' };
        } else {
          const fileName = reportsCsvFileName();
          downloadBlob(new Blob([reportsCsv(reports)], { type: 'text/csv;charset=utf-8' }), fileName);
          outcome = { status: 'done', count: reports.length, fileName };
        }
      } catch (error) {
        if (!live()) return;
        outcome = { status: 'failed', error };
      }
      finish(outcome);
    })();
    return scheduler;
  };

  const startOnMount = useEffectEvent(run);
  useEffect(() => {
    const scheduler = startOnMount();
    return () => {
      // Leaving the page (or React's development double mount) stops the run and everything in flight.
      scheduler.abort();
      if (current.current === scheduler) current.current = null;
    };
  }, []);

  // The button that had the focus is gone: the focus goes to the next step, not to the page's top.
  useEffect(() => {
    const target =
      focusNext.current === 'trigger' ? trigger : focusNext.current === 'cancel' ? cancelButton : null;
    focusNext.current = null;
    target?.current?.focus();
  }, [state.status, trigger]);

  const cancel = () => {
    current.current?.abort();
    finish({ status: 'cancelled' });
  };

  const retry = () => {
    focusNext.current = 'cancel';
    setState({ status: 'running', progress: null });
    onRunningChange(true);
    run();
  };

  let outcome = null;
  if (state.status === 'done') {
    outcome = (
      <Group gap={6} wrap="nowrap">
        <IconCheck size={16} aria-hidden color="var(--mantine-color-green-text)" />
        <Text size="sm">
          Exported {reportCount(state.count)} to {state.fileName}
        </Text>
      </Group>
    );
  } else if (state.status === 'empty') {
    outcome = <Text size="sm">Nothing to export: no report matches this view.</Text>;
  } else if (state.status === 'cancelled') {
    outcome = (
      <Text size="sm" c="dimmed">
        Export cancelled. No file was saved.
      </Text>
    );
  }

  return (
    <Stack gap="xs" w={340} maw="100%">
      {state.status === 'running' && (
        <ExportProgress
          progress={state.progress}
          waitingUntil={waitingUntil}
          onCancel={cancel}
          cancelRef={cancelButton}
        />
      )}
      {state.status === 'failed' && (
        <ErrorState error={state.error} onRetry={retry} title="The export failed" />
      )}
      {/* Always there, so that a screen reader hears the outcome when it appears. */}
      <div role="status">{outcome}</div>
    </Stack>
  );
}

function ExportProgress({
  progress,
  waitingUntil,
  onCancel,
  cancelRef,
}: {
  progress: CollectProgress | null;
  waitingUntil: number | null;
  onCancel: () => void;
  cancelRef: RefObject<HTMLButtonElement | null>;
}) {
  // Until the first page answers, the total is unknown.
  const known = progress !== null && progress.total > 0;
  const done = known ? `${numberFormat.format(progress.reports)} of ${reportCount(progress.total)}` : null;
  return (
    // One line of words with Cancel beside them, and the bar: no taller than the page's heading beside
    // it, so the page does not move when an export starts.
    <Stack gap={6}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="sm">{done === null ? 'Exporting reports…' : `Exporting ${done}…`}</Text>
        <Button
          ref={cancelRef}
          size="compact-sm"
          variant="default"
          leftSection={<IconX size={14} aria-hidden />}
          onClick={onCancel}
        >
          Cancel
        </Button>
      </Group>
      {waitingUntil !== null && (
        <Text size="sm" c="dimmed">
          Paused by the service’s rate limit until {formatClock(waitingUntil)}; it goes on by itself.
        </Text>
      )}
      {/* Mantine's own aria-valuetext is a percentage; "300 of 1,000 reports" says more. */}
      <Progress.Root
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={known ? progress.total : undefined}
        aria-valuenow={known ? progress.reports : undefined}
        aria-valuetext={done ?? 'Starting'}
      >
        <Progress.Section withAria={false} value={known ? (100 * progress.reports) / progress.total : 0} />
      </Progress.Root>
    </Stack>
  );
}
