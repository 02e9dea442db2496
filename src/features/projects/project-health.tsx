// A project's health: how many of its reports are Good, Decent, Bad or without a result, as numbers
// and as one bar. The projects table loads this after its rows are on screen.
import { Box, Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { RESULTS, RESULT_LABELS } from '@/contract/values';
import { projectHealthQueries } from '@/api/project-health';
import type { ProjectHealth } from '@/api/project-health';
import type { Project } from '@/contract/domain';
import { HealthBar as CountsBar, healthWords } from '@/components/health-bar';
import { HealthPending } from './health-pending';

/** "9 Good, 2 Decent, 1 Bad, 1 without a result, of 13 reports": what the bar shows, in words. */
export function healthText(health: ProjectHealth): string {
  if (health.counts === null) return `Health unknown: the service sends no result for these reports.`;
  return healthWords({ total: health.total, counts: health.counts, unknown: health.unknown });
}

/** The bar of a project's health, where it can be told. */
export function HealthBar({ health, size = 'md' }: { health: ProjectHealth; size?: 'md' | 'xl' }) {
  if (health.counts === null) return null;
  return <CountsBar health={{ total: health.total, counts: health.counts, unknown: health.unknown }} size={size} />;
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
