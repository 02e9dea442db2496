// Labels and clients (api-contract.md, Overview, labels and clients; extensions `project_labels` and
// `clients`): the clients and a project's label and client. The writes, with their cache work, are in
// clients-mutations.ts, so that a list's Client filter does not bring React Query's mutation code.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Page, Project } from '@/contract/domain';
import { apiRequest } from './http/http';
import { pageSchema, projectSchema, reportFields } from './lenient-schemas';
import { projectKeys } from './query-keys';

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
export const clientEnvelope = z.pipe(
  z.object({ data: clientObject }),
  z.transform(({ data }: { data: ClientFields }) => toClient(data)),
);
export const projectEnvelope = z.pipe(
  z.object({ data: projectSchema }),
  z.transform(({ data }: { data: Project }) => data),
);

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

