// Everything that works on the selected reports; loaded when a person first reaches for a checkbox.
import { Button, Group, Loader, Text } from '@mantine/core';
import { IconLock, IconRefresh, IconSelectAll, IconTrash, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { useDeleteRuns } from '@/workflows/bulk-deletes';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { ReportListParams } from '@/api/reports';
import type { Report } from '@/contract/domain';
import { formatClock } from '@/lib/dates';
import { asksBeforeAnalysing } from '@/lib/quota';
import type { Selection } from '../selection';
import { BulkProgress } from '@/components/bulk-progress';
import { useCollectReports } from '@/workflows/use-collect-reports';
import { deleteSelectedWithUndo } from './delete-selected';
import { PrivacyDialog } from './privacy-dialog';
import { useBulkRun } from '@/workflows/use-bulk-run';
import { RoleGate } from '@/components/role-gate';
import bar from '../list-bar.module.css';

export interface BulkAreaProps {
  selection: Selection;
  /** How many reports match the current filters; undefined while unknown. */
  total: number | undefined;
  /** The current view: Select all matching collects its reports, all pages. */
  params: ReportListParams;
  /** Every report of the view where it was filtered here (not by the deployment): Select all matching picks them. */
  matching?: readonly Report[];
  /** What the strip shows without a selection (the list's range). */
  range: ReactNode;
  /** The ids of the reports on this page, for the delete question's wording. */
  onPage: readonly number[];
}

/** Select all N matching: every report of the view, collected page by page through the scheduler. */
function useSelectAllMatching(selection: Selection, params: ReportListParams, matching: readonly Report[] | undefined) {
  const collector = useCollectReports();
  // Other filters make what is being collected another selection's: it stops, as on leaving the page.
  // (Another sort or page leaves the same reports matching.)
  const filters = JSON.stringify([params.search, params.search_by, params.project, params.result, params.failing]);
  const { cancel } = collector;
  useEffect(() => cancel, [filters, cancel]);
  return {
    collecting: collector.collecting,
    start: () =>
      matching ? selection.replace(matching) : collector.collect(params, (reports) => selection.replace(reports)),
    cancel,
  };
}

export function BulkArea({ selection, total, params, matching: matchingHere, range, onPage }: BulkAreaProps) {
  const bulk = useBulkRun((ids) => selection.remove(ids));
  // Delete selected's runs: they outlive this list, and every list shows them.
  const deleteRuns = useDeleteRuns();
  const queryClient = useQueryClient();
  const location = useLocation();
  const matching = useSelectAllMatching(selection, params, matchingHere);
  const [dialog, setDialog] = useState<'privacy' | 'refresh' | 'delete' | null>(null);
  const count = selection.items.size;
  const picked = () => [...selection.items].map(([id, url]) => ({ id, url }));
  const running = bulk.run !== null && bulk.run.phase !== 'finished';
  const noun = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'report' : 'reports'}`;
  const { collecting } = matching;
  const refresh = () => bulk.start({ kind: 'refresh' }, picked());
  const shown = new Set(onPage);
  const offPage = [...selection.items.keys()].filter((id) => !shown.has(id)).length;

  return (
    <>
      {count > 0 ? (
        // On a phone the toolbar sits at the bottom of the screen, its actions in reach of a thumb and
        // wrapped rather than scrolled sideways; its slot keeps the strip's room so no row moves.
        <div className={bar.selectionSlot}>
          <div className={bar.slotRange}>{range}</div>
          <div className={bar.bar} data-selecting="" role="toolbar" aria-label="Selection">
            <Text fw={700} size="sm" px={4} aria-live="polite">
              {count.toLocaleString('en')} selected
            </Text>
            {collecting !== null && 'done' in collecting ? (
              <Group gap={6} wrap="nowrap" role="status">
                <Loader size="xs" aria-hidden />
                <Text size="sm">
                  Selecting {collecting.done.toLocaleString('en')}
                  {collecting.total > 0 && ` of ${collecting.total.toLocaleString('en')}`}…
                  {collecting.waitingUntil !== null &&
                    ` Paused by the service’s rate limit until ${formatClock(collecting.waitingUntil)}.`}
                </Text>
                <Button variant="subtle" size="compact-sm" onClick={matching.cancel}>
                  Cancel
                </Button>
              </Group>
            ) : (
              total !== undefined &&
              count < total && (
                <Button
                  variant="subtle"
                  size="compact-sm"
                  leftSection={<IconSelectAll size={14} aria-hidden />}
                  onClick={matching.start}
                  disabled={running}
                >
                  Select all {total.toLocaleString('en')} matching
                </Button>
              )
            )}
            {collecting !== null && 'error' in collecting && (
              <Text size="sm" c="red" role="alert">
                The reports could not all be selected: {collecting.error}{' '}
                <Button variant="subtle" size="compact-sm" onClick={matching.start}>
                  Retry
                </Button>
              </Text>
            )}
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconX size={14} aria-hidden />}
              onClick={selection.clear}
              className={bar.clear}
            >
              <span className={bar.clearLabel}>Clear selection</span>
            </Button>
            <RoleGate what="change reports">
              <div className={`${bar.actions} phone-action-grid`}>
                {(
                  [
                    ['Change privacy', IconLock, () => setDialog('privacy')],
                    ['Refresh results', IconRefresh, () => (asksBeforeAnalysing(count) ? setDialog('refresh') : refresh())],
                    ['Delete selected', IconTrash, () => setDialog('delete')],
                  ] as const
                ).map(([label, Icon, onClick]) => (
                  <Button
                    key={label}
                    variant={label === 'Delete selected' ? 'light' : 'default'}
                    color={label === 'Delete selected' ? 'red' : undefined}
                    size="compact-sm"
                    leftSection={<Icon size={14} aria-hidden />}
                    onClick={onClick}
                    disabled={running}
                  >
                    {label}
                  </Button>
                ))}
              </div>
            </RoleGate>
          </div>
        </div>
      ) : (
        <div className={bar.bar}>{range}</div>
      )}

      <BulkProgress runner={bulk} />
      {deleteRuns.map((run) => (
        <BulkProgress key={run.key} runner={run} />
      ))}

      <PrivacyDialog
        opened={dialog === 'privacy'}
        count={count}
        onCancel={() => setDialog(null)}
        onApply={(privacy, password) => {
          setDialog(null);
          bulk.start({ kind: 'privacy', privacy, password }, picked());
        }}
      />
      <ConfirmDialog
        opened={dialog === 'refresh'}
        title={`Refresh ${noun(count)}?`}
        confirmLabel="Refresh"
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null);
          refresh();
        }}
        pending={false}
      >
        <Text size="sm">
          Each of the {noun(count)} you selected is fetched and analysed again: {count.toLocaleString('en')}{' '}
          analyses of the service’s work, a few at a time and paced to its rate limit. You can cancel while it runs.
        </Text>
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={`Delete ${noun(count)}?`}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null);
          const targets = picked();
          deleteSelectedWithUndo({ queryClient, reports: targets, from: location.pathname + location.search });
          selection.remove(targets.map(({ id }) => id));
        }}
        pending={false}
      >
        <Text size="sm">
          This deletes the {noun(count)} you selected and their results
          {offPage === 0
            ? ''
            : offPage === count
              ? ', none of them on this page'
              : `, ${offPage.toLocaleString('en')} of them not on this page`}
          . You can undo this for a few seconds.
        </Text>
      </ConfirmDialog>
    </>
  );
}
