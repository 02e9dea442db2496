// The words and link of "Changed since last run" (last-change.tsx): the newest run against the last
// run that differs from it, History's default comparison, linked to that comparison. It reads
// History's own runs query: one request between them.
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { runQueries } from '@/api/runs';
import type { Report, Run } from '@/contract/domain';
import { RESULT_LABELS } from '@/contract/values';
import { formatNumber } from '@/checks/evidence-format';
import { COMPARISON_ANCHOR } from '@/lib/compare-runs';
import { formatMoment } from '@/lib/dates';
import { failingMoves, lastDifferentRun, whatChanged } from '@/lib/what-changed';

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const dayYearFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** "10:05" today, "3 Nov" this year, "3 Nov 2025" before. */
function sinceText(date: Date | null, now: Date): string {
  if (date === null) return 'an earlier run';
  if (date.toDateString() === now.toDateString()) return timeFormat.format(date);
  return (date.getFullYear() === now.getFullYear() ? dayFormat : dayYearFormat).format(date);
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The line for runs newest first: "Score 72 → 64 since 3 Nov (2 checks newly failing)", or "No change
 * in the last 5 runs"; null for fewer than two runs.
 */
function lastChangeText(runs: readonly Run[], now: Date): string | null {
  const newest = runs[0];
  if (!newest || runs.length < 2) return null;
  const index = lastDifferentRun(runs);
  if (index === null) return `No change in the last ${runs.length} runs`;
  const before = runs[index]!;
  const change = whatChanged(before, newest);
  const { newlyFailing, noLongerFailing } = failingMoves(change);
  // The worse news if both: the line is short, History has the rest.
  const checks =
    newlyFailing > 0
      ? plural(newlyFailing, 'check newly failing', 'checks newly failing')
      : noLongerFailing > 0
        ? plural(noLongerFailing, 'check no longer failing', 'checks no longer failing')
        : null;
  const since = sinceText(before.generatedAt, now);
  const { score, result } = change;
  const moved =
    score.before !== null && score.after !== null && score.before !== score.after
      ? `Score ${formatNumber(score.before)} → ${formatNumber(score.after)}`
      : result.changed && result.before !== null && result.after !== null
        ? `Result ${RESULT_LABELS[result.before]} → ${RESULT_LABELS[result.after]}`
        : null;
  if (moved) return `${moved} since ${since}${checks ? ` (${checks})` : ''}`;
  return `Since ${since}: ${checks ?? 'changed'}`;
}

/** The line's link, once the runs are in; nothing before, or for fewer than two runs. */
export default function LastChangeLink({ report }: { report: Report }) {
  const runs = useQuery(runQueries.list(report.id)).data?.items;
  const { search } = useLocation();
  // Until the history has caught up with a refresh, its newest run is not this report's analysis.
  const newest = runs?.[0]?.generatedAt?.getTime();
  const current = report.generatedAt === null || newest === report.generatedAt.getTime();
  const text = runs && current ? lastChangeText(runs, new Date()) : null;
  if (!runs || !text) return null;
  const before = runs[lastDifferentRun(runs) ?? runs.length - 1]?.generatedAt;
  return (
    <Anchor
      component={Link}
      to={{ search, hash: COMPARISON_ANCHOR }}
      inherit
      title={before ? `Compared with the run of ${formatMoment(before)}: see History` : undefined}
    >
      {text}
    </Anchor>
  );
}
