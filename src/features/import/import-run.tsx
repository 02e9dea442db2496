// Add many's run as it goes: each URL's state, Cancel, Retry failed, the failed rows as a CSV; at the
// end the results of the reports it made or refreshed (Good / Decent / Bad) and a link to a list of
// just those. Loaded when a run starts.
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { idListText } from '@/contract/id-list';
import { RESULTS, RESULT_LABELS } from '@/contract/values';
import { RunProgress } from '@/components/bulk-progress';
import type { ImportItem, ImportRun as Run, ImportRunner } from '@/workflows/use-import-run';
import { plural } from '@/lib/plural';
import classes from './import-page.module.css';

async function downloadFailed(failed: readonly ImportItem[]) {
  const [{ csvText, datedCsvFileName }, { downloadBlob }] = await Promise.all([
    import('@/lib/csv'),
    import('@/lib/download'),
  ]);
  const rows = failed.map((item) => [item.url, item.message]);
  downloadBlob(
    new Blob([csvText(['url', 'reason'], rows)], { type: 'text/csv;charset=utf-8' }),
    datedCsvFileName('failed-rows'),
  );
}

const RESULT_COLORS: Record<(typeof RESULTS)[number], MantineColor> = {
  good: 'teal',
  decent: 'orange',
  bad: 'red',
};

/** The results of the reports a run made or refreshed, and where to see just those. */
function Finish({ done, idsFilter }: { done: readonly ImportItem[]; idsFilter: boolean }) {
  const counts = { good: 0, decent: 0, bad: 0, unknown: 0 };
  for (const item of done) counts[item.result ?? 'unknown'] += 1;
  const ids = idsFilter
    ? idListText(done.flatMap((item) => (item.reportId === null ? [] : [item.reportId])))
    : null;
  const count = (n: number) => n.toLocaleString('en');
  return (
    <Stack gap={6}>
      <Group gap={6} align="center">
        <Text size="sm">Results of the {plural(done.length, 'report', 'reports')} added or refreshed:</Text>
        <Group gap={6} component="ul" aria-label="Results" className={classes.results}>
          {RESULTS.map((result) => (
            <Badge
              key={result}
              component="li"
              color={counts[result] > 0 ? RESULT_COLORS[result] : 'gray'}
              variant={counts[result] > 0 ? 'light' : 'outline'}
              radius="sm"
              tt="none"
              size="md"
              c="var(--mantine-color-text)"
            >
              {count(counts[result])} {RESULT_LABELS[result]}
            </Badge>
          ))}
          {counts.unknown > 0 && (
            <Badge
              component="li"
              color="gray"
              variant="outline"
              radius="sm"
              tt="none"
              size="md"
              c="var(--mantine-color-text)"
            >
              {count(counts.unknown)} without a result
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="sm">
        {ids ? (
          <Anchor component={Link} to={`/reports?ids=${ids}`}>
            {done.length === 1
              ? 'See this report in Reports'
              : `See these ${count(done.length)} reports in Reports`}
          </Anchor>
        ) : (
          <>
            <Anchor component={Link} to="/reports" underline="always">
              See the newest reports
            </Anchor>{' '}
            (the connected service cannot list only these: each one is linked in the list below)
          </>
        )}
      </Text>
    </Stack>
  );
}

export interface ImportRunProps {
  run: Run;
  runner: Pick<ImportRunner, 'cancel' | 'retryFailed'>;
  onDismiss: () => void;
  /** Whether the deployment lists reports by id (capabilities.ids_filter): the finish links to just these. */
  idsFilter: boolean;
}

export function ImportRun({ run, runner, onDismiss, idsFilter }: ImportRunProps) {
  const failed = run.items.filter((item) => item.status === 'failed');
  const done = run.items.filter((item) => item.status === 'done');
  return (
    <>
      <RunProgress
        title={`Adding ${plural(run.items.length, 'report', 'reports')}`}
        run={run}
        listLabel="Status of each URL"
        noun="URLs"
        linkOf={(item) =>
          'reportId' in item && typeof item.reportId === 'number' ? `/reports/${item.reportId}` : null
        }
        onCancel={runner.cancel}
        onRetryFailed={runner.retryFailed}
        onDismiss={onDismiss}
        finishedSummary={done.length > 0 && <Finish done={done} idsFilter={idsFilter} />}
        finishedActions={
          failed.length > 0 && (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconDownload size={14} aria-hidden />}
              onClick={() => void downloadFailed(failed)}
            >
              Download failed rows
            </Button>
          )
        }
      />
    </>
  );
}
