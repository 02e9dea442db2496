// What to fix first: the failed checks of every category, most important first, one line each, each
// a link to its place in the results (the address gets its fragment, so one check can be shared).
import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Check } from '@/contract/domain';
import { checkAdvice, checkName } from '@/checks/check-info';
import { checkAnchor, fixFirstAnchor } from '@/checks/group-results';
import { checksToFix } from '@/checks/fix-first';
import { IMPORTANCE_TEXT } from './results';
import classes from './report-page.module.css';

/** How many failed checks Fix first shows, with their advice, before "+N more". */
export const FIX_FIRST_SHOWN = 5;

/** The checks whose advice Fix first shows: the results then link there instead of repeating it. */
export function adviceInFixFirst(results: Record<string, Check>): ReadonlySet<string> {
  return new Set(
    checksToFix(results)
      .slice(0, FIX_FIRST_SHOWN)
      .map(({ key }) => key),
  );
}

/** Moves the focus to a check in the results and scrolls it into view. */
export function focusCheck(key: string): boolean {
  const target = document.getElementById(checkAnchor(key));
  if (!target) return false;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: 'start' });
  return true;
}

export function FixFirst({ results }: { results: Record<string, Check> }) {
  const navigate = useNavigate();
  const failed = checksToFix(results);
  const [all, setAll] = useState(false);
  const more = failed.length - FIX_FIRST_SHOWN;
  const go = (event: MouseEvent<HTMLAnchorElement>, key: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ hash: checkAnchor(key) });
    focusCheck(key);
  };
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
      {failed.length === 0 ? (
        <Group gap="xs">
          <IconCircleCheck size={20} color="var(--mantine-color-teal-7)" aria-hidden />
          <Text>Nothing failed: every check passed.</Text>
        </Group>
      ) : (
        <Stack gap="xs" align="flex-start">
          <Stack component="ol" gap={6} m={0} pl="1.4em" id="fix-first-list" style={{ alignSelf: 'stretch' }}>
            {(all ? failed : failed.slice(0, FIX_FIRST_SHOWN)).map(({ key, check }, index) => {
              // The first five with their advice (the results then do not repeat it); the rest by name,
              // their advice in the results.
              const advice = index < FIX_FIRST_SHOWN ? checkAdvice(key) : null;
              return (
                <li key={key} id={fixFirstAnchor(key)} tabIndex={-1} className={classes.fixItem}>
                  <Anchor
                    href={`#${checkAnchor(key)}`}
                    onClick={(event) => go(event, key)}
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
            })}
          </Stack>
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
        </Stack>
      )}
    </Paper>
  );
}
