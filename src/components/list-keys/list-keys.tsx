// A list's keyboard shortcuts (ui-contract "Keyboard (lists)"): j / k move the row focus, Enter opens
// the focused row, x picks it (where the list has a selection), n opens New report, ? lists them all;
// `/` (focus Search) is the search box's own. Each move and pick is said in a live region, so a
// screen reader hears which row it is on and what changed.
import { VisuallyHidden } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import type { HotkeyItem } from '@mantine/hooks';
import { Suspense, lazy, useEffect, useState } from 'react';
import type { ListNoun } from './shortcuts-dialog';
import { notForShortcuts } from './shortcut-target';

const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog').then((module) => ({ default: module.ShortcutsDialog })),
);

export interface ListKeysProps {
  /** The rows' data attribute, whose value names the row to `open` and `pick`: `data-report-row`. */
  rowAttribute: `data-${string}`;
  noun: ListNoun;
  open: (row: string) => void;
  /** The list has a selection: x picks the focused row. */
  pick?: (row: string) => void;
  create: () => void;
}

/** What a row is called when it is said: its first link's text (the URL, the project's name). */
function rowName(row: HTMLElement): string {
  return row.querySelector('a')?.textContent?.trim() ?? '';
}

/** The row holding the focus (if any) and its key, the value of the rows' data attribute. */
function focusedRow(rowAttribute: string): { row: HTMLElement; key: string } | null {
  const focused = document.activeElement;
  const row = focused instanceof HTMLElement ? focused.closest<HTMLElement>(`[${rowAttribute}]`) : null;
  const key = row?.getAttribute(rowAttribute);
  return row && key ? { row, key } : null;
}

/** j / k: the focus to the next / previous row (the first / last when none has it); what to say. */
function move(rowAttribute: string, noun: ListNoun, step: 1 | -1): string | null {
  const rows = [...document.querySelectorAll<HTMLElement>(`[${rowAttribute}]`)];
  if (rows.length === 0) return null;
  const from = focusedRow(rowAttribute);
  const index = from ? rows.indexOf(from.row) : -1;
  const next = Math.max(
    0,
    Math.min(rows.length - 1, index === -1 ? (step === 1 ? 0 : rows.length - 1) : index + step),
  );
  rows[next]!.focus();
  return `${rowName(rows[next]!)}, ${noun} ${next + 1} of ${rows.length}`;
}

/** The list's keys, what they did in words, and the Keyboard shortcuts dialog that `?` opens (loaded then). */
export function ListKeys({ rowAttribute, noun, open, pick, create }: ListKeysProps) {
  const [help, setHelp] = useState<'never' | 'open' | 'closed'>('never');
  const [said, setSaid] = useState('');
  // Where the focus was when `?` opened the dialog (a row, most often): it goes back there.
  const [returnTo, setReturnTo] = useState<HTMLElement | null>(null);

  // A key is the list's unless the person is typing or in a dialog; `act` returns false for a key that
  // was not for the list after all (Enter on a row's link), which then keeps its default.
  const listKey =
    (act: (event: KeyboardEvent) => false | void): HotkeyItem[1] =>
    (event) => {
      if (notForShortcuts(event.target) || act(event) === false) return;
      event.preventDefault();
    };
  const moveBy = (step: 1 | -1) =>
    listKey(() => {
      const words = move(rowAttribute, noun, step);
      if (words !== null) setSaid(words);
    });
  const showHelp = (event: KeyboardEvent) => {
    if (notForShortcuts(event.target)) return;
    event.preventDefault();
    setReturnTo(document.activeElement instanceof HTMLElement ? document.activeElement : null);
    setHelp('open');
  };
  const keys: [string, HotkeyItem[1]][] = [
    ['j', moveBy(1)],
    ['k', moveBy(-1)],
    [
      'Enter',
      listKey((event) => {
        // Enter on a link or a checkbox inside the row is theirs.
        const focused = focusedRow(rowAttribute);
        if (!focused || event.target !== focused.row) return false;
        open(focused.key);
      }),
    ],
    ['n', listKey(create)],
    // `?` is Shift+/ on most keyboards, a key of its own on some.
    ['?', showHelp],
    ['shift+?', showHelp],
  ];
  if (pick)
    keys.push([
      'x',
      listKey(() => {
        const focused = focusedRow(rowAttribute);
        if (!focused) return false;
        const picked = focused.row.hasAttribute('data-picked');
        pick(focused.key);
        setSaid(`${picked ? 'Unselected' : 'Selected'} ${rowName(focused.row)}`);
      }),
    ]);
  // The default would skip every input: `notForShortcuts` does, except for checkboxes and radios (no typing).
  // preventDefault only for what the list did: a key typed into a field stays the field's.
  useHotkeys(
    keys.map(([key, handler]) => [key, handler, { preventDefault: false }]),
    [],
  );

  useEffect(() => {
    if (help === 'closed') returnTo?.focus();
  }, [help, returnTo]);
  return (
    <>
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
        {said}
      </VisuallyHidden>
      {help !== 'never' && (
        <Suspense fallback={null}>
          <ShortcutsDialog
            opened={help === 'open'}
            onClose={() => setHelp('closed')}
            noun={noun}
            withPick={pick !== undefined}
          />
        </Suspense>
      )}
    </>
  );
}
