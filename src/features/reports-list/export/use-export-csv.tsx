import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Suspense, lazy, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { ReportListParams } from '@/api/reports';
import type { Report } from '@/contract/domain';

// Only this button comes with the reports page: the export (Papa Parse, the request scheduler, the
// progress UI) loads on the first click, or as soon as a pointer or the focus reaches the button.
const loadExport = () => import('./export-csv');
const ExportCsv = lazy(() => loadExport().then((m) => ({ default: m.ExportCsv })));
// A failed preload is no error yet: the click loads it again, and a failure then reaches the page.
const preload = () => void loadExport().catch(() => {});

export interface ExportCsvOptions {
  /** The view on screen as sent to the API (`reportListParams(state)`); all its pages are exported. */
  params: ReportListParams;
  /** How many reports the view has, when known: none makes the button say "Nothing to export". */
  total?: number;
  /** Every report of the view where it was filtered here (not by the deployment): those are exported. */
  reports?: readonly Report[];
}

/**
 * Export CSV of every report of the view: the button, and its progress, Cancel and outcome, which the
 * page places below its row of header buttons.
 */
export function useExportCsv({ params, total, reports }: ExportCsvOptions): { button: ReactNode; panel: ReactNode } {
  // Compiled (vite.config.ts): the button is rendered again only when its state changes, not with the view.
  'use memo';
  const [run, setRun] = useState(0);
  const [running, setRunning] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const nothing = total === 0 && !running;
  const start = () => {
    if (running) return;
    setRun(run + 1);
    setRunning(true);
  };
  const button = (
    <Button
      ref={trigger}
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      disabled={nothing}
      // Looks disabled while running but is not: the button keeps the focus of whoever clicked it.
      data-disabled={running || undefined}
      aria-disabled={running || undefined}
      onClick={start}
      onPointerEnter={preload}
      onFocus={preload}
    >
      {nothing ? 'Nothing to export' : 'Export CSV'}
    </Button>
  );
  const panel = run > 0 && (
    <Suspense fallback={null}>
      <ExportCsv key={run} params={params} reports={reports} onRunningChange={setRunning} trigger={trigger} />
    </Suspense>
  );
  return { button, panel };
}
