// Add many's run as it goes: each URL's state, Cancel, Retry failed, the failed rows as a CSV, and
// a link to the reports once some were made. Loaded when a run starts.
import { Anchor, Button, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { RunProgress } from '@/components/bulk-progress';
import { countStatuses } from '@/workflows/use-bulk-run';
import type { ImportItem, ImportRun as Run, ImportRunner } from '@/workflows/use-import-run';
import { plural } from '@/lib/plural';

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

export interface ImportRunProps {
  run: Run;
  runner: Pick<ImportRunner, 'cancel' | 'retryFailed'>;
  onDismiss: () => void;
}

export function ImportRun({ run, runner, onDismiss }: ImportRunProps) {
  const failed = run.items.filter((item) => item.status === 'failed');
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
      {run.phase === 'finished' && countStatuses(run.items).done > 0 && (
        <Text size="sm">
          <Anchor component={Link} to="/reports">
            See them in Reports
          </Anchor>
        </Text>
      )}
    </>
  );
}
