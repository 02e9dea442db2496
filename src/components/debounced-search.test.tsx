import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DebouncedSearch } from './debounced-search';

function Harness({ initial = '', onChange }: { initial?: string; onChange: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DebouncedSearch
        value={value}
        onChange={(next) => {
          onChange(next);
          setValue(next);
        }}
        focusShortcut
      />
      <button type="button" onClick={() => setValue('')}>
        Clear filters
      </button>
      <button type="button" onClick={() => setValue('blog')}>
        Go forward
      </button>
    </>
  );
}

function typeKeys(input: HTMLElement, text: string) {
  for (let i = 1; i <= text.length; i += 1) {
    fireEvent.change(input, { target: { value: text.slice(0, i) } });
    act(() => vi.advanceTimersByTime(100));
  }
}

describe('DebouncedSearch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends one change once typing stops, not one per key', () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Search' });

    typeKeys(input, 'shop');
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(199));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('shop');
    act(() => vi.advanceTimersByTime(1000));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('sends at once on Enter and clears with the clear button', () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness initial="docs" onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Search' });
    expect(input).toHaveValue('docs');

    fireEvent.change(input, { target: { value: 'docs api ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith('docs api');
    expect(input).toHaveValue('docs api ');

    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(input).toHaveValue('');
    act(() => vi.advanceTimersByTime(1000));
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('follows a change from outside and drops the typing it replaced', () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness initial="shop" onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Search' });

    fireEvent.change(input, { target: { value: 'shopping' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(input).toHaveValue('');
    act(() => vi.advanceTimersByTime(1000));
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Go forward' }));
    expect(input).toHaveValue('blog');
  });

  it('focuses on "/" typed outside a text field, and lets "/" be typed inside one', () => {
    renderWithProviders(<Harness onChange={vi.fn()} />);
    const input = screen.getByRole('textbox', { name: 'Search' });
    screen.getByRole('button', { name: 'Clear filters' }).focus();

    fireEvent.keyDown(screen.getByRole('button', { name: 'Clear filters' }), { key: '/' });
    expect(input).toHaveFocus();

    const typed = fireEvent.keyDown(input, { key: '/' });
    expect(typed).toBe(true);
  });
});
