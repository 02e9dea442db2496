import { useEffect, useRef, useState } from 'react';
import type { CSSProperties, ComponentProps, RefObject } from 'react';
import { LoadingBar } from './loading-bar';
import classes from './data-table.module.css';

export interface DataTableProps extends Omit<ComponentProps<'table'>, 'aria-label'> {
  /** The table's accessible name; it also names the scroll region when the table scrolls sideways. */
  'aria-label': string;
  /** Narrower than this (px), the table scrolls sideways inside its region instead of squeezing its columns. */
  minWidth?: number;
  /**
   * `fixed`: on a screen at least Mantine's `lg` wide (75em), the columns take the widths of the
   * table's `<colgroup>` (the columns without one share the rest), not of their content. The browser
   * then lays out only the rows that changed, and a new page or sort does not move the columns.
   * Narrower, and with `auto` (the default): as wide as their content.
   */
  layout?: 'auto' | 'fixed';
  /** Space above and below each cell's content, a Mantine spacing key. */
  verticalSpacing?: 'xs' | 'sm' | 'md';
  /**
   * Rows of the previous view kept on screen while the next one loads: marked busy, with a loading
   * bar (named after the table, "Loading the reports") when the answer is slow.
   */
  stale?: boolean;
  /** Rows being brought up to date (no loading bar): marked busy. */
  busy?: boolean;
  /**
   * Narrower than Mantine's `sm` (48em, a phone), each row is laid out as a card instead of scrolling
   * sideways: its first cell on a line of its own (unless it has `data-inline`), then the others side
   * by side, each after its column's name (its `data-label`); a cell with `data-wide` takes a line of
   * its own. The header row is kept for assistive technology, out of sight.
   */
  stackOnPhone?: boolean;
}

/**
 * A semantic table (children: `thead`/`tbody` with `th scope` and `td`) styled like Mantine's `Table`
 * with row borders and hover highlight. Plain markup on purpose: Mantine's `Table` imports ScrollArea,
 * which brings floating-ui along: about 20 KB gzip more on the first visit of each list.
 */
export function DataTable({
  minWidth,
  layout = 'auto',
  verticalSpacing = 'xs',
  stale = false,
  busy = false,
  stackOnPhone = false,
  className,
  style,
  children,
  ...tableProps
}: DataTableProps) {
  'use memo';
  const scrollRef = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(scrollRef);
  const label = tableProps['aria-label'];
  return (
    // Keyboard users can only scroll what they can focus, so a region that scrolls takes focus.
    <div
      ref={scrollRef}
      className={classes.scroll}
      role={scrolls ? 'region' : undefined}
      aria-label={scrolls ? label : undefined}
      tabIndex={scrolls ? 0 : undefined}
    >
      <table
        {...tableProps}
        aria-busy={stale || busy || undefined}
        data-layout={layout === 'fixed' ? 'fixed' : undefined}
        data-stack={stackOnPhone || undefined}
        className={className ? `${classes.table} ${className}` : classes.table}
        style={
          {
            '--data-table-min-width': minWidth === undefined ? undefined : `${minWidth}px`,
            '--data-table-vertical-spacing': `var(--mantine-spacing-${verticalSpacing})`,
            ...style,
          } as CSSProperties
        }
      >
        {children}
      </table>
      <LoadingBar loading={stale} what={label.toLowerCase()} />
    </div>
  );
}

/** Whether the element's content is wider than the element, kept up to date as either changes size. */
function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof ResizeObserver !== 'function') return;
    const update = () => setScrolls(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(update);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    update();
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}
