// The Problems page's view as the URL holds it (under the API's own parameter names), and what the
// page asks the API for it: read by the page and by what starts its data with the navigation
// (src/app/page-data.ts), so both ask for the same cache entries.
import { PROBLEM_SORT_KEYS } from '@/contract/values';
import type { ProblemSortKey } from '@/contract/values';
import type { ProblemListParams } from '@/api/problems';
import { urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

export type ProblemsView = {
  project: string;
  /** A client's id (an extension: clients), 0 for every project. */
  client: number;
  /** `all`: Show ignored (the problems projects ignore too); empty: the open ones. */
  state: '' | 'all';
  sort_by: ProblemSortKey;
  page: number;
};

export const problemsView: UrlStateSpec<ProblemsView> = {
  params: {
    project: urlParam.text(),
    client: urlParam.page(),
    state: urlParam.oneOf(['all']),
    sort_by: urlParam.oneOf(PROBLEM_SORT_KEYS),
    // Every problem is on one page (there are at most as many as checks).
    page: urlParam.ignored(),
  },
  defaults: { project: '', client: 0, state: '', sort_by: 'impact', page: 1 },
};

/** What the API is asked for the view: the most impact and pages failing first, names A to Z. */
export function problemListParams(view: ProblemsView, withSettings: boolean): ProblemListParams {
  return {
    project: view.project || undefined,
    client: view.client || undefined,
    // Nothing is ignored where projects cannot ignore a check.
    state: withSettings && view.state === 'all' ? 'all' : 'open',
    sort_by: view.sort_by,
    sort: view.sort_by === 'check' ? 'asc' : 'desc',
  };
}
