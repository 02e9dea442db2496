// The strip above the reports: the range ("1–10 of 312 reports"), and the Selection toolbar in its
// place once a checkbox is used, reserved once there are rows so that ticking the first one moves
// no row under the pointer.
import { Text } from '@mantine/core';
import { Suspense, lazy } from 'react';
import type { PageMeta } from '@/contract/domain';
import { rangeText } from '@/components/list-pagination';
import type { BulkAreaProps } from './bulk/bulk-area';
import bar from './list-bar.module.css';

// What works on a selection loads when a person first reaches for a checkbox.
export const loadBulkArea = () => import('./bulk/bulk-area');
const BulkArea = lazy(() => loadBulkArea().then((module) => ({ default: module.BulkArea })));

export interface ListBarProps extends Omit<BulkAreaProps, 'range'> {
  /** The page of the list on screen, once there is one. */
  meta: PageMeta | undefined;
  /** A checkbox was used (or a bulk delete shows): the Selection toolbar is loaded. */
  bulkUsed: boolean;
}

export function ListBar({ meta, bulkUsed, ...bulk }: ListBarProps) {
  const range = meta !== undefined && meta.total > 0 && (
    <Text size="sm" c="dimmed" aria-live="polite">
      {rangeText(meta, 'reports')}
    </Text>
  );
  if (bulkUsed)
    return (
      <Suspense fallback={<div className={bar.bar}>{range}</div>}>
        <BulkArea {...bulk} range={range} />
      </Suspense>
    );
  return range ? <div className={bar.bar}>{range}</div> : null;
}
