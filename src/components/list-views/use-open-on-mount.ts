import { useCallback, useRef, useState } from 'react';

/**
 * A menu mounted by its stand-in's click opens at once: its button takes the focus first (the
 * stand-in holding it is gone), so that closing the menu gives the focus back to the button.
 * `targetRef` goes on the button.
 */
export function useOpenOnMount() {
  const [opened, setOpened] = useState(false);
  const started = useRef(false);
  const targetRef = useCallback((button: HTMLButtonElement | null) => {
    if (button === null || started.current) return;
    started.current = true;
    button.focus();
    setOpened(true);
  }, []);
  return { opened, setOpened, targetRef };
}
