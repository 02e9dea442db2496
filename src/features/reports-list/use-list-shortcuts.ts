// The list's keyboard shortcuts: a keydown listener that loads what they do (list-shortcuts.ts) on
// the first key that may be one. None of these keys does anything of its own outside a text field,
// so nothing needs to be prevented before that code is there. Plain, not Mantine's useHotkeys: the
// first visit of /reports is at its size budget (170 KB gzip) and these are unmodified single keys.
import { useEffect, useEffectEvent } from 'react';
import type { ListShortcutActions } from './list-shortcuts';

const KEYS = new Set(['j', 'k', 'x', 'n', '?', 'Enter']);

export function useListShortcuts(actions: ListShortcutActions): void {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (!KEYS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
    void import('./list-shortcuts').then((module) => module.handleListKey(event, actions));
  });
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
