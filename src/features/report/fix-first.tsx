// What to fix first: the failed checks of every category, most important first, one line each, each
// a link to its place in the results (the address gets its fragment, so one check can be shared).
// As the project treats them (the Problems extension): checks failing across the site apart, under
// Site-wide: fix once; the ones it ignores left out, counted.
import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import type { MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Check } from '@/contract/domain';
import { checkAdvice, checkName } from '@/checks/check-info';
import { checkAnchor, fixFirstAnchor } from '@/checks/group-results';
import { fixFirstLists } from '@/checks/fix-first';
import type { CheckTreatment } from '@/checks/fix-first';
import type { KeyedCheck } from '@/checks/group-results';
import { IMPORTANCE_TEXT } from './results';
import classes from './report-page.module.css';

/** How many failed checks Fix first shows, with their advice, before "+N more". */
export const FIX_FIRST_SHOWN = 5;

/** The checks whose advice Fix first shows: the results then link there instead of repeating it. */
export function adviceInFixFirst(
  results: Record<string, Check>,
  treatment: CheckTreatment,
): ReadonlySet<string> {
  const { toFix, siteWide } = fixFirstLists(results, treatment);
  return new Set([...toFix.slice(0, FIX_FIRST_SHOWN), ...siteWide].map(({ key }) => key));
}

/** Moves the focus to a check in the results and scrolls it into view. */
export function focusCheck(key: string): boolean {
  const target = document.getElementById(checkAnchor(key));
  if (!target) return false;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: 'start' });
  return true;
}

function FixItem({
  item,
  withAdvice,
  onGo,
}: {
  item: KeyedCheck;
  withAdvice: boolean;
  onGo: (event: MouseEvent<HTMLAnchorElement>, key: string) => void;
}) {
  const { key, check } = item;
  const advice = withAdvice ? checkAdvice(key) : null;
  return (
    <li id={fixFirstAnchor(key)} tabIndex={-1} className={classes.fixItem}>
      <Anchor
        href={`#${checkAnchor(key)}`}
        onClick={(event) => onGo(event, key)}
        fw={600}
        className="tap-target"
      >
        {checkName(key)}
      </Anchor>{' '}
      {check.importance && (
        <Badge
          variant="default"
          tt="none"
          radius="sm"
          fw={500}
          mx={4}
          style={{ verticalAlign: 'text-bottom' }}
        >
          {IMPORTANCE_TEXT[check.importance]}
        </Badge>
      )}{' '}
      {advice && (
        <Text size="sm" c="dimmed" mt={2}>
          {advice}
        </Text>
      )}
    </li>
  );
}

export function FixFirst({
  results,
  treatment,
  project,
}: {
  results: Record<string, Check>;
  treatment: CheckTreatment;
  project: string;
}) {
  const navigate = useNavigate();
  // The report's place in a list (its location state) stays with it when a check is linked.
  const { state } = useLocation();
  const { toFix, siteWide, ignored } = fixFirstLists(results, treatment);
  const [all, setAll] = useState(false);
  const more = toFix.length - FIX_FIRST_SHOWN;
  const go = (event: MouseEvent<HTMLAnchorElement>, key: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ hash: checkAnchor(key) }, { state });
    focusCheck(key);
  };
  const ignoredText =
    ignored.length === 0
      ? null
      : `${ignored.length.toLocaleString('en')} ignored on ${project}: ${ignored.map(({ key }) => checkName(key)).join(', ')}.`;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="fix-first"
    >
      <Title order={2} fz="h3" id="fix-first" mb="sm">
        Fix first
      </Title>
      {toFix.length === 0 && siteWide.length === 0 ? (
        <Group gap="xs">
          <IconCircleCheck size={20} color="var(--mantine-color-teal-7)" aria-hidden />
          <Text>
            {ignored.length === 0
              ? 'Nothing failed: every check passed.'
              : 'Nothing to fix: every failed check is ignored on this project.'}
          </Text>
        </Group>
      ) : (
        <Stack gap="xs" align="flex-start">
          {toFix.length > 0 && (
            <Stack
              component="ol"
              gap={6}
              m={0}
              pl="1.4em"
              id="fix-first-list"
              style={{ alignSelf: 'stretch' }}
            >
              {/* The first five with their advice (the results then do not repeat it); the rest by name, their advice in the results. */}
              {(all ? toFix : toFix.slice(0, FIX_FIRST_SHOWN)).map((item, index) => (
                <FixItem key={item.key} item={item} withAdvice={index < FIX_FIRST_SHOWN} onGo={go} />
              ))}
            </Stack>
          )}
          {more > 0 && (
            <Button
              variant="subtle"
              size="compact-sm"
              aria-expanded={all}
              aria-controls="fix-first-list"
              onClick={() => setAll((shown) => !shown)}
            >
              {all ? 'Show the first five only' : `+${more} more`}
            </Button>
          )}
          {siteWide.length > 0 && (
            <section aria-labelledby="fix-first-site-wide" style={{ alignSelf: 'stretch' }}>
              <Title order={3} fz="h5" id="fix-first-site-wide" mt={toFix.length > 0 ? 'sm' : 0}>
                Site-wide: fix once
              </Title>
              <Text size="sm" c="dimmed" mb={6}>
                These fail on nearly every page of {project}: one change to the server or the site fixes every
                page.
              </Text>
              <Stack component="ul" gap={6} m={0} pl="1.4em">
                {siteWide.map((item) => (
                  <FixItem key={item.key} item={item} withAdvice onGo={go} />
                ))}
              </Stack>
            </section>
          )}
        </Stack>
      )}
      {ignoredText && (
        <Text size="sm" c="dimmed" mt="sm">
          {ignoredText}
        </Text>
      )}
    </Paper>
  );
}
