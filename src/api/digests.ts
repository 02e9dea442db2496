// Digests (issue 48; api-contract.md, Digests): the settings, a preview of the next digest, and
// Send now. Apart from the other resources, so that only Settings' Digests section downloads it.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { ScheduleEvery } from '@/contract/values';
import { apiRequest } from './http/http';
import { reportFields } from './lenient-schemas';

export interface DigestSend {
  id: number;
  kind: 'scheduled' | 'manual';
  since: Date | null;
  until: Date | null;
  /** pending: to send (again) at nextAttemptAt; sent; failed: given up. */
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** How many addresses it goes to. */
  recipients: number;
  webhook: boolean;
  attemptedAt: Date | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
  error: string | null;
}

export interface DigestSettings {
  every: ScheduleEvery;
  /** 0-23, UTC. */
  hour: number;
  /** 0-6, Sunday 0, UTC; null unless weekly. */
  weekday: number | null;
  /** Comma-separated. */
  recipients: string;
  webhook: boolean;
  /** Whether the server can send e-mail (it has SMTP_URL). */
  mail: boolean;
  /** How many webhooks receive the digest (those for every project); null: not said. */
  webhookReceivers: number | null;
  nextAt: Date | null;
  lastSentAt: Date | null;
  /** The newest digest made, whatever its state. */
  last: DigestSend | null;
}

export interface DigestInput {
  every: ScheduleEvery;
  hour: number;
  weekday: number | null;
  recipients: string;
  webhook: boolean;
}

const timestamp = reportFields.generated_at;
const count = z.catch(z.number(), 0);
const text = z.catch(z.string(), '');

const sendObject = z.object({
  id: reportFields.id,
  kind: z.catch(z.enum(['scheduled', 'manual']), 'manual'),
  since: timestamp,
  until: timestamp,
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: count,
  recipients: count,
  webhook: z.catch(z.boolean(), false),
  attempted_at: timestamp,
  next_attempt_at: timestamp,
  sent_at: timestamp,
  error: z.nullish(z.string()),
});
type SendFields = z.output<typeof sendObject>;
const toSend = (s: SendFields): DigestSend => ({
  id: s.id,
  kind: s.kind,
  since: s.since,
  until: s.until,
  status: s.status,
  attempts: s.attempts,
  recipients: s.recipients,
  webhook: s.webhook,
  attemptedAt: s.attempted_at,
  nextAttemptAt: s.next_attempt_at,
  sentAt: s.sent_at,
  error: s.error ?? null,
});

const settingsObject = z.object({
  every: z.catch(z.enum(['off', 'daily', 'weekly']), 'off'),
  hour: z.catch(z.number(), 8),
  weekday: z.catch(z.nullable(z.number()), null),
  recipients: text,
  webhook: z.catch(z.union([z.literal(0), z.literal(1), z.boolean()]), 0),
  mail: z.catch(z.boolean(), false),
  webhook_receivers: z.catch(z.nullable(z.number()), null),
  next_at: timestamp,
  last_sent_at: timestamp,
  last: z.nullish(sendObject),
});
type SettingsFields = z.output<typeof settingsObject>;
const settingsSchema = z.pipe(
  z.object({ data: settingsObject }),
  z.transform(({ data: d }: { data: SettingsFields }): DigestSettings => ({
    every: d.every,
    hour: d.hour,
    weekday: d.weekday,
    recipients: d.recipients,
    webhook: d.webhook === 1 || d.webhook === true,
    mail: d.mail,
    webhookReceivers: d.webhook_receivers,
    nextAt: d.next_at,
    lastSentAt: d.last_sent_at,
    last: d.last ? toSend(d.last) : null,
  })),
);
const sendSchema = z.pipe(z.object({ data: sendObject }), z.transform(({ data }: { data: SendFields }) => toSend(data)));

const page = z.object({ report_id: reportFields.id, url: z.string(), project: z.string() });
const problem = z.object({ project: z.string(), check: z.string(), name: text, pages: count });
const list = <T extends z.ZodMiniType>(item: T) => z.catch(z.array(item), []);

const digestSchema = z.pipe(
  z.object({
    data: z.object({
      since: timestamp,
      until: timestamp,
      projects: list(
        z.object({
          project: z.string(),
          new_problems: count,
          fixed_problems: count,
          drops: count,
          alerts: count,
          new_pages: count,
          gone_pages: count,
        }),
      ),
      new_problems: list(problem),
      fixed_problems: list(problem),
      drops: list(z.object({ report_id: reportFields.id, url: z.string(), project: z.string(), before: count, after: count })),
      alerts: list(z.object({ id: reportFields.id, report_id: reportFields.id, url: z.string(), project: z.string(), kind: text, before_score: count, after_score: count })),
      new_pages: list(page),
      gone_pages: list(page),
    }),
  }),
  z.transform(({ data }) => data),
);
export type Digest = z.output<typeof digestSchema>;

export const digestKeys = {
  all: () => ['digests'] as const,
  settings: () => [...digestKeys.all(), 'settings'] as const,
  preview: () => [...digestKeys.all(), 'preview'] as const,
};

export const digestQueries = {
  settings: () =>
    queryOptions({
      queryKey: digestKeys.settings(),
      queryFn: ({ signal }) => apiRequest({ path: ['digests'], signal }, settingsSchema),
      // While the last digest waits for a retry, its outcome is what the person looks for.
      refetchInterval: (query) => (query.state.data?.last?.status === 'pending' ? 30_000 : false),
    }),
  preview: () =>
    queryOptions({
      queryKey: digestKeys.preview(),
      queryFn: ({ signal }) => apiRequest({ path: ['digests', 'preview'], signal }, digestSchema),
      staleTime: 0,
    }),
};

/** PUT /digests: every field at once. */
export function useSaveDigests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DigestInput) =>
      apiRequest(
        {
          method: 'PUT',
          path: ['digests'],
          form: {
            every: input.every,
            hour: input.hour,
            ...(input.weekday === null ? {} : { weekday: input.weekday }),
            recipients: input.recipients,
            webhook: input.webhook ? 1 : 0,
          },
        },
        settingsSchema,
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(digestKeys.settings(), saved);
      return queryClient.invalidateQueries({ queryKey: digestKeys.preview() });
    },
  });
}

/** POST /digests/send: the digest made now, after its first attempt. */
export function useSendDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest({ method: 'POST', path: ['digests', 'send'] }, sendSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: digestKeys.all() }),
  });
}
