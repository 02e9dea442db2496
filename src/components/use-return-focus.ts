import { useLayoutEffect } from 'react';

/**
 * Gives the focus back to what opened a dialog when it closes (Esc, Cancel, the close button or a
 * click outside). Mantine's Modal remembers the opener only when `opened` changes after mounting, so
 * a dialog mounted already open (every lazily loaded one, the first time) would drop the focus on the
 * page's body; this hook remembers it on mounting too. Pass `returnFocus={false}` to the Modal.
 */
export function useReturnFocus(opened: boolean): void {
  useLayoutEffect(() => {
    if (!opened) return;
    // Runs before Mantine's focus trap moves the focus into the dialog (that waits for the portal).
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    return () => {
      if (opener === null) return;
      const atClose = document.activeElement;
      const closingInside = atClose instanceof Element && atClose.closest('[role="dialog"]') !== null;
      // After the close has been committed: the dialog's own button may still hold the focus while it fades.
      window.setTimeout(() => {
        const now = document.activeElement;
        const dropped = now === null || now === document.body || !now.isConnected;
        if ((dropped || (closingInside && now === atClose)) && opener.isConnected) opener.focus({ preventScroll: true });
      });
    };
  }, [opened]);
}
