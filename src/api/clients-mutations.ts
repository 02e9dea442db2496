// Labels and clients: the writes (add, rename and delete a client; a project's label and client),
// each refreshing what shows or filters by them. Apart from clients.ts (see there).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Project } from '@/contract/domain';
import { clientEnvelope, clientKeys, projectEnvelope } from './clients';
import { apiRequest } from './http/http';
import { projectKeys, reportKeys } from './query-keys';

const anyBody = z.unknown();

/**
 * After a change to clients or a project's label or client: the clients (their project counts), every
 * projects list and project (they show both) and the reports lists (filtered by client).
 */
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: clientKeys.all() }),
      queryClient.invalidateQueries({ queryKey: projectKeys.all() }),
      queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
      // watchKeys.all() and problemKeys.all() (filtered by client), named here so that this module
      // does not bring those modules with it.
      queryClient.invalidateQueries({ queryKey: ['watch'] }),
      queryClient.invalidateQueries({ queryKey: ['problems'] }),
    ]).then(() => undefined);
}

/** POST /clients */
export function useAddClient() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (name: string) => apiRequest({ method: 'POST', path: ['clients'], form: { name: name.trim() } }, clientEnvelope),
    onSuccess: refresh,
  });
}

/** PATCH /clients/{id} */
export function useRenameClient() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      apiRequest({ method: 'PATCH', path: ['clients', id], form: { name: name.trim() } }, clientEnvelope),
    onSuccess: refresh,
  });
}

/** DELETE /clients/{id}: its projects stay, without a client. */
export function useDeleteClient() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (id: number) => apiRequest({ method: 'DELETE', path: ['clients', id] }, anyBody).then(() => undefined),
    onSuccess: refresh,
  });
}

export interface ProjectDetailsInput {
  /** Empty: none. */
  label: string;
  /** null: in no client. undefined: left as it is (a deployment without clients). */
  clientId?: number | null;
}

/** PATCH /projects/{project} (label) and PUT /projects/{project}/client, only what changed. */
export function useSaveProjectDetails(project: Project) {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: async (input: ProjectDetailsInput) => {
      const label = input.label.trim();
      if (label !== (project.label ?? ''))
        await apiRequest({ method: 'PATCH', path: ['projects', project.name], form: { label } }, projectEnvelope);
      if (input.clientId !== undefined && input.clientId !== (project.client?.id ?? null))
        await apiRequest(
          { method: 'PUT', path: ['projects', project.name, 'client'], form: { client_id: input.clientId === null ? '' : String(input.clientId) } },
          projectEnvelope,
        );
    },
    onSettled: refresh,
  });
}
