// A project's health over time (where the server has `overview`): its reports Good / Decent / Bad and
// their average score per day over the last 30, 90 or 365 days, from the daily points the server keeps
// (GET /projects/{project}/health?days=). The chart loads with its library; its words come first.
import '@mantine/core/styles/SegmentedControl.css';
import { Button, Group, Paper, SegmentedControl, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { HEALTH_DAYS, portfolioQueries } from '@/api/portfolio';
import type { HealthDays } from '@/api/portfolio';
import { DataTable } from '@/components/data-table';
import { ErrorState } from '@/components/error-state';
import { LoadingBar } from '@/components/loading-bar';
import { LoadingRows } from '@/components/loading-rows';
import type { HealthPoint } from '@/api/portfolio';
import { countedDays, dayText } from './health-chart-text';
import { DeployList, marksWithin } from '@/components/deploy-marks';
import type { DeployMark } from '@/components/deploy-marks';
import { useChartScheme } from '@/components/use-printing';

const HealthChart = lazy(() => import('./health-chart'));
const CHART_LOADING = <LoadingRows rows={1} height={252} label="Loading the health chart" />;
const DAY_OPTIONS = HEALTH_DAYS.map((days) => ({ value: String(days), label: `${days} days` }));

/** The chart's days in words, newest first: for a keyboard, a screen reader, or exact numbers. */
function DaysTable({ points }: { points: readonly HealthPoint[] }) {
  const right = { textAlign: 'right' } as const;
  return (
    // A year is 365 rows: they scroll in their own box, which the keyboard can reach to scroll it.
    <div
      tabIndex={0}
      role="group"
      aria-label="The days, scrolling"
      style={{ maxHeight: 320, maxWidth: '36rem', overflowY: 'auto', marginTop: 'var(--mantine-spacing-xs)' }}
    >
      <DataTable aria-label="Health by day">
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" style={right}>
              Good
            </th>
            <th scope="col" style={right}>
              Decent
            </th>
            <th scope="col" style={right}>
              Bad
            </th>
            <th scope="col" style={right}>
              Average score
            </th>
          </tr>
        </thead>
        <tbody style={{ fontVariantNumeric: 'tabular-nums' }}>
          {countedDays(points)
            .reverse()
            .map((point) => (
              <tr key={point.date}>
                <th scope="row" style={{ fontWeight: 400 }}>
                  {dayText(point.date)}
                </th>
                <td style={right}>{point.good}</td>
                <td style={right}>{point.decent}</td>
                <td style={right}>{point.bad}</td>
                <td style={right}>{point.averageScore === null ? '—' : point.averageScore.toFixed(1)}</td>
              </tr>
            ))}
        </tbody>
      </DataTable>
    </div>
  );
}

/** The deploys the days name that were made within them (each day names the newest before its end). */
export function deploysOf(points: readonly HealthPoint[]): DeployMark[] {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return [];
  const from = new Date(`${first.date}T00:00:00Z`);
  const to = new Date(Date.parse(`${last.date}T00:00:00Z`) + 86_400_000 - 1);
  return marksWithin(
    points.flatMap((point) => (point.deploy ? [point.deploy] : [])),
    from,
    to,
  );
}

export function HealthOverTime({ project }: { project: string }) {
  const [days, setDays] = useState<HealthDays>(30);
  const [tableShown, setTableShown] = useState(false);
  const query = useQuery(portfolioQueries.days(project, days));
  const scheme = useChartScheme();
  const deploys = query.data ? deploysOf(query.data) : [];

  let body;
  if (query.isError && query.data === undefined) {
    body = (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        title="The health over time could not be loaded"
      />
    );
  } else if (query.data === undefined) {
    body = CHART_LOADING;
  } else if (countedDays(query.data).length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        No report of this project was analysed in the last {days} days.
      </Text>
    );
  } else {
    body = (
      <div aria-busy={query.isPlaceholderData}>
        <LoadingBar loading={query.isPlaceholderData} what="health over time" />
        <Suspense fallback={CHART_LOADING}>
          <HealthChart points={query.data} days={days} scheme={scheme} deploys={deploys} />
        </Suspense>
        <DeployList marks={deploys} />
        <Button variant="subtle" size="compact-sm" mt="xs" aria-expanded={tableShown} onClick={() => setTableShown((shown) => !shown)}>
          {tableShown ? 'Hide the days' : 'Show the days'}
        </Button>
        {tableShown && <DaysTable points={query.data} />}
      </div>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="project-health-days">
      <Group justify="space-between" align="center" mb="sm" gap="sm">
        <Title order={2} size="h4" id="project-health-days">
          Health over time
        </Title>
        <SegmentedControl
          size="xs"
          aria-label="Days shown"
          data={DAY_OPTIONS}
          value={String(days)}
          onChange={(value) => setDays(Number(value) as HealthDays)}
        />
      </Group>
      {body}
      <Text size="xs" c="dimmed" mt={4}>
        Each day counts the project’s reports as their latest analysis by the end of that day left them (UTC): Good, Decent
        and Bad stacked, their average score as a line on the right axis.
      </Text>
    </Paper>
  );
}
