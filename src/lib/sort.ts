import { firstSortOrder } from '@/contract/values';
import type { ServerProjectSortKey, ServerReportSortKey, SortOrder } from '@/contract/values';

type SortKey = ServerReportSortKey | ServerProjectSortKey;

/**
 * The sort after a click on `key`'s column header: the same key again reverses the order; another
 * key starts in its natural order (firstSortOrder), as choosing it in Sort by does.
 */
export function sortAfterClick<K extends SortKey>(
  current: { sort_by: K; sort: SortOrder },
  key: K,
): { sort_by: K; sort: SortOrder } {
  if (key === current.sort_by) return { sort_by: key, sort: current.sort === 'asc' ? 'desc' : 'asc' };
  return { sort_by: key, sort: firstSortOrder(key) };
}
