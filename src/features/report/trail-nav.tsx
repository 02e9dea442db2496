// Where a report opened from a list stands in it (ui-contract "Triage"): the way back to the list as it
// was, Previous and Next in the list's order and filters across its pages (also `[` and `]`), and the
// report's place, "4 of 87". Opened otherwise (a link, a new tab), only All reports. The report never
// waits for it: the list's page is in the cache when the report came from it; where it is not (after
// a reload), only the buttons wait for it.
import '@mantine/core/styles/Flex.css';
import { Button, Flex, Group, Text, VisuallyHidden } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { backToListState, noteReportInWalk, readReportTrail, reportTrailState, useTrailPlace } from '@/api/report-trail';
import type { ReportTrail, TrailPlace, TrailStep } from '@/api/report-trail';
import { reportQueries } from '@/api/reports';
import { BackLink } from '@/components/back-link';
import { notForShortcuts } from '@/components/list-keys/shortcut-target';
import classes from './report-page.module.css';

const KeyboardShortcutsDialog = lazy(() =>
  import('@/components/list-keys/shortcuts-dialog').then((m) => ({ default: m.KeyboardShortcutsDialog })),
);

const SHORTCUTS = [
  { keys: '[', does: 'Open the previous report of the list' },
  { keys: ']', does: 'Open the next report of the list' },
  { keys: '?', does: 'Show these shortcuts' },
];

/** The list the report on screen was opened from (its location state), or null. */
export function useReportTrail(): ReportTrail | null {
  const { state } = useLocation();
  return useMemo(() => readReportTrail(state), [state]);
}

/**
 * A neighbour opens in place of this report (`replace`), with its own trail: however many reports
 * are walked, browser Back goes back to the list they were opened from, as Back to the list does.
 */
function stepTarget(step: TrailStep) {
  return { to: `/reports/${step.id}`, state: reportTrailState(step.trail), replace: true } as const;
}

function StepButton({
  step,
  label,
  shortcut,
  icon,
  side,
}: {
  step: TrailStep | null;
  label: 'Previous' | 'Next';
  shortcut: string;
  icon: ReactNode;
  side: 'left' | 'right';
}) {
  const queryClient = useQueryClient();
  const sections = side === 'left' ? { leftSection: icon } : { rightSection: icon };
  // At an end of the list, or while the page beyond this one loads.
  if (step === null)
    return (
      <Button variant="default" size="xs" disabled {...sections}>
        {label}
      </Button>
    );
  // Its report starts loading when the pointer or the focus comes to it (a press would too: page-data.ts).
  const prefetch = () => void queryClient.prefetchQuery(reportQueries.detail(step.id));
  return (
    <Button
      component={Link}
      {...stepTarget(step)}
      variant="default"
      size="xs"
      aria-keyshortcuts={shortcut}
      title={step.url}
      onMouseEnter={prefetch}
      onFocus={prefetch}
      {...sections}
    >
      {label}
    </Button>
  );
}

function placeText(place: TrailPlace | null): string | null {
  if (place === null || place.total === null) return null;
  if (place.left) return 'No longer in this list';
  return place.position === null ? null : `${place.position.toLocaleString('en')} of ${place.total.toLocaleString('en')}`;
}

/** `[` and `]` open the previous and next report, `?` lists them; not while typing or in a dialog. */
function TrailKeys({ place }: { place: TrailPlace | null }) {
  const navigate = useNavigate();
  const [help, setHelp] = useState<'never' | 'open' | 'closed'>('never');
  const stepKey =
    (step: TrailStep | null | undefined) =>
    (event: KeyboardEvent): void => {
      if (notForShortcuts(event.target) || !step) return;
      event.preventDefault();
      const { to, ...options } = stepTarget(step);
      void navigate(to, options);
    };
  const showHelp = (event: KeyboardEvent) => {
    if (notForShortcuts(event.target)) return;
    event.preventDefault();
    setHelp('open');
  };
  // preventDefault only for what the page did: a key typed into a field stays the field's.
  useHotkeys(
    [
      ['[', stepKey(place?.previous), { preventDefault: false }],
      [']', stepKey(place?.next), { preventDefault: false }],
      // `?` is Shift+/ on most keyboards, a key of its own on some.
      ['?', showHelp, { preventDefault: false }],
      ['shift+?', showHelp, { preventDefault: false }],
    ],
    [],
  );
  if (help === 'never') return null;
  return (
    <Suspense fallback={null}>
      <KeyboardShortcutsDialog
        opened={help === 'open'}
        onClose={() => setHelp('closed')}
        shortcuts={SHORTCUTS}
        where="this report"
      />
    </Suspense>
  );
}

/** Above the report: the way back to its list and, opened from one, the way to its neighbours. */
export function ReportTrailNav({ id, trail }: { id: number; trail: ReportTrail | null }) {
  const place = useTrailPlace(id, trail);
  const inWalk = trail !== null;
  // Back at the list, this report's row takes the focus (a reload forgets the module, not the trail).
  useEffect(() => {
    if (inWalk) noteReportInWalk(id);
  }, [inWalk, id]);
  if (trail === null)
    return (
      <Group className={classes.noPrint}>
        <BackLink to="/reports">All reports</BackLink>
      </Group>
    );
  const where = placeText(place);
  return (
    <Group justify="space-between" gap="xs" className={classes.noPrint}>
      <BackLink to={trail.list} state={backToListState()}>
        Back to {trail.name}
      </BackLink>
      {/* On a phone a line of its own under the way back, Previous and Next at its two ends. */}
      <Flex
        component="nav"
        aria-label="Reports in the list"
        gap="xs"
        align="center"
        justify={{ base: 'space-between', xs: 'flex-end' }}
        w={{ base: '100%', xs: 'auto' }}
      >
        <StepButton
          step={place?.previous ?? null}
          label="Previous"
          shortcut="["
          icon={<IconChevronLeft size={16} aria-hidden />}
          side="left"
        />
        {/* Said when it changes: Next keeps the focus, so this is how a screen reader hears where it went. */}
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} aria-live="polite" aria-atomic>
          {where !== null && !place?.left && <VisuallyHidden>Report </VisuallyHidden>}
          {where}
        </Text>
        <StepButton
          step={place?.next ?? null}
          label="Next"
          shortcut="]"
          icon={<IconChevronRight size={16} aria-hidden />}
          side="right"
        />
      </Flex>
      <TrailKeys place={place} />
    </Group>
  );
}
