// `/reports/:id`: one report's details and results, its edit form (privacy, password, refresh
// results, with what changed), and delete.
import { Alert, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { isApiError } from '@/api/http/errors';
import { useCheckTreatment } from '@/api/problems';
import { reportQueries } from '@/api/reports';
import type { Report } from '@/contract/domain';
import type { ReportTrail } from '@/api/report-trail';
import { ErrorState } from '@/components/error-state';
import { NotFound } from '@/components/not-found';
import { RoleGate } from '@/components/role-gate';
import { LoadingRows } from '@/components/loading-rows';
import { documentTitle } from '@/lib/document-title';
import { parseReportId } from '@/lib/report-id';
import { ReportHeader } from './header';
import { ReportTrailNav, useReportTrail } from './trail-nav';
import { AnalyseAgain } from './analyse-again';
import { LastChange } from './last-change';
import { FixFirst, adviceInFixFirst } from './fix-first';
import { ReportResults } from './results';
import classes from './report-page.module.css';

const REPORTS_PATH = '/reports';

// The settings (privacy, password, refresh, delete) sit beside the results: their form, its
// validation and the mutations load while the results are shown, not before.
const ReportSettings = lazy(() => import('./settings').then((m) => ({ default: m.ReportSettings })));
const loadWhatChanged = () => import('./what-changed');
const WhatChangedSummary = lazy(() => loadWhatChanged().then((m) => ({ default: m.WhatChangedSummary })));
// Only where the server keeps runs, and only for a report with more than one.
const ReportHistory = lazy(() => import('./history').then((m) => ({ default: m.ReportHistory })));

/** Shown while the service fetches and analyses the page again. */
function RefreshProgress() {
  return (
    <Alert variant="light" color="blue" role="status" aria-live="polite">
      <Group gap="sm" wrap="nowrap">
        <Loader size="sm" aria-hidden />
        <Text size="sm">Analysing page again… This can take a few seconds.</Text>
      </Group>
    </Alert>
  );
}

function ReportNotFound({ trail }: { trail?: ReportTrail | null }) {
  return (
    <NotFound
      heading="Report not found"
      title="There is no report here"
      description="It may have been deleted, or the link may be mistyped."
      back={trail ? { to: trail.list, label: `Back to ${trail.name}` } : { to: REPORTS_PATH, label: 'Back to all reports' }}
    />
  );
}

/** Whether the server keeps more than one run of the report: then it has a History section. */
function keepsHistory(report: Report): boolean {
  return report.runs !== null && report.runs > 1;
}

type RefreshState = { status: 'running' } | { status: 'done'; before: Report; after: Report } | null;

function ReportView({ report }: { report: Report }) {
  const navigate = useNavigate();
  const [refresh, setRefresh] = useState<RefreshState>(null);
  // Where the server keeps runs, what changed is the history's comparison (the newest run against the
  // last that differs): it survives a reload. Elsewhere it is the before and after of this visit's refresh.
  const hasHistory = keepsHistory(report);
  // How its project treats its checks (ignored, re-weighted, site-wide), where the deployment says.
  const { treatment, settings } = useCheckTreatment(report.project);
  const startRefresh = () => {
    setRefresh({ status: 'running' });
    void loadWhatChanged();
  };
  // Once the report is deleted, leaving must not ask about unsaved changes to it.
  const allowLeave = useRef(false);
  useEffect(() => {
    document.title = documentTitle(`${report.url} · Report`);
  }, [report.url]);

  return (
    <Stack gap="xl" className={classes.page}>
      <ReportHeader
        report={report}
        action={
          <>
            <RoleGate>
              <AnalyseAgain
                report={report}
                running={refresh?.status === 'running'}
                onStart={startRefresh}
                onDone={(before, after) => setRefresh({ status: 'done', before, after })}
                onFailed={() => setRefresh(null)}
              />
            </RoleGate>
            {/* What changed since the last run that differs, linked to History's comparison. */}
            {hasHistory && <LastChange report={report} />}
          </>
        }
      />

      {refresh?.status === 'running' && <RefreshProgress />}
      {refresh?.status === 'done' && !keepsHistory(refresh.after) && (
        <Suspense fallback={null}>
          <WhatChangedSummary
            before={refresh.before}
            after={refresh.after}
            onDismiss={() => setRefresh(null)}
          />
        </Suspense>
      )}

      <div className={classes.layout}>
        <div className={classes.fix}>
          <FixFirst results={report.results} treatment={treatment} project={report.project} />
        </div>
        <div className={classes.side}>
          <Suspense fallback={<LoadingRows rows={4} height={40} label="Loading the report settings" />}>
            <ReportSettings
              report={report}
              allowLeaveRef={allowLeave}
              onRefreshStart={startRefresh}
              onRefreshDone={(before, after) => setRefresh({ status: 'done', before, after })}
              onRefreshFailed={() => setRefresh(null)}
              onDeleted={(to, state) => {
                allowLeave.current = true;
                void navigate(to, { state });
              }}
            />
          </Suspense>
        </div>
        {hasHistory && (
          <div className={classes.history}>
            <Suspense fallback={<LoadingRows rows={4} label="Loading the history" />}>
              <ReportHistory report={report} refreshed={refresh?.status === 'done'} />
            </Suspense>
          </div>
        )}
        <div className={classes.results}>
          <ReportResults
            results={report.results}
            adviceAbove={adviceInFixFirst(report.results, treatment)}
            settings={settings ? { project: report.project, byCheck: settings } : null}
          />
        </div>
      </div>
    </Stack>
  );
}

function ReportPage() {
  const id = parseReportId(useParams().id);
  const trail = useReportTrail();
  const query = useQuery({ ...reportQueries.detail(id ?? 0), enabled: id !== null });

  if (id === null) return <ReportNotFound />;
  if (query.isError && !query.data && isApiError(query.error) && query.error.kind === 'not-found')
    return <ReportNotFound trail={trail} />;
  let body;
  // A failed background refetch keeps the report on screen; only a first load that failed replaces it.
  if (query.data) body = <ReportView key={query.data.id} report={query.data} />;
  else if (query.isError)
    body = (
      <Stack gap="md">
        <Title order={1}>Report</Title>
        <ErrorState
          error={query.error}
          title="The report could not be loaded"
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </Stack>
    );
  else
    body = (
      <Stack gap="md">
        <Title order={1}>Report</Title>
        <LoadingRows rows={6} label="Loading the report" />
      </Stack>
    );
  // The way back and to the neighbours stays in place (and keeps the focus) while the next report loads.
  return (
    <Stack gap="md">
      <ReportTrailNav id={id} trail={trail} />
      {body}
    </Stack>
  );
}

export { ReportPage as Component };
