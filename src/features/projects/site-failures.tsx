// What one project's newest reports say about the whole site: the checks failing across its pages,
// and its pages with the lowest scores.
import { Anchor, Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { projectHealthQueries } from '@/api/project-health';
import { useCheckTreatment } from '@/api/problems';
import { CHECK_KEYS } from '@/contract/values';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import { rankSiteFailures, worstPages } from '@/checks/site-failures';
import type { PageRef, SiteFailure } from '@/checks/site-failures';

const FAILURES_SHOWN = 5;
const PAGES_SHOWN = 3;
const WORST_SHOWN = 5;

function pages(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'page' : 'pages'}`;
}

function PageLinks({ refs, label }: { refs: PageRef[]; label: string }) {
  const [all, setAll] = useState(false);
  const shown = all ? refs : refs.slice(0, PAGES_SHOWN);
  return (
    <div>
      <List size="sm" spacing={2} aria-label={label}>
        {shown.map((page) => (
          <List.Item key={page.id} style={{ overflowWrap: 'anywhere' }}>
            <Anchor component={Link} to={`/reports/${page.id}`} size="sm" className="tap-target">
              {page.url}
            </Anchor>
          </List.Item>
        ))}
      </List>
      {refs.length > PAGES_SHOWN && (
        <Button variant="subtle" size="compact-sm" mt={4} onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show fewer pages' : `Show all ${pages(refs.length)}`}
        </Button>
      )}
    </div>
  );
}

const IMPORTANCE_COLORS = { high: 'red', medium: 'orange', low: 'gray' } as const;

/** The reports list of every page of the project failing the check (where the deployment filters so). */
function failingListHref(project: string, check: string): string {
  return `/reports?${new URLSearchParams({ project, failing: check }).toString()}`;
}

function FailureItem({ failure, project }: { failure: SiteFailure; project: string }) {
  const summary = `fails on ${failure.failing.length.toLocaleString('en')} of ${pages(failure.checked)}`;
  return (
    <li>
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Title order={3} size="h5">
            {failure.name}{' '}
            <Text span fw={400}>
              — {summary}
            </Text>
          </Title>
          {failure.importance !== null && (
            <Badge
              variant="light"
              color={IMPORTANCE_COLORS[failure.importance]}
              radius="sm"
              tt="none"
              c="var(--mantine-color-text)"
            >
              {failure.importance.charAt(0).toUpperCase() + failure.importance.slice(1)} importance
            </Badge>
          )}
        </Group>
        {failure.advice !== null && <Text size="sm">{failure.advice}</Text>}
        <PageLinks refs={failure.failing} label={`Pages where ${failure.name} fails`} />
        {(CHECK_KEYS as readonly string[]).includes(failure.key) && (
          // Every page of the project failing it, as the reports list: select, refresh, export (picked
          // in the browser where the deployment cannot filter by a failing check).
          <Anchor
            component={Link}
            to={failingListHref(project, failure.key)}
            size="sm"
            className="tap-target"
            w="fit-content"
          >
            Open the pages failing {failure.name} in the reports list
          </Anchor>
        )}
      </Stack>
    </li>
  );
}

export interface ProjectSiteProps {
  project: string;
  /** The project's report count, when known: says whether the newest reports were all of them. */
  total: number | undefined;
}

/** Failing across the site, and the lowest scores, from the project's newest reports. */
export function ProjectSite({ project, total }: ProjectSiteProps) {
  const { data, error, isPending, isError, isFetching, refetch } = useQuery(
    projectHealthQueries.newestReports(project),
  );
  const ranked = useMemo(() => (data ? rankSiteFailures(data) : []), [data]);
  // The checks the project ignores (the Problems extension) are left out, counted apart.
  const { ignored } = useCheckTreatment(project).treatment;
  const failures = ranked.filter((failure) => !ignored.has(failure.key));
  const ignoredFailures = ranked.filter((failure) => ignored.has(failure.key));
  const worst = useMemo(() => (data ? worstPages(data, WORST_SHOWN) : []), [data]);
  const [allFailures, setAllFailures] = useState(false);

  let failing;
  let lowest;
  if (isPending) {
    failing = <LoadingRows rows={3} height={56} label="Loading the failing checks" />;
    lowest = <LoadingRows rows={3} height={24} label="Loading the lowest scores" />;
  } else if (isError) {
    failing = (
      <ErrorState
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
        title="The project's reports could not be loaded"
      />
    );
    lowest = (
      <Text size="sm" c="dimmed">
        Not loaded: see Failing across the site.
      </Text>
    );
  } else {
    const used = data.length;
    const shown = allFailures ? failures : failures.slice(0, FAILURES_SHOWN);
    failing = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {total !== undefined && used < total
            ? `From the newest ${used.toLocaleString('en')} of ${total.toLocaleString('en')} reports.`
            : `From all ${pages(used)} of the project.`}{' '}
          Most important first, then by the share of pages.
        </Text>
        <Anchor
          component={Link}
          to={`/problems?${new URLSearchParams({ project }).toString()}`}
          size="sm"
          className="tap-target"
          w="fit-content"
        >
          See this project’s problems
        </Anchor>
        {failures.length === 0 ? (
          <Text>
            {ignoredFailures.length === 0
              ? 'No check fails on any of these pages.'
              : 'No check the project counts fails on any of these pages.'}
          </Text>
        ) : (
          <Stack component="ol" gap="lg" m={0} p={0} style={{ listStyle: 'none' }}>
            {shown.map((failure) => (
              <FailureItem key={failure.key} failure={failure} project={project} />
            ))}
          </Stack>
        )}
        {ignoredFailures.length > 0 && (
          <Text size="sm" c="dimmed">
            {ignoredFailures.length.toLocaleString('en')} ignored:{' '}
            {ignoredFailures.map((failure) => failure.name).join(', ')}.
          </Text>
        )}
        {failures.length > FAILURES_SHOWN && (
          <Button variant="default" size="xs" w="fit-content" onClick={() => setAllFailures(!allFailures)}>
            {allFailures ? 'Show the first checks only' : `Show all ${failures.length} failing checks`}
          </Button>
        )}
      </Stack>
    );
    lowest =
      worst.length === 0 ? (
        <Text size="sm" c="dimmed">
          The service gives no scores for these reports.
        </Text>
      ) : (
        <List component="ol" type="ordered" size="sm" spacing={4}>
          {worst.map((page) => (
            <List.Item key={page.id} style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={700} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {page.score}
              </Text>{' '}
              <Anchor component={Link} to={`/reports/${page.id}`} size="sm" className="tap-target">
                {page.url}
              </Anchor>
            </List.Item>
          ))}
        </List>
      );
  }

  return (
    <>
      <section aria-labelledby="failing-across-site">
        <Title order={2} size="h3" id="failing-across-site" mb="xs">
          Failing across the site
        </Title>
        {failing}
      </section>
      <section aria-labelledby="lowest-scores">
        <Title order={2} size="h3" id="lowest-scores" mb="xs">
          Lowest scores
        </Title>
        {lowest}
      </section>
    </>
  );
}
