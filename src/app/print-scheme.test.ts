// Printing light: while the page prints the root says light (Mantine's dark rules stop matching),
// and the scheme on screen comes back afterwards; the charts' scheme follows.
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isPrinting, usePrinting } from '@/components/use-printing';
import { lightWhilePrinting } from './print-scheme';

describe('lightWhilePrinting', () => {
  it('makes the root light while the page prints, and gives the scheme back afterwards', () => {
    const root = document.createElement('div');
    root.setAttribute('data-mantine-color-scheme', 'dark');
    const stop = lightWhilePrinting(root);
    const { result } = renderHook(() => usePrinting());
    expect(result.current).toBe(false);

    act(() => void window.dispatchEvent(new Event('beforeprint')));
    expect(isPrinting()).toBe(true);
    expect(result.current).toBe(true);
    expect(root.getAttribute('data-mantine-color-scheme')).toBe('light');

    act(() => void window.dispatchEvent(new Event('afterprint')));
    expect(result.current).toBe(false);
    expect(root.getAttribute('data-mantine-color-scheme')).toBe('dark');

    // Stopped: a later print leaves the root alone.
    stop();
    act(() => void window.dispatchEvent(new Event('beforeprint')));
    expect(root.getAttribute('data-mantine-color-scheme')).toBe('dark');
    act(() => void window.dispatchEvent(new Event('afterprint')));
  });
});
