// What the list's keyboard shortcuts do (ui-contract "Keyboard (lists)"): j / k move the row focus,
// Enter opens the focused row, x picks it, n opens New report, ? lists them all. `/` (focus Search)
// is the search box's own. Loaded on the first key press (use-list-shortcuts.ts).

const ROW = '[data-report-row]';

export interface ListShortcutActions {
  /** The report whose row has the focus was asked to be picked (x). */
  pick: (id: number) => void;
  open: (id: number) => void;
  create: () => void;
  help: () => void;
}

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

/** Does what the key asks, if it is one of the list's (see useListShortcuts). */
export function handleListKey(event: KeyboardEvent, actions: ListShortcutActions): void {
  if (ignored(event.target)) return;
  const row = focusedRow();
  const rowId = row ? Number(row.dataset.reportRow) : null;
  switch (event.key) {
    case 'j':
    case 'k':
      moveRowFocus(event.key === 'j' ? 1 : -1);
      break;
    case 'x':
      if (rowId !== null) actions.pick(rowId);
      break;
    case 'Enter':
      // Enter on a link or a checkbox inside the row is theirs.
      if (rowId !== null && event.target === row) actions.open(rowId);
      break;
    case 'n':
      actions.create();
      break;
    case '?':
      actions.help();
      break;
  }
}
