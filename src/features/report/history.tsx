// The report's history, where the server keeps one (the reference server's runs): the score over
// time, the runs, and what changed between any two of them. Unless asked otherwise, the newest run
// against the last run that differs from it: a page analysed again unchanged must not hide the drop
// one run before with "Nothing changed".
// Loaded only for a report with more than one run (the chart's library with it).
import '@mantine/core/styles/Input.css';
import {
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { runQueries } from '@/api/runs';
import { useCapabilities } from '@/api/capabilities';
import { runLogQueries } from '@/api/run-log';
import type { Report, Run } from '@/contract/domain';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import { ResultBadge } from '@/components/result-badge';
import { formatNumber } from '@/checks/evidence-format';
import { COMPARE_PARAM, COMPARISON_ANCHOR, parseCompare } from '@/lib/compare-runs';
import { ShareButton } from '@/components/share-button';
import { formatMoment } from '@/lib/dates';
import { lastDifferentRun } from '@/lib/what-changed';
import ScoreChart from './score-chart';
import classes from './report-page.module.css';
import { WhatChangedSummary } from './what-changed';
import { useChartScheme } from '@/components/use-printing';

/** Rows of the runs table shown before "Show all runs". */
const FIRST_ROWS = 10;

/** Two runs closer than this (a page analysed twice in a row) make a history folded at first. */
const SECONDS_APART = 60;

/** Seconds between the only two runs, when that is all there is and they ran moments apart. */
function momentsApart(runs: Run[]): number | null {
  const [newer, older] = runs;
  if (runs.length !== 2 || !newer?.generatedAt || !older?.generatedAt) return null;
  const seconds = Math.round(Math.abs(newer.generatedAt.getTime() - older.generatedAt.getTime()) / 1000);
  return seconds < SECONDS_APART ? seconds : null;
}

function runDate(run: Run): string {
  return run.generatedAt === null ? 'Unknown date' : formatMoment(run.generatedAt);
}

function scoreText(run: Run): string {
  return run.score === null ? 'no score' : `score ${formatNumber(run.score)}`;
}

/** Which two runs are compared: positions in the list, newest first. */
interface Pair {
  before: number;
  after: number;
}

function CompareForm({
  runs,
  pair,
  onCompare,
}: {
  runs: Run[];
  pair: Pair;
  onCompare: (pair: Pair) => void;
}) {
  const [from, setFrom] = useState(String(pair.before));
  const [to, setTo] = useState(String(pair.after));
  const same = from === to;
  const options = runs.map((run, index) => ({
    value: String(index),
    label: `${runDate(run)} · ${scoreText(run)}`,
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (same) return;
    // The older run is always "before", whichever field holds it.
    const [a, b] = [Number(from), Number(to)];
    onCompare({ before: Math.max(a, b), after: Math.min(a, b) });
  };
  return (
    <form onSubmit={submit} aria-label="Compare two runs" noValidate>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label="From run"
          data={options}
          value={from}
          onChange={(event) => setFrom(event.currentTarget.value)}
          style={{ flex: '1 1 14rem' }}
        />
        <NativeSelect
          label="To run"
          data={options}
          value={to}
          onChange={(event) => setTo(event.currentTarget.value)}
          error={same ? 'Choose two different runs.' : undefined}
          style={{ flex: '1 1 14rem' }}
        />
        <Button type="submit" variant="default" disabled={same}>
          Compare
        </Button>
      </Group>
    </form>
  );
}

function RunsTable({ runs, total }: { runs: Run[]; total: number }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? runs : runs.slice(0, FIRST_ROWS);
  return (
    <Stack gap="xs">
      <div className={classes.runsScroll}>
        <table className={classes.runs} aria-label="Runs, newest first">
          <thead>
            <tr>
              <th scope="col">Date generated</th>
              <th scope="col" className={classes.numeric}>
                Score
              </th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((run, index) => (
              <tr key={index}>
                <td>
                  {run.generatedAt === null ? (
                    'Unknown date'
                  ) : (
                    <time dateTime={run.generatedAt.toISOString()}>{runDate(run)}</time>
                  )}
                </td>
                <td className={classes.numeric}>{run.score === null ? '—' : formatNumber(run.score)}</td>
                <td>
                  <ResultBadge result={run.result} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {runs.length > FIRST_ROWS && (
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed">
            {showAll ? `All ${runs.length}` : `${FIRST_ROWS} of ${runs.length}`} runs shown
            {total > runs.length ? ` (the newest ${runs.length} of ${total} kept)` : ''}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={() => setShowAll((all) => !all)}>
            {showAll ? 'Show fewer runs' : `Show all ${runs.length} runs`}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** The runs the address names (`?compare=<before>..<after>`, by generated_at), as positions; null when either is not kept. */
function linkedPair(runs: Run[], compare: string | null): Pair | null {
  const asked = parseCompare(compare);
  if (!asked) return null;
  const at = (date: Date) => runs.findIndex((run) => run.generatedAt?.getTime() === date.getTime());
  const pair = { before: at(asked.before), after: at(asked.after) };
  return pair.before >= 0 && pair.after >= 0 ? pair : null;
}

/** The comparison shown unless another is asked for: the newest run against the last that differs (else the oldest kept). */
function defaultPair(runs: Run[]): { pair: Pair; differs: boolean } {
  const before = lastDifferentRun(runs);
  return before === null ? { pair: { before: runs.length - 1, after: 0 }, differs: false } : { pair: { before, after: 0 }, differs: true };
}

/** Which two runs the default comparison holds, and why those. */
function defaultText(runs: Run[], pair: Pair, differs: boolean): string {
  const [before, after] = [runDate(runs[pair.before]!), runDate(runs[pair.after]!)];
  if (!differs)
    return `No change in the last ${runs.length} runs: the score and the failing checks are the same from the run of ${before} to the run of ${after}.`;
  if (pair.before === 1) return `From the run of ${before} to the run of ${after} (the newest two).`;
  return `From the run of ${before} to the run of ${after}: the last change (the newest ${pair.before} runs came out the same).`;
}

function Comparison({
  reportId,
  runs,
  focus,
  linked,
}: {
  reportId: number;
  runs: Run[];
  /** Take the reader to what changed (after a refresh here, or from a link to the comparison). */
  focus: boolean;
  /** The two runs the address asks for: compared first, and the reader taken there. */
  linked: Pair | null;
}) {
  const [initial] = useState(() => defaultPair(runs));
  const [pair, setPair] = useState<Pair>(linked ?? initial.pair);
  const [asked, setAsked] = useState(linked !== null);
  const before = runs[pair.before];
  const after = runs[pair.after];
  if (!before || !after) return null;
  return (
    <Stack gap="md" id={COMPARISON_ANCHOR} className={classes.anchored}>
      <CompareForm
        runs={runs}
        pair={pair}
        onCompare={(next) => {
          setPair(next);
          setAsked(true);
        }}
      />
      {before.generatedAt && after.generatedAt && (
        <ShareButton
          target={`compare:${reportId}:${before.generatedAt.toISOString()}:${after.generatedAt.toISOString()}`}
          what="this comparison"
          size="xs"
          style={{ alignSelf: 'flex-start' }}
        />
      )}
      <WhatChangedSummary
        before={before}
        after={after}
        headingOrder={3}
        withBorder={false}
        autoFocus={asked || focus}
        description={
          // "No change" is the news itself; otherwise the line says which two runs these are.
          <Text size="sm" c={asked || initial.differs ? 'dimmed' : undefined}>
            {asked ? `From the run of ${runDate(before)} to the run of ${runDate(after)}.` : defaultText(runs, pair, initial.differs)}
          </Text>
        }
      />
    </Stack>
  );
}

export interface ReportHistoryProps {
  report: Report;
  /** The report was just analysed again here: take the reader to what changed once it is in. */
  refreshed: boolean;
}

/** The History section; shown for a report with more than one run. */
export function ReportHistory({ report, refreshed }: ReportHistoryProps) {
  const query = useQuery(runQueries.list(report.id));
  // The project's deploys, marked on the chart (where the server has them).
  const withDeploys = useCapabilities().capabilities?.deploys === true;
  const deploys = useQuery({ ...runLogQueries.deploys(report.project ?? ''), enabled: withDeploys && Boolean(report.project) });
  const scheme = useChartScheme();
  const runs = query.data?.items;
  const compare = useSearchParams()[0].get(COMPARE_PARAM);
  // Arrived by the report header's link to the comparison.
  const toComparison = useLocation().hash === `#${COMPARISON_ANCHOR}`;
  const linked = runs && compare !== null ? linkedPair(runs, compare) : null;
  // The newest run is this very analysis once the history has caught up with a refresh.
  const newest = runs?.[0]?.generatedAt?.getTime() ?? null;
  const current = newest !== null && newest === report.generatedAt?.getTime();
  const [unfolded, setUnfolded] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // Not after a refresh here, nor when the address names two runs: then what changed is what the
  // reader came for.
  const apart = runs && !refreshed && !unfolded && !toComparison && compare === null ? momentsApart(runs) : null;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="history">
      <Stack gap="md">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={2} fz="h3" id="history" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
            History
          </Title>
          <Text size="sm" c="dimmed">
            {report.runs} runs kept
          </Text>
        </Group>
        {runs ? (
          apart !== null ? (
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                Two runs {apart} {apart === 1 ? 'second' : 'seconds'} apart: {scoreText(runs[1]!)}, then{' '}
                {scoreText(runs[0]!)}.
              </Text>
              <Button
                variant="default"
                size="xs"
                aria-expanded={false}
                onClick={() => {
                  setUnfolded(true);
                  // The button goes: the focus stays in the section, on its heading.
                  heading.current?.focus();
                }}
              >
                Show history
              </Button>
            </Group>
          ) : runs.length > 1 ? (
            <>
              <ScoreChart runs={runs} scheme={scheme} deploys={deploys.data?.items ?? []} />
              {compare !== null && linked === null && (
                <Text size="sm" role="status">
                  The two runs this address compares are not among the runs kept.
                </Text>
              )}
              {/* A new newest run, another pair in the address, or the header's link starts a new comparison. */}
              <Comparison
                key={`${newest ?? 'none'} ${compare ?? ''} ${toComparison}`}
                reportId={report.id}
                runs={runs}
                focus={(refreshed && current) || toComparison}
                linked={linked}
              />
              <RunsTable runs={runs} total={query.data?.meta.total ?? runs.length} />
            </>
          ) : (
            <Text size="sm">Only one run is kept so far: refresh the results to start a history.</Text>
          )
        ) : query.isError ? (
          <ErrorState
            error={query.error}
            title="The history could not be loaded"
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : (
          <LoadingRows rows={4} label="Loading the history" />
        )}
      </Stack>
    </Paper>
  );
}
