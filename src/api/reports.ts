// Reports: fetchers, the query factory and the mutations with their cache work.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PER_PAGE } from './contract';
import type { PerPage, Privacy, ReportSortKey, Result, SortOrder } from './contract';
import { apiRequest } from './http';
import { projectKeys, reportKeys } from './query-keys';
import { deletedSchema, reportEnvelopeSchema, reportPageSchema } from './schemas';
import type { Page, Report } from './schemas';

export interface ReportListParams {
  search?: string;
  search_by?: 'url';
  project?: string;
  result?: Result;
  sort_by?: ReportSortKey;
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
  if (params.project) out.project = params.project;
  if (params.result) out.result = params.result;
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
    });
  },
  detail: (id: number) =>
    queryOptions({
      queryKey: [...reportKeys.details(), id] as const,
      queryFn: ({ signal }) => fetchReport(id, signal),
    }),
};

/** Creates a report; its detail is cached at once (the next screen opens it), lists refetch. */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReportInput) => createReport(input),
    onSuccess: (report) => {
      queryClient.setQueryData(reportQueries.detail(report.id).queryKey, report);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
      ]);
    },
  });
}

/**
 * Updates a report; the answer becomes its cached detail, lists refetch (result, date may change).
 * A privacy change shows in the cached detail at once and is rolled back if the service refuses it.
 */
export function useUpdateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateReportInput) => updateReport(input),
    onMutate: async (input) => {
      if (input.privacy === undefined) return { previous: undefined };
      const { queryKey } = reportQueries.detail(input.id);
      await queryClient.cancelQueries({ queryKey, exact: true });
      const previous = queryClient.getQueryData(queryKey);
      if (previous) {
        // Leaving privacy 2 discards the stored password; entering it stores the one given.
        const hasPassword =
          input.privacy === 2 ? input.password !== undefined || previous.hasPassword : false;
        queryClient.setQueryData(queryKey, { ...previous, privacy: input.privacy, hasPassword });
      }
      return { previous };
    },
    onError: (_error, input, context) => {
      if (context?.previous)
        queryClient.setQueryData(reportQueries.detail(input.id).queryKey, context.previous);
    },
    onSuccess: (report) => {
      queryClient.setQueryData(reportQueries.detail(report.id).queryKey, report);
      return queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
    },
  });
}

function withoutReport(page: Page<Report>, id: number): Page<Report> {
  const items = page.items.filter((report) => report.id !== id);
  if (items.length === page.items.length) return page;
  const total = Math.max(0, page.meta.total - 1);
  const from = items.length === 0 ? null : page.meta.from;
  const to = items.length === 0 || page.meta.to === null ? null : page.meta.to - 1;
  const lastPage = Math.max(1, Math.ceil(total / page.meta.perPage));
  return { items, meta: { ...page.meta, total, from, to, lastPage } };
}

/** Deletes a report: gone from its detail and every cached list at once; lists and projects refetch. */
export function useDeleteReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteReport(id),
    onSuccess: async (_data, id) => {
      const { queryKey } = reportQueries.detail(id);
      await queryClient.cancelQueries({ queryKey, exact: true });
      queryClient.removeQueries({ queryKey, exact: true });
      // Lists not on screen are only marked stale: without this, the next visit would show the
      // deleted row until the refetch came back.
      queryClient.setQueriesData<Page<Report>>({ queryKey: reportKeys.lists() }, (page) =>
        page ? withoutReport(page, id) : page,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
      ]);
    },
  });
}
