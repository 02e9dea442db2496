// What to fix first: the failed checks of every category, most important first, one line each, each
// a link to its place in the results (the address gets its fragment, so one check can be shared).
import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Check } from '@/contract/domain';
import { checkAdvice, checkName, firstSentence } from '@/checks/check-info';
import { checkAnchor } from '@/checks/group-results';
import { checksToFix } from '@/checks/fix-first';
import { IMPORTANCE_TEXT } from './results';

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
        <Stack component="ol" gap={6} m={0} pl="1.4em">
          {failed.map(({ key, check }) => {
            const advice = checkAdvice(key);
            return (
              // One line each (it wraps on a narrow screen): name, importance, the advice's first sentence.
              <li key={key}>
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
                  <Text span size="sm" c="dimmed">
                    {firstSentence(advice)}
                  </Text>
                )}
              </li>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
