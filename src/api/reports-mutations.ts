// Reports: the mutations with their cache work (the fetchers and queries are in reports.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { withoutItems } from './hidden-rows';
import { projectKeys, reportKeys, watchKeys } from './query-keys';
import { createReport, deleteReport, reportQueries, updateReport } from './reports';
import type { CreateReportInput, UpdateReportInput } from './reports';
import type { Page, Report } from '@/contract/domain';

/** Creates a report; its detail is cached at once (the next screen opens it), lists refetch. */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReportInput) => createReport(input),
    onSuccess: (report) => {
      queryClient.setQueryData(reportQueries.detail(report.id).queryKey, report);
      return refetchAllLists(queryClient);
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
    onSuccess: (report, input) =>
      Promise.all([
        keepChangedReport(queryClient, report),
        queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
        // New results change the project's health and its failing checks.
        input.refreshResults && queryClient.invalidateQueries({ queryKey: projectKeys.site(report.project) }),
        // ... and may raise (or recover) an alert: the alerts and the navigation's unread count follow at once.
        input.refreshResults && queryClient.invalidateQueries({ queryKey: watchKeys.alerts() }),
      ]),
  });
}

/**
 * A report as the service answered a change to it: its cached detail, and its row in every cached
 * list, show it at once (lists still refetch: a new result may move it in a sorted or filtered view).
 */
export function keepChangedReport(queryClient: QueryClient, report: Report): void {
  const { queryKey } = reportQueries.detail(report.id);
  const previous = queryClient.getQueryData(queryKey);
  queryClient.setQueryData(queryKey, report);
  // A new analysis is a new run: the history refetches (a privacy change leaves it alone).
  if (!previous || previous.runs !== report.runs || !sameTime(previous.generatedAt, report.generatedAt))
    void queryClient.invalidateQueries({ queryKey: reportKeys.runs(report.id) });
  queryClient.setQueriesData<Page<Report>>({ queryKey: reportKeys.lists() }, (page) => {
    if (!page?.items.some((item) => item.id === report.id)) return page;
    return { ...page, items: page.items.map((item) => (item.id === report.id ? report : item)) };
  });
}

/** A report that is gone: its detail forgotten, its row out of every cached list at once. */
export async function forgetDeletedReport(queryClient: QueryClient, id: number): Promise<void> {
  const { queryKey } = reportQueries.detail(id);
  await queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.removeQueries({ queryKey, exact: true });
  queryClient.removeQueries({ queryKey: reportKeys.runs(id) });
  // Lists not on screen are only marked stale: without this, the next visit would show the
  // deleted row until the refetch came back.
  queryClient.setQueriesData<Page<Report>>({ queryKey: reportKeys.lists() }, (page) =>
    page ? withoutItems(page, (report) => report.id !== id) : page,
  );
}

/**
 * After reports came, went or were analysed again: every list of reports and of projects (their
 * counts) refetches, and what is known of each project's site (health, failing checks).
 */
export function refetchAllLists(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: projectKeys.sites() }),
    // An analysis may have raised an alert: the unread count follows.
    queryClient.invalidateQueries({ queryKey: watchKeys.alerts() }),
  ]);
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return a?.getTime() === b?.getTime();
}

/** Deletes a report: gone from its detail and every cached list at once; lists and projects refetch. */
export function useDeleteReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteReport(id),
    onSuccess: async (_data, id) => {
      await forgetDeletedReport(queryClient, id);
      await refetchAllLists(queryClient);
    },
  });
}
