// The overview's week: the checks newly failing and fixed in 7 days, and the biggest score drops,
// each a link. Apart from the page (with the checks' names, which most first visits do not need), so
// that the overview's first visit is its totals and table; this follows them.
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Drop, Overview, WeekProblem } from '@/api/portfolio';
import { checkName } from '@/checks/check-info';
import { plural } from '@/lib/plural';
import classes from './overview-page.module.css';

function WeekList({ title, id, empty, children }: { title: string; id: string; empty: string; children: ReactNode[] }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="xs">
        {title}
      </Title>
      {children.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack component="ol" gap={6} m={0} pl="md">
          {children}
        </Stack>
      )}
    </Paper>
  );
}

function ProblemItem({ problem, kind }: { problem: WeekProblem; kind: 'new' | 'fixed' }) {
  const pages = kind === 'new' ? problem.new7d : problem.fixed7d;
  return (
    <li>
      <Anchor component={Link} to={`/reports?failing=${encodeURIComponent(problem.check)}`} size="sm">
        {checkName(problem.check)}
      </Anchor>
      <Text span size="sm" c="dimmed">
        {' '}
        {kind === 'new' ? 'newly failing on ' : 'fixed on '}
        {plural(pages, 'page', 'pages')}
      </Text>
    </li>
  );
}

function DropItem({ drop }: { drop: Drop }) {
  return (
    <li>
      <Anchor component={Link} to={`/reports/${drop.reportId}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {drop.url}
      </Anchor>
      <Text span size="sm" c="dimmed">
        {' '}
        {drop.before} → {drop.after}
      </Text>
    </li>
  );
}

export default function Week({ overview }: { overview: Overview }) {
  const { newProblems, fixedProblems, biggestDrops } = overview.week;
  return (
    <section aria-labelledby="overview-week">
      <Title order={2} size="h4" id="overview-week" mb="xs">
        This week
      </Title>
      <div className={classes.week}>
        <WeekList title="New problems" id="week-new" empty="No check started failing this week.">
          {newProblems.map((problem) => (
            <ProblemItem key={problem.check} problem={problem} kind="new" />
          ))}
        </WeekList>
        <WeekList title="Fixed problems" id="week-fixed" empty="Nothing was fixed this week.">
          {fixedProblems.map((problem) => (
            <ProblemItem key={problem.check} problem={problem} kind="fixed" />
          ))}
        </WeekList>
        <WeekList title="Biggest drops" id="week-drops" empty="No score dropped this week.">
          {biggestDrops.map((drop) => (
            <DropItem key={drop.reportId} drop={drop} />
          ))}
        </WeekList>
      </div>
    </section>
  );
}

