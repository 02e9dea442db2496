// The watch extensions' writes with their cache work: a schedule saved, Run now, alerts marked read.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { projectKeys } from './query-keys';
import { markAlert, markAllAlerts, runSchedule, saveSchedule, watchKeys, watchQueries } from './watch';
import type { Alert, AlertPage, ScheduleInput } from './watch';

/** Saves a project's schedule; the answer becomes the cached schedule, project lists (their Watch column) refetch. */
export function useSaveSchedule(project: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => saveSchedule(project, input),
    onSuccess: (schedule) => {
      queryClient.setQueryData(watchQueries.schedule(project).queryKey, schedule);
      return queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
}

/** Run now: every report of the project analysed again, as a scheduled run. */
export function useRunSchedule(project: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => runSchedule(project),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: watchQueries.schedule(project).queryKey }),
        queryClient.invalidateQueries({ queryKey: watchKeys.alerts() }),
      ]),
  });
}

function withAlert(page: AlertPage | undefined, alert: Alert): AlertPage | undefined {
  if (!page) return page;
  return { ...page, items: page.items.map((item) => (item.id === alert.id ? alert : item)) };
}

/** Marks one alert read (or unread); its rows show it at once, the lists and the unread count refetch. */
export function useMarkAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => markAlert(id, read),
    onSuccess: (alert) => {
      queryClient.setQueriesData<AlertPage>({ queryKey: watchKeys.alertLists() }, (page) => withAlert(page, alert));
      return queryClient.invalidateQueries({ queryKey: watchKeys.alerts() });
    },
  });
}

/**
 * Marks these alerts read (a group of one run's alerts, from its card): each row shows it as its
 * answer comes, and the lists and the unread count refetch once, when all are done.
 */
export function useMarkAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly number[]) =>
      Promise.all(
        ids.map((id) =>
          markAlert(id, true).then((alert) => {
            queryClient.setQueriesData<AlertPage>({ queryKey: watchKeys.alertLists() }, (page) => withAlert(page, alert));
            return alert;
          }),
        ),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchKeys.alerts() }),
  });
}

/** Marks every alert (of `project`) read; every alert list and the unread count refetch. */
export function useMarkAllAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scope: { project?: string; client?: number } = {}) => markAllAlerts(scope.project, scope.client),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: watchKeys.alerts() }),
  });
}
