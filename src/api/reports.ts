// Reports: fetchers and the query factory. The mutations are in reports-mutations.ts, so that a page
// that only reads (the list) does not download React Query's mutation code with them.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { DEFAULT_PER_PAGE } from '@/contract/values';
import type { PerPage, Privacy, Result, ServerReportSortKey, SortOrder } from '@/contract/values';
import { apiRequest } from './http/http';
import { withoutHeldReports, shareOnce } from './hidden-rows';
import { reportKeys } from './query-keys';
import { deletedSchema, reportEnvelopeSchema, reportPageSchema } from '@/api/lenient-schemas';
import type { Page, Report } from '@/contract/domain';

export interface ReportListParams {
  search?: string;
  search_by?: 'url';
  /** The exact-URL filter (an extension, where capabilities.url_filter; several URLs where url_filter_many). */
  url?: string | readonly string[];
  project?: string;
  result?: Result;
  /** Only the reports failing this check (an extension, where capabilities.failing_filter). */
  failing?: string;
  /** Only the reports of this client's projects (an extension, where capabilities.clients). */
  client?: number;
  /** 1: only the reports whose page is gone, 0: only the others (an extension, where capabilities.sitemap_follow). */
  gone?: 0 | 1;
  /** Only the reports of these ids, an id list (`12-40,45`: an extension, where capabilities.ids_filter). */
  ids?: string;
  /** `score` only where the deployment announces `sort_by_score`. */
  sort_by?: ServerReportSortKey;
  sort?: SortOrder;
  per_page?: PerPage;
  page?: number;
}

export interface CreateReportInput {
  url: string;
  privacy?: Privacy;
  /** Sent only with privacy 2, the only case where it means anything. */
  password?: string;
}

export interface UpdateReportInput {
  id: number;
  privacy?: Privacy;
  password?: string;
  /** Ask the service to fetch and analyse the page again. */
  refreshResults?: boolean;
}

/**
 * The params as sent and as keyed: empty values dropped, `per_page` always present (a deployment's
 * own default may differ from the contract's), page 1 left implicit. Equal views share one cache entry.
 */
export function normaliseReportListParams(params: ReportListParams = {}): ReportListParams {
  const out: ReportListParams = { per_page: params.per_page ?? DEFAULT_PER_PAGE };
  if (params.search) out.search = params.search;
  if (params.search_by) out.search_by = params.search_by;
  if (params.url !== undefined && params.url.length > 0) out.url = params.url;
  if (params.project) out.project = params.project;
  if (params.result) out.result = params.result;
  if (params.failing) out.failing = params.failing;
  if (params.client) out.client = params.client;
  if (params.gone !== undefined) out.gone = params.gone;
  if (params.ids) out.ids = params.ids;
  if (params.sort_by) out.sort_by = params.sort_by;
  if (params.sort) out.sort = params.sort;
  if (params.page !== undefined && params.page > 1) out.page = params.page;
  return out;
}

/** GET /reports */
export function fetchReports(params: ReportListParams = {}, signal?: AbortSignal): Promise<Page<Report>> {
  return apiRequest(
    { path: ['reports'], query: { ...normaliseReportListParams(params) }, signal },
    reportPageSchema,
  );
}

/** GET /reports/{id} */
export function fetchReport(id: number, signal?: AbortSignal): Promise<Report> {
  return apiRequest({ path: ['reports', id], signal }, reportEnvelopeSchema);
}

/** POST /reports; the service analyses the page before answering, so this takes seconds. */
export function createReport(input: CreateReportInput, signal?: AbortSignal): Promise<Report> {
  const privacy = input.privacy ?? 0;
  return apiRequest(
    {
      method: 'POST',
      path: ['reports'],
      form: { url: input.url, privacy, password: privacy === 2 ? input.password : undefined },
      signal,
    },
    reportEnvelopeSchema,
  );
}

/** PATCH /reports/{id} with only the fields being changed. */
export function updateReport(input: UpdateReportInput, signal?: AbortSignal): Promise<Report> {
  // A password only means something for privacy 2 (now or already stored); never send it otherwise.
  const sendPassword = input.password !== undefined && (input.privacy === undefined || input.privacy === 2);
  return apiRequest(
    {
      method: 'PATCH',
      path: ['reports', input.id],
      form: {
        privacy: input.privacy,
        password: sendPassword ? input.password : undefined,
        results: input.refreshResults ? 1 : undefined,
      },
      signal,
    },
    reportEnvelopeSchema,
  );
}

/** DELETE /reports/{id} */
export function deleteReport(id: number, signal?: AbortSignal): Promise<void> {
  return apiRequest({ method: 'DELETE', path: ['reports', id], signal }, deletedSchema);
}

export const reportQueries = {
  ...reportKeys,
  list: (params: ReportListParams = {}) => {
    const normalised = normaliseReportListParams(params);
    return queryOptions({
      queryKey: [...reportKeys.lists(), normalised] as const,
      queryFn: ({ signal }) => fetchReports(normalised, signal),
      placeholderData: keepPreviousData,
      // Reports held for deletion (Undo still possible) are left out, and back at once on Undo.
      select: withoutHeldReports,
      structuralSharing: shareOnce,
    });
  },
  detail: (id: number) =>
    queryOptions({
      queryKey: [...reportKeys.details(), id] as const,
      queryFn: ({ signal }) => fetchReport(id, signal),
    }),
};
