import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/CloseButton.css';
import { CloseButton, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';

export interface DebouncedSearchProps {
  label?: string;
  /** The search in effect (e.g. from the URL). */
  value: string;
  /** Called once the person has stopped typing for `delay` ms, or at once on Enter or clear. */
  onChange: (value: string) => void;
  delay?: number;
  placeholder?: string;
  /** `/` anywhere outside a text field focuses this input. */
  focusShortcut?: boolean;
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A search box that sends one change after typing stops, not one per key. */
export function DebouncedSearch({
  label = 'Search',
  value,
  onChange,
  delay = 300,
  placeholder,
  focusShortcut = false,
}: DebouncedSearchProps) {
  const [text, setText] = useState(value);
  // What this input last sent: when `value` comes back as that, it is our own change echoed, not a
  // change from outside, and must not overwrite what has been typed since.
  const [sent, setSent] = useState(value);
  const [seen, setSeen] = useState(value);
  const inputRef = useRef<HTMLInputElement>(null);

  // Follow changes from outside (Back/Forward, Clear filters) while rendering, not in an effect.
  if (value !== seen) {
    setSeen(value);
    if (value !== sent.trim()) {
      setText(value);
      setSent(value);
    }
  }

  const emit = (next: string) => {
    setSent(next);
    onChange(next.trim());
  };
  const emitLater = useEffectEvent(emit);

  useEffect(() => {
    if (text.trim() === value) return;
    // Editing the text again, or a change from outside, clears the pending timer.
    const timer = window.setTimeout(() => emitLater(text), delay);
    return () => window.clearTimeout(timer);
  }, [text, value, delay]);

  useEffect(() => {
    if (!focusShortcut) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target))
        return;
      event.preventDefault();
      inputRef.current?.focus();
      inputRef.current?.select();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [focusShortcut]);

  return (
    <TextInput
      ref={inputRef}
      label={label}
      value={text}
      placeholder={placeholder}
      onChange={(event) => setText(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          if (text.trim() !== value) emit(text);
        } else if (event.key === 'Escape' && text !== '') {
          setText('');
          emit('');
        }
      }}
      aria-keyshortcuts={focusShortcut ? '/' : undefined}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        text !== '' ? (
          <CloseButton
            size="sm"
            aria-label={`Clear ${label.toLowerCase()}`}
            onClick={() => {
              setText('');
              emit('');
              inputRef.current?.focus();
            }}
          />
        ) : null
      }
      autoComplete="off"
      spellCheck={false}
    />
  );
}
