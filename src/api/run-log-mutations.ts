// The run log's writes with their cache work: a run started (Run now, Refresh all reports on a
// server with the run log) and a run cancelled. What a run changes once it ends is refetched by
// whoever watches it end (useRunEnded).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { projectKeys, reportKeys } from './query-keys';
import { cancelRun, runLogKeys, startRun } from './run-log';
import type { ProjectRun, RunStarted } from './run-log';
import type { Page } from '@/contract/domain';
import { watchKeys, watchQueries } from './watch';

/** Puts `run` first in the project's cached runs (replacing its older copy). */
function withRun(page: Page<ProjectRun> | undefined, run: ProjectRun): Page<ProjectRun> | undefined {
  if (!page) return page;
  const known = page.items.some((item) => item.id === run.id);
  const items = known ? page.items.map((item) => (item.id === run.id ? run : item)) : [run, ...page.items];
  return { ...page, items, meta: { ...page.meta, total: page.meta.total + (known ? 0 : 1) } };
}

/** Run now: every report of the project analysed again by the server; the run shows in the run log at once. */
export function useStartRun(project: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startRun(project),
    onSuccess: (started: RunStarted) => {
      if (started.run) {
        const run = started.run;
        queryClient.setQueryData<Page<ProjectRun>>(runLogKeys.runs(project), (page) => withRun(page, run));
      }
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: runLogKeys.runs(project) }),
        queryClient.invalidateQueries({ queryKey: watchQueries.schedule(project).queryKey }),
      ]);
    },
  });
}

export function useCancelRun(project: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => cancelRun(project, id),
    onSuccess: (run) => {
      queryClient.setQueryData<Page<ProjectRun>>(runLogKeys.runs(project), (page) => withRun(page, run));
    },
  });
}

/**
 * When a run of the project that was seen running has ended: what it changed (the project's health
 * and reports, its schedule's Last run, the alerts) is asked again, once.
 */
export function useRunEnded(project: string, runs: readonly ProjectRun[] | undefined) {
  const queryClient = useQueryClient();
  const running = useRef(new Set<number>());
  useEffect(() => {
    if (!runs) return;
    let ended = false;
    for (const run of runs) {
      if (run.state === 'running') running.current.add(run.id);
      else if (running.current.delete(run.id)) ended = true;
    }
    if (!ended) return;
    void queryClient.invalidateQueries({ queryKey: projectKeys.site(project), predicate: (query) => query.queryKey[3] !== 'runs' });
    void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: reportKeys.all() });
    void queryClient.invalidateQueries({ queryKey: watchQueries.schedule(project).queryKey });
    void queryClient.invalidateQueries({ queryKey: watchKeys.alerts() });
  }, [project, queryClient, runs]);
}
