// What the list needs only once its first view is on screen (loaded then, or at once when the first
// answer is empty or an error): the empty and error states, and the list's keyboard shortcuts
// (ui-contract "Keyboard (lists)": j / k move the row focus, Enter opens the focused row, x picks it,
// n opens New report, ? lists them all; `/` (focus Search) is the search box's own). The keys are a
// plain keydown listener, as the search box's: Mantine's useHotkeys costs 0.6 KB gzip and these are
// single unmodified keys.
import { Button } from '@mantine/core';
import { IconFilterOff, IconPlus } from '@tabler/icons-react';
import { Suspense, lazy, useEffect, useEffectEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
export { ErrorState } from '@/components/error-state';

export function ReportsEmpty({ filtered, onClearFilters }: { filtered: boolean; onClearFilters: () => void }) {
  return filtered ? (
    <EmptyState
      title="No reports match"
      description="No report matches this search and these filters."
      action={
        <Button variant="default" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={onClearFilters}>
          Clear filters
        </Button>
      }
    />
  ) : (
    <EmptyState
      title="No reports yet"
      description="Create a report to see how a page does."
      action={
        <Button component={Link} to="/reports/new" variant="default" leftSection={<IconPlus size={16} aria-hidden />}>
          Create a report
        </Button>
      }
    />
  );
}

const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog').then((module) => ({ default: module.ShortcutsDialog })),
);

const ROW = '[data-report-row]';

export interface ListKeysProps {
  /** The report whose row has the focus was asked to be picked (x). */
  pick: (id: number) => void;
  open: (id: number) => void;
  create: () => void;
}

type Actions = ListKeysProps & { help: () => void };

/** Typing in a field, or working in a dialog, is not a shortcut. Checkboxes and radios do not type. */
function ignored(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[role="dialog"]')) return true;
  if (target instanceof HTMLInputElement) return target.type !== 'checkbox' && target.type !== 'radio';
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

function focusedRow(): HTMLElement | null {
  return document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>(ROW) : null;
}

function moveRowFocus(step: 1 | -1): void {
  const rows = [...document.querySelectorAll<HTMLElement>(ROW)];
  const current = focusedRow();
  const index = current ? rows.indexOf(current) : -1;
  const next = index === -1 ? (step === 1 ? 0 : rows.length - 1) : index + step;
  rows[Math.max(0, Math.min(rows.length - 1, next))]?.focus();
}

/** Does what the key asks, if it is one of the list's; true when it was. */
function handleListKey(event: KeyboardEvent, actions: Actions): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || ignored(event.target)) return false;
  const row = focusedRow();
  const rowId = row ? Number(row.dataset.reportRow) : null;
  switch (event.key) {
    case 'j':
    case 'k':
      moveRowFocus(event.key === 'j' ? 1 : -1);
      break;
    case 'x':
      if (rowId === null) return false;
      actions.pick(rowId);
      break;
    case 'Enter':
      // Enter on a link or a checkbox inside the row is theirs.
      if (rowId === null || event.target !== row) return false;
      actions.open(rowId);
      break;
    case 'n':
      actions.create();
      break;
    case '?':
      actions.help();
      break;
    default:
      return false;
  }
  return true;
}

/** The list's keys, and the Keyboard shortcuts dialog that `?` opens (loaded then). */
export function ListKeys(props: ListKeysProps) {
  const [help, setHelp] = useState<'never' | 'open' | 'closed'>('never');
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (handleListKey(event, { ...props, help: () => setHelp('open') })) event.preventDefault();
  });
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (help === 'never') return null;
  return (
    <Suspense fallback={null}>
      <ShortcutsDialog opened={help === 'open'} onClose={() => setHelp('closed')} />
    </Suspense>
  );
}
