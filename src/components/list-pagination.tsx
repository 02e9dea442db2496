import '@mantine/core/styles/Pagination.css';
import { Group, Pagination, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useEffectEvent } from 'react';
import type { PageMeta } from '@/contract/domain';

export type PageChange = (page: number, options?: { replace?: boolean }) => void;

export interface ListPaginationProps {
  /** The meta of the page on screen; nothing is shown without it. */
  meta: PageMeta | undefined;
  /** Plural, e.g. "reports". */
  noun: string;
  /** The page asked for (it may still be loading). */
  page: number;
  onPage: PageChange;
  /** While the next page loads, so clicks do not run ahead of the data. */
  disabled?: boolean;
  /** False where the page shows the range elsewhere (above its list): the page buttons only. */
  withRange?: boolean;
}

// Phones, where each page button is 44 px wide: one button around the current page's would not fit on
// one line ("< 1 … 9 10 11 … 32 >" is 460 px), the current page alone does.
const PHONE_QUERY = '(max-width: 30em)';

function singular(noun: string): string {
  return noun.endsWith('s') ? noun.slice(0, -1) : noun;
}

/** "11–20 of 47 reports"; "0 reports" when there are none. */
export function rangeText(meta: PageMeta, noun: string): string {
  if (meta.total === 0 || meta.from === null || meta.to === null) return `0 ${noun}`;
  return `${meta.from}–${meta.to} of ${meta.total} ${meta.total === 1 ? singular(noun) : noun}`;
}

/** The range with the total, and page buttons when there is more than one page. */
export function ListPagination({ meta, noun, page, onPage, disabled = false, withRange = true }: ListPaginationProps) {
  // Compiled (vite.config.ts): a new page of the same list renders Mantine's Pagination again only
  // when its numbers change (the compiler follows `meta.lastPage`, not the new `meta` object).
  'use memo';
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  if (meta === undefined || (!withRange && meta.lastPage <= 1)) return null;
  return (
    <Group justify={withRange ? 'space-between' : 'flex-end'} gap="sm" wrap="wrap">
      {withRange && (
        <Text size="sm" c="dimmed" aria-live="polite">
          {rangeText(meta, noun)}
        </Text>
      )}
      {meta.lastPage > 1 && (
        <nav aria-label={`Pages of ${noun}`}>
          <Pagination
            total={meta.lastPage}
            value={Math.min(page, meta.lastPage)}
            onChange={(next) => onPage(next)}
            disabled={disabled}
            size="sm"
            siblings={phone ? 0 : 1}
            gap={phone ? 4 : undefined}
            boundaries={1}
            getItemProps={(item) => ({
              'aria-label': `Page ${item}`,
              'aria-current': item === page ? 'page' : undefined,
            })}
            getControlProps={(control) => {
              const labels = {
                first: 'First page',
                previous: 'Previous page',
                next: 'Next page',
                last: 'Last page',
              } as const;
              return { 'aria-label': labels[control] };
            }}
          />
        </nav>
      )}
    </Group>
  );
}

/**
 * When `page` is past the last page (after deletions, or an old link), goes to the last page,
 * replacing the history entry. Pass the meta of the answer for `page` itself, never a placeholder
 * kept from another view, or a view change would be clamped by the old view's page count.
 */
export function useClampPage(page: number, meta: PageMeta | undefined, onPage: PageChange): void {
  const lastPage = meta?.lastPage;
  const clamp = useEffectEvent((to: number) => onPage(to, { replace: true }));
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) clamp(lastPage);
  }, [page, lastPage]);
}
