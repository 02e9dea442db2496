/**
 * Whether a key pressed on `target` is not a page's shortcut: typing in a field, or working in a
 * dialog. Checkboxes and radios do not type.
 */
export function notForShortcuts(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[role="dialog"]')) return true;
  if (target instanceof HTMLInputElement) return target.type !== 'checkbox' && target.type !== 'radio';
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}
