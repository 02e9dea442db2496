// Labels and clients (api-contract.md, Overview, labels and clients; extensions `project_labels` and
// `clients`): the clients, a project's label and client, and the writes with their cache work. Apart
// from projects.ts, so that only the pages that show or change them download it.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Page, Project } from '@/contract/domain';
import { apiRequest } from './http/http';
import { pageSchema, projectSchema, reportFields } from './lenient-schemas';
import { projectKeys, reportKeys } from './query-keys';

export interface Client {
  id: number;
  name: string;
  /** How many projects are for it. */
  projects: number;
  createdAt: Date | null;
}

const clientObject = z.object({
  id: reportFields.id,
  name: z.string().check(z.minLength(1)),
  projects: z.optional(z.unknown()),
  created_at: reportFields.created_at,
});
type ClientFields = z.output<typeof clientObject>;

const toClient = (c: ClientFields): Client => ({
  id: c.id,
  name: c.name,
  projects: typeof c.projects === 'number' && Number.isInteger(c.projects) && c.projects >= 0 ? c.projects : 0,
  createdAt: c.created_at,
});

const clientPageSchema = z.pipe(
  pageSchema(clientObject),
  z.transform((page: Page<ClientFields>): Page<Client> => ({ ...page, items: page.items.map(toClient) })),
);
const clientEnvelope = z.pipe(
  z.object({ data: clientObject }),
  z.transform(({ data }: { data: ClientFields }) => toClient(data)),
);
const projectEnvelope = z.pipe(
  z.object({ data: projectSchema }),
  z.transform(({ data }: { data: Project }) => data),
);
const anyBody = z.unknown();

/** Clients per page of Settings' list, and how many a Client field offers (the first, by name). */
export const CLIENTS_PER_PAGE = 100;

export const clientKeys = {
  all: () => ['clients'] as const,
  lists: () => [...clientKeys.all(), 'list'] as const,
};

export const clientQueries = {
  /** A page of the clients, by name. */
  list: (page = 1) =>
    queryOptions({
      queryKey: [...clientKeys.lists(), page] as const,
      queryFn: ({ signal }) =>
        apiRequest({ path: ['clients'], query: { per_page: CLIENTS_PER_PAGE, page: page > 1 ? page : undefined }, signal }, clientPageSchema),
      placeholderData: keepPreviousData,
    }),
  /** One project with its label and client (GET /projects/{project}, a deployment with labels). */
  project: (name: string) =>
    queryOptions({
      queryKey: [...projectKeys.all(), 'one', name] as const,
      queryFn: ({ signal }) => apiRequest({ path: ['projects', name], signal }, projectEnvelope),
    }),
};

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
