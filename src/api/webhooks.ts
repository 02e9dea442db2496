// The Webhooks extension (api-contract.md, Webhooks): the webhooks, adding one (its secret shown
// once), deleting one, a test message, and each webhook's recent deliveries. Apart from the other
// resources, so that only the settings page's Webhooks section downloads it.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest } from './http/http';
import { pageSchema, reportFields } from './lenient-schemas';
import type { Page } from '@/contract/domain';

export interface Webhook {
  id: number;
  url: string;
  /** null: every project's alerts. */
  project: string | null;
  /** One message per project run (`alerts.raised`) rather than one per alert; false where the server does not say. */
  batch: boolean;
  createdAt: Date | null;
}

export interface NewWebhook extends Webhook {
  /** The signing secret: in this answer only. */
  secret: string;
}

export interface Delivery {
  id: number;
  event: string;
  attempt: number;
  status: 'pending' | 'delivered' | 'failed';
  /** When it is (or was) due. */
  dueAt: Date | null;
  attemptedAt: Date | null;
  answerStatus: number | null;
  error: string | null;
}

const id = reportFields.id;
const webhookObject = z.object({
  id,
  url: z.string(),
  project: z.nullish(z.string()),
  batch: z.optional(z.unknown()),
  created_at: reportFields.created_at,
});
type WebhookFields = z.output<typeof webhookObject>;
const toWebhook = (w: WebhookFields): Webhook => ({
  id: w.id,
  url: w.url,
  project: w.project ?? null,
  batch: w.batch === true || w.batch === 1 || w.batch === '1',
  createdAt: w.created_at,
});

/** Webhooks per page of the settings page's list. */
export const WEBHOOKS_PER_PAGE = 25;

/** A list without paging (the reference server before issue 44 sent every webhook at once): one page of all. */
function wholeList(items: WebhookFields[]): Page<WebhookFields> {
  const total = items.length;
  return { items, meta: { currentPage: 1, lastPage: 1, perPage: Math.max(total, 1), total, from: total ? 1 : null, to: total || null } };
}

const webhookPageSchema = z.pipe(
  z.union([pageSchema(webhookObject), z.pipe(z.object({ data: z.array(webhookObject) }), z.transform(({ data }: { data: WebhookFields[] }) => wholeList(data)))]),
  z.transform((page: Page<WebhookFields>): Page<Webhook> => ({ ...page, items: page.items.map(toWebhook) })),
);

const newWebhookSchema = z.pipe(
  z.object({ data: z.extend(webhookObject, { secret: z.string().check(z.minLength(1)) }) }),
  z.transform(({ data }: { data: WebhookFields & { secret: string } }): NewWebhook => ({ ...toWebhook(data), secret: data.secret })),
);

const deliveryObject = z.object({
  id,
  event: z.string(),
  attempt: z.number(),
  status: z.enum(['pending', 'delivered', 'failed']),
  next_attempt_at: reportFields.generated_at,
  attempted_at: reportFields.generated_at,
  answer_status: z.nullish(z.number()),
  error: z.nullish(z.string()),
});
type DeliveryFields = z.output<typeof deliveryObject>;
const toDelivery = (d: DeliveryFields): Delivery => ({
  id: d.id,
  event: d.event,
  attempt: d.attempt,
  status: d.status,
  dueAt: d.next_attempt_at,
  attemptedAt: d.attempted_at,
  answerStatus: d.answer_status ?? null,
  error: d.error ?? null,
});
const deliveryPageSchema = z.pipe(pageSchema(deliveryObject), z.transform((page: Page<DeliveryFields>): Page<Delivery> => ({ ...page, items: page.items.map(toDelivery) })));
const testSchema = z.pipe(z.object({ data: deliveryObject }), z.transform(({ data }: { data: DeliveryFields }) => toDelivery(data)));
const anyBody = z.unknown();

/** How many of a webhook's newest deliveries the settings page shows. */
export const RECENT_DELIVERIES = 10;

export const webhookKeys = {
  all: () => ['webhooks'] as const,
  /** Every page of the list. */
  list: () => [...webhookKeys.all(), 'list'] as const,
  deliveries: (webhookId: number) => [...webhookKeys.all(), 'deliveries', webhookId] as const,
};

export const webhookQueries = {
  list: (page: number) =>
    queryOptions({
      queryKey: [...webhookKeys.list(), page] as const,
      queryFn: ({ signal }) => apiRequest({ path: ['webhooks'], query: { page, per_page: WEBHOOKS_PER_PAGE }, signal }, webhookPageSchema),
    }),
  deliveries: (webhookId: number) =>
    queryOptions({
      queryKey: webhookKeys.deliveries(webhookId),
      queryFn: ({ signal }) =>
        apiRequest({ path: ['webhooks', webhookId, 'deliveries'], query: { per_page: RECENT_DELIVERIES }, signal }, deliveryPageSchema),
      // While a delivery is pending, its outcome is what the person waits for: asked again until known.
      refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'pending') ? 2000 : false),
    }),
};

/** POST /webhooks; the answer carries the secret, which is shown once and kept nowhere. */
export function useAddWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; project: string | null; batch?: boolean }) =>
      apiRequest(
        { method: 'POST', path: ['webhooks'], form: { url: input.url, project: input.project, batch: input.batch ? 1 : undefined } },
        newWebhookSchema,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: number) => apiRequest({ method: 'DELETE', path: ['webhooks', webhookId] }, anyBody),
    onSuccess: (_data, webhookId) => {
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(webhookId) });
      return queryClient.invalidateQueries({ queryKey: webhookKeys.list() });
    },
  });
}

/** POST /webhooks/{id}/test: queued (202); the log shows how it went. */
export function useSendTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: number) => apiRequest({ method: 'POST', path: ['webhooks', webhookId, 'test'] }, testSchema),
    onSuccess: (_data, webhookId) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }),
  });
}
