import { fireEvent, render, screen, within } from '@testing-library/react';
import { asPhone, renderWithProviders } from '../../test/render';
import { describe, expect, it, vi } from 'vitest';
import type { PageMeta } from '@/contract/domain';
import { ListPagination, rangeText, useClampPage } from './list-pagination';

const meta = (over: Partial<PageMeta> = {}): PageMeta => ({
  currentPage: 2,
  lastPage: 5,
  perPage: 10,
  total: 47,
  from: 11,
  to: 20,
  ...over,
});

describe('rangeText', () => {
  it('says which items are shown out of how many', () => {
    expect(rangeText(meta(), 'reports')).toBe('11–20 of 47 reports');
    expect(rangeText(meta({ total: 1, from: 1, to: 1, lastPage: 1 }), 'reports')).toBe('1–1 of 1 report');
    expect(rangeText(meta({ total: 0, from: null, to: null, lastPage: 1 }), 'projects')).toBe('0 projects');
  });
});

describe('ListPagination', () => {
  it('shows the range and goes to the page clicked', () => {
    const onPage = vi.fn();
    renderWithProviders(
      <>
        <ListPagination meta={meta()} noun="reports" page={2} onPage={onPage} />
      </>,
    );
    expect(screen.getByText('11–20 of 47 reports')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenLastCalledWith(3);
    fireEvent.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(onPage).toHaveBeenLastCalledWith(5);
  });

  it('shows no page buttons for a single page', () => {
    renderWithProviders(
      <>
        <ListPagination
          meta={meta({ lastPage: 1, total: 4, from: 1, to: 4 })}
          noun="reports"
          page={1}
          onPage={vi.fn()}
        />
      </>,
    );
    expect(screen.getByText('1–4 of 4 reports')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
  });

  it('on a phone, keeps to one line of 44 px buttons: no neighbours around the current page', () => {
    asPhone();
    const page10 = meta({ currentPage: 10, lastPage: 32, total: 312, from: 91, to: 100 });
    renderWithProviders(
      <>
        <ListPagination meta={page10} noun="reports" page={10} onPage={vi.fn()} />
      </>,
    );
    const pages = within(screen.getByRole('navigation', { name: 'Pages of reports' }));
    // Previous, 1, …, 10, …, 32, Next: 7 × 44 px and the gaps fit a 390 px screen.
    expect(pages.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Previous page',
      'Page 1',
      'Page 10',
      'Page 32',
      'Next page',
    ]);
  });
});

describe('useClampPage', () => {
  function Probe({ page, pageMeta, onPage }: { page: number; pageMeta?: PageMeta; onPage: () => void }) {
    useClampPage(page, pageMeta, onPage);
    return null;
  }

  it('goes to the last page, replacing the history entry, when the page is past it', () => {
    const onPage = vi.fn();
    const { rerender } = render(<Probe page={7} onPage={onPage} />);
    expect(onPage).not.toHaveBeenCalled();
    rerender(<Probe page={7} pageMeta={meta({ currentPage: 7, from: null, to: null })} onPage={onPage} />);
    expect(onPage).toHaveBeenCalledWith(5, { replace: true });
    onPage.mockClear();
    rerender(<Probe page={5} pageMeta={meta({ currentPage: 5 })} onPage={onPage} />);
    expect(onPage).not.toHaveBeenCalled();
  });
});
