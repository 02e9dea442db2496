import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/DataList.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Switch.css';
import {
  Anchor,
  Badge,
  Box,
  Button,
  DataList,
  Group,
  List,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { Suspense, lazy, useDeferredValue, useEffect, useState } from 'react';
import type { MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import type { Importance } from '@/contract/values';
import type { Check } from '@/contract/domain';
import type { CheckSetting } from '@/api/problems';
import { EmptyState } from '@/components/empty-state';
import { checkAdvice, checkName } from '@/checks/check-info';
import { formatEvidence, formatNumber } from '@/checks/evidence-format';
import { describeProblems } from '@/checks/problem-sentences';
import type { Shown } from '@/checks/evidence-format';
import { checkAnchor, fixFirstAnchor, groupResults } from '@/checks/group-results';
import classes from './report-page.module.css';

/** A project's check settings by check key (the Problems extension), for the controls that change them. */
export interface ProjectCheckSettings {
  project: string;
  byCheck: ReadonlyMap<string, CheckSetting>;
}

// Only where the deployment keeps check settings: loaded with the first of them.
const CheckSettingControls = lazy(() =>
  import('@/components/check-setting-controls').then((m) => ({ default: m.CheckSettingControls })),
);

export const IMPORTANCE_TEXT: Record<Importance, string> = {
  high: 'High importance',
  medium: 'Medium importance',
  low: 'Low importance',
};

/** Pass/fail as icon plus word, so it reads without colour. */
export function CheckStatus({ passed }: { passed: boolean }) {
  const Icon = passed ? IconCircleCheck : IconCircleX;
  return (
    <Badge
      // Shade 9: white text on shade 8 of teal stays below 4.5:1.
      color={passed ? 'teal.9' : 'red.9'}
      variant="filled"
      tt="none"
      radius="sm"
      leftSection={<Icon size={14} aria-hidden />}
    >
      {passed ? 'Passed' : 'Failed'}
    </Badge>
  );
}

function ShownValue({ shown }: { shown: Shown }) {
  if (shown.kind === 'text') {
    return (
      <Text span inherit ff={shown.code ? 'monospace' : undefined} style={{ overflowWrap: 'anywhere' }}>
        {shown.text}
      </Text>
    );
  }
  if (shown.kind === 'list') {
    const only = shown.items.length === 1 && shown.more === 0 ? shown.items[0] : undefined;
    if (only) return <ShownValue shown={only} />;
    if (shown.inline) {
      return (
        <Text span inherit style={{ overflowWrap: 'anywhere' }}>
          {shown.items.map((item) => (item.kind === 'text' ? item.text : '')).join(', ')}
          {shown.more > 0 && ` and ${formatNumber(shown.more)} more`}
        </Text>
      );
    }
    return (
      <List size="sm" spacing={2} withPadding={false} styles={{ root: { paddingInlineStart: '1.1em' } }}>
        {shown.items.map((item, index) => (
          <List.Item key={index}>
            <ShownValue shown={item} />
          </List.Item>
        ))}
        {shown.more > 0 && (
          <List.Item>
            <Text span inherit c="dimmed">
              and {formatNumber(shown.more)} more
            </Text>
          </List.Item>
        )}
      </List>
    );
  }
  return (
    <DataList
      size="sm"
      gap={4}
      labelWidth="8rem"
      styles={{ item: { flexWrap: 'wrap', rowGap: 0 }, itemValue: { minWidth: 0, flex: '1 1 9rem' } }}
    >
      {shown.rows.map((row, index) => (
        <DataList.Item key={index}>
          <DataList.ItemLabel>{row.label}</DataList.ItemLabel>
          <DataList.ItemValue>
            <ShownValue shown={row.value} />
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}

/** One check: status, name, importance; for a failure what went wrong and how to fix it; then the evidence. */
export function CheckItem({
  checkKey,
  check,
  collapsed = false,
  adviceAbove = false,
  settings = null,
}: {
  checkKey: string;
  check: Check;
  collapsed?: boolean;
  /** Fix first shows this check's advice: a link to it, not the advice again. */
  adviceAbove?: boolean;
  /** The project's check settings, where the deployment keeps them: a failed or set check gets its controls. */
  settings?: ProjectCheckSettings | null;
}) {
  const name = checkName(checkKey);
  const problems = check.passed ? [] : describeProblems(checkKey, check.errors);
  const advice = check.passed ? null : checkAdvice(checkKey);
  const toAdvice = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = document.getElementById(fixFirstAnchor(checkKey));
    if (!target) return;
    event.preventDefault();
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'center' });
  };
  return (
    // The place a link to the check (Fix first, a shared address) leads to, and focuses. A collapsed
    // passed check stays in the page, hidden, so that printing shows every check.
    <Box
      component="li"
      py="sm"
      id={checkAnchor(checkKey)}
      tabIndex={-1}
      className={classes.check}
      data-collapsed={collapsed || undefined}
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <CheckStatus passed={check.passed} />
          <Title order={4} fz="md" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          <Badge variant="default" tt="none" radius="sm" fw={500}>
            {check.importance ? IMPORTANCE_TEXT[check.importance] : 'Importance not given'}
          </Badge>
        </Group>
        {problems.length > 0 && (
          <List size="sm" spacing={2} withPadding={false} styles={{ root: { paddingInlineStart: '1.1em' } }}>
            {problems.map((problem, index) => (
              <List.Item key={index}>{problem}</List.Item>
            ))}
          </List>
        )}
        {advice && (
          <Text size="sm">
            <Text span inherit fw={600}>
              How to fix:{' '}
            </Text>
            {adviceAbove ? (
              <>
                see{' '}
                <Anchor
                  href={`#${fixFirstAnchor(checkKey)}`}
                  onClick={toAdvice}
                  inherit
                  className="tap-target"
                >
                  {name} in Fix first
                </Anchor>
                .
              </>
            ) : (
              advice
            )}
          </Text>
        )}
        <ShownValue shown={formatEvidence(checkKey, check.value)} />
        {settings && (!check.passed || settings.byCheck.has(checkKey)) && (
          <Suspense fallback={null}>
            <CheckSettingControls
              check={checkKey}
              project={settings.project}
              setting={settings.byCheck.get(checkKey)}
            />
          </Suspense>
        )}
      </Stack>
    </Box>
  );
}

/**
 * The results by category, each with its passed/total count; failed and important checks first.
 * Dozens of checks take a few hundred milliseconds to render on a slow machine, so they come after
 * the rest of the page, in a render React interrupts for input: the page never stops responding.
 */
export function ReportResults({
  results,
  adviceAbove,
  settings = null,
}: {
  results: Record<string, Check>;
  /** The checks whose advice Fix first shows. */
  adviceAbove: ReadonlySet<string>;
  settings?: ProjectCheckSettings | null;
}) {
  const shown = useDeferredValue<Record<string, Check> | null>(results, null);
  return shown === null ? null : <Results results={shown} adviceAbove={adviceAbove} settings={settings} />;
}

const SHOW_PASSED_KEY = 'report-show-passed';

function Results({
  results,
  adviceAbove,
  settings,
}: {
  results: Record<string, Check>;
  adviceAbove: ReadonlySet<string>;
  settings: ProjectCheckSettings | null;
}) {
  const groups = groupResults(results);
  // Remembered on this device: someone who wants every check sees them on every report.
  const [showPassed, setShowPassed] = useLocalStorage({ key: SHOW_PASSED_KEY, defaultValue: false });
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const { hash } = useLocation();
  // A link to one check (Fix first, or a shared address): its category opens, and the focus goes there.
  const linked = hash.startsWith('#check-') ? hash.slice(1) : null;
  const linkedCategory = groups.find((group) =>
    group.checks.some(({ key }) => checkAnchor(key) === linked),
  )?.category;
  useEffect(() => {
    if (linkedCategory === undefined || linked === null) return;
    const target = document.getElementById(linked);
    if (target && document.activeElement !== target) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'start' });
    }
  }, [linked, linkedCategory]);
  if (groups.length === 0) {
    return (
      <section aria-labelledby="results-heading">
        <Title order={2} id="results-heading" mb="sm">
          Results
        </Title>
        <EmptyState title="No results" description="The service sent no check results for this report." />
      </section>
    );
  }
  const passed = groups.reduce((sum, group) => sum + group.passed, 0);
  const total = groups.reduce((sum, group) => sum + group.total, 0);
  return (
    <section aria-labelledby="results-heading">
      <Group justify="space-between" align="baseline" mb="sm" gap="xs">
        <Title order={2} id="results-heading">
          Results
        </Title>
        <Group gap="md">
          <Text c="dimmed" size="sm">
            {formatNumber(passed)} of {formatNumber(total)} checks passed
          </Text>
          <Switch
            label="Show passed checks"
            checked={showPassed}
            onChange={(event) => setShowPassed(event.currentTarget.checked)}
            className={classes.noPrint}
          />
        </Group>
      </Group>
      <Stack gap="md">
        {groups.map((group) => {
          const headingId = `results-${group.category}`;
          const expanded = showPassed || opened.has(group.category) || group.category === linkedCategory;
          const hidden = expanded ? 0 : group.passed;
          return (
            <Paper
              key={group.category}
              withBorder
              radius="md"
              px={{ base: 'sm', sm: 'md' }}
              pt="sm"
              pb={4}
              component="section"
              aria-labelledby={headingId}
            >
              <Group justify="space-between" align="baseline" gap="xs" pb="xs">
                <Title order={3} fz="lg" id={headingId}>
                  {group.label}
                </Title>
                <Text size="sm" c={group.passed === group.total ? 'dimmed' : undefined}>
                  {group.passed} of {group.total} passed
                </Text>
              </Group>
              <Box component="ul" m={0} p={0} aria-label={`${group.label} checks`}>
                {group.checks.map(({ key, check }) => (
                  <CheckItem
                    key={key}
                    checkKey={key}
                    check={check}
                    collapsed={check.passed && !expanded}
                    adviceAbove={adviceAbove.has(key)}
                    settings={settings}
                  />
                ))}
              </Box>
              {hidden > 0 && (
                <Button
                  variant="subtle"
                  size="compact-sm"
                  my="xs"
                  className={classes.noPrint}
                  onClick={() => setOpened(new Set([...opened, group.category]))}
                >
                  Show {hidden} passed {hidden === 1 ? 'check' : 'checks'}
                </Button>
              )}
            </Paper>
          );
        })}
      </Stack>
    </section>
  );
}
