// A project's health: how many of its reports are Good, Decent, Bad or without a result, as numbers
// and as one bar. The projects table loads this after its rows are on screen.
import '@mantine/core/styles/Progress.css';
import { Box, Button, Group, Progress, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { RESULTS, RESULT_LABELS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { projectHealthQueries } from '@/api/project-health';
import type { ProjectHealth } from '@/api/project-health';
import type { Project } from '@/contract/domain';
import { HealthPending } from './health-pending';

const COLORS: Record<Result | 'unknown', string> = {
  good: 'teal',
  decent: 'orange',
  bad: 'red',
  unknown: 'gray',
};

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : `${noun}s`}`;
}

/** "9 Good, 2 Decent, 1 Bad, 1 without a result, of 13 reports": what the bar shows, in words. */
export function healthText(health: ProjectHealth): string {
  if (health.counts === null) return `Health unknown: the service sends no result for these reports.`;
  const counts = health.counts;
  const parts = RESULTS.map((result) => `${counts[result].toLocaleString('en')} ${RESULT_LABELS[result]}`);
  if (health.unknown > 0) parts.push(`${health.unknown.toLocaleString('en')} without a result`);
  return `${parts.join(', ')}, of ${plural(health.total, 'report')}`;
}

/** The bar alone; its words are its accessible name (the sections themselves say nothing). */
export function HealthBar({ health, size = 'md' }: { health: ProjectHealth; size?: 'md' | 'xl' }) {
  const counts = health.counts;
  if (counts === null || health.total === 0) return null;
  const share = (count: number) => (count / health.total) * 100;
  return (
    <Box role="img" aria-label={healthText(health)}>
      <Progress.Root size={size} aria-hidden>
        {RESULTS.map((result) => (
          <Progress.Section
            key={result}
            value={share(counts[result])}
            color={COLORS[result]}
            withAria={false}
          />
        ))}
        <Progress.Section value={share(health.unknown)} color={COLORS.unknown} withAria={false} />
      </Progress.Root>
    </Box>
  );
}

/** A table cell's health: the bar and the counts, loaded through the shared scheduler and kept 5 minutes. */
export function ProjectHealthCell({ project }: { project: Project }) {
  const { data, isPending, isError, isFetching, refetch } = useQuery(
    projectHealthQueries.health(project.name, project.reports),
  );
  if (isPending) return <HealthPending />;
  if (isError) {
    return (
      <Group gap={4} wrap="nowrap">
        <Text size="xs" c="red">
          Not loaded
        </Text>
        <Button
          variant="subtle"
          size="compact-xs"
          onClick={() => void refetch()}
          loading={isFetching}
          aria-label={`Retry the health of ${project.name}`}
        >
          Retry
        </Button>
      </Group>
    );
  }
  if (data.counts === null) {
    return (
      <Text size="xs" c="dimmed">
        Unknown
      </Text>
    );
  }
  const counts = data.counts;
  return (
    <Box miw="8rem">
      <HealthBar health={data} />
      {/* The bar's words are its name; the short form under it is for the eye. */}
      <Text size="xs" c="dimmed" mt={4} aria-hidden style={{ whiteSpace: 'nowrap' }}>
        {RESULTS.map((result) => `${counts[result]} ${RESULT_LABELS[result].toLowerCase()}`).join(' · ')}
        {data.unknown > 0 && ` · ${data.unknown} unknown`}
      </Text>
    </Box>
  );
}
