import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { DataTable } from './data-table';

// jsdom lays nothing out: the widths the hook reads are set here, and resizes are announced by hand.
let contentWidth = 0;
let boxWidth = 0;
const resized: Array<() => void> = [];

beforeEach(() => {
  contentWidth = 500;
  boxWidth = 600;
  resized.length = 0;
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => contentWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => boxWidth);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        resized.push(callback);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderTable(props: { stale?: boolean } = {}) {
  return renderWithProviders(
    <DataTable aria-label="Things" minWidth={760} {...props}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Size</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>first</td>
          <td>1</td>
        </tr>
      </tbody>
    </DataTable>,
  );
}

describe('DataTable', () => {
  it('is a table with its name, column headers and cells', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Things' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Size']);
    expect(within(table).getByRole('cell', { name: 'first' })).toBeInTheDocument();
    expect(table).not.toHaveAttribute('aria-busy');
  });

  it('marks stale rows busy', () => {
    renderTable({ stale: true });
    expect(screen.getByRole('table', { name: 'Things' })).toHaveAttribute('aria-busy', 'true');
  });

  it('shows a loading bar over stale rows only after 250 ms, and takes it away at once when they are current again', () => {
    vi.useFakeTimers();
    try {
      const { rerender } = renderWithProviders(<DataTable aria-label="Things">{null}</DataTable>);
      const table = () => screen.getByRole('table', { name: 'Things' });
      const bar = () => screen.queryByRole('progressbar', { name: 'Loading the things' });
      rerender(<DataTable aria-label="Things" stale>{null}</DataTable>);
      expect(table()).toHaveAttribute('aria-busy', 'true');
      act(() => vi.advanceTimersByTime(240));
      expect(bar()).not.toBeInTheDocument();
      act(() => vi.advanceTimersByTime(10));
      expect(bar()).toBeInTheDocument();
      rerender(<DataTable aria-label="Things">{null}</DataTable>);
      expect(table()).not.toHaveAttribute('aria-busy');
      expect(bar()).not.toBeInTheDocument();
      // A quick answer: busy for a moment, never a bar.
      rerender(<DataTable aria-label="Things" stale>{null}</DataTable>);
      act(() => vi.advanceTimersByTime(100));
      rerender(<DataTable aria-label="Things">{null}</DataTable>);
      act(() => vi.advanceTimersByTime(500));
      expect(bar()).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is no region and takes no focus while it fits', () => {
    renderTable();
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Things' }).parentElement).not.toHaveAttribute('tabindex');
  });

  it('becomes a named, focusable region while it scrolls sideways, and stops being one when it fits', () => {
    contentWidth = 760;
    boxWidth = 400;
    renderTable();
    const region = screen.getByRole('region', { name: 'Things' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByRole('table', { name: 'Things' })).toBeInTheDocument();

    boxWidth = 900;
    act(() => resized.forEach((callback) => callback()));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });
});
