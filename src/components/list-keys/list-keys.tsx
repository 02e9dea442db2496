// A list's keyboard shortcuts (ui-contract "Keyboard (lists)"): j / k move the row focus, Enter opens
// the focused row, x picks it (where the list has a selection), n opens New report, ? lists them all;
// `/` (focus Search) is the search box's own. Each move and pick is said in a live region, so a
// screen reader hears which row it is on and what changed. A plain keydown listener, as the search
// box's: Mantine's useHotkeys costs 0.6 KB gzip and these are single unmodified keys.
import { VisuallyHidden } from '@mantine/core';
import { Suspense, lazy, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { ListNoun } from './shortcuts-dialog';

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

/** Typing in a field, or working in a dialog, is not a shortcut. Checkboxes and radios do not type. */
function ignored(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[role="dialog"]')) return true;
  if (target instanceof HTMLInputElement) return target.type !== 'checkbox' && target.type !== 'radio';
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** What a row is called when it is said: its first link's text (the URL, the project's name). */
function rowName(row: HTMLElement): string {
  return row.querySelector('a')?.textContent?.trim() ?? '';
}

/** Does what the key asks, if it is one of the list's; returns what to say (null: not a list key). */
function handleListKey(
  event: KeyboardEvent,
  props: ListKeysProps,
  help: () => void,
): { said: string | null } | null {
  if (event.ctrlKey || event.metaKey || event.altKey || ignored(event.target)) return null;
  const selector = `[${props.rowAttribute}]`;
  const rows = [...document.querySelectorAll<HTMLElement>(selector)];
  const row =
    document.activeElement instanceof HTMLElement
      ? document.activeElement.closest<HTMLElement>(selector)
      : null;
  const key = row?.getAttribute(props.rowAttribute) ?? null;
  switch (event.key) {
    case 'j':
    case 'k': {
      if (rows.length === 0) return { said: null };
      const index = row ? rows.indexOf(row) : -1;
      const step = event.key === 'j' ? 1 : -1;
      const next = Math.max(
        0,
        Math.min(rows.length - 1, index === -1 ? (step === 1 ? 0 : rows.length - 1) : index + step),
      );
      const target = rows[next]!;
      target.focus();
      return { said: `${rowName(target)}, ${props.noun} ${next + 1} of ${rows.length}` };
    }
    case 'x': {
      if (key === null || !row || !props.pick) return null;
      const picked = row.hasAttribute('data-picked');
      props.pick(key);
      return { said: `${picked ? 'Unselected' : 'Selected'} ${rowName(row)}` };
    }
    case 'Enter':
      // Enter on a link or a checkbox inside the row is theirs.
      if (key === null || event.target !== row) return null;
      props.open(key);
      return { said: null };
    case 'n':
      props.create();
      return { said: null };
    case '?':
      help();
      return { said: null };
    default:
      return null;
  }
}

/** The list's keys, what they did in words, and the Keyboard shortcuts dialog that `?` opens (loaded then). */
export function ListKeys(props: ListKeysProps) {
  const [help, setHelp] = useState<'never' | 'open' | 'closed'>('never');
  const [said, setSaid] = useState('');
  // Where the focus was when `?` opened the dialog (a row, most often): it goes back there.
  const returnTo = useRef<HTMLElement | null>(null);
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    const done = handleListKey(event, props, () => {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setHelp('open');
    });
    if (done === null) return;
    event.preventDefault();
    if (done.said !== null) setSaid(done.said);
  });
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (help === 'closed') returnTo.current?.focus();
  }, [help]);
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
            noun={props.noun}
            withPick={props.pick !== undefined}
          />
        </Suspense>
      )}
    </>
  );
}
