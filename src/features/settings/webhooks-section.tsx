// Settings' Webhooks section (ui-contract.md, Watching): add a webhook (its signing secret shown
// once, with Copy), and per webhook Send test, Delete webhook <url> and its recent deliveries.
// Loaded only where the deployment has webhooks.
import '@mantine/core/styles/Table.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Checkbox, Group, NativeSelect, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { errorMessage, isApiError } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { projectQueries } from '@/api/projects';
import { useAddWebhook, useDeleteWebhook, useSendTest, webhookQueries, type Delivery, type NewWebhook, type Webhook } from '@/api/webhooks';
import { DateText } from '@/components/date-text';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import { ErrorState } from '@/components/error-state';
import { ShownOnce } from '@/components/copy-field';
import { ConfirmedButton } from '@/components/confirmed-button';
import { QueryStates } from './query-states';
import { SettingsSection } from './settings-section';
import { ShowMore } from './show-more';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:\/\//i.test(value) && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const webhookFormSchema = z.object({
  url: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter the address to send alerts to.' }),
      z.refine(isHttpUrl, { error: 'Enter an absolute http or https address, e.g. https://hooks.example.com/alerts.' }),
    ),
  project: z.string(),
  batch: z.boolean(),
});
type WebhookFormValues = z.output<typeof webhookFormSchema>;

const ALL_PROJECTS = '';

function AddWebhookForm({ onAdded }: { onAdded: (hook: NewWebhook) => void }) {
  const add = useAddWebhook();
  const projects = useQuery(projectQueries.list({ sort_by: 'project', sort: 'asc', per_page: 100 }));
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<WebhookFormValues>({ resolver: zodResolver(webhookFormSchema), defaultValues: { url: '', project: ALL_PROJECTS, batch: false } });

  const onSubmit = (values: WebhookFormValues) =>
    add.mutateAsync(
      { url: values.url, project: values.project === ALL_PROJECTS ? null : values.project, batch: values.batch },
      {
        onSuccess: (hook) => {
          reset();
          onAdded(hook);
          notifications.show({ color: 'teal', title: 'Webhook added', message: `Alerts will be sent to ${hook.url}.` });
        },
        onError: (error) => {
          const { placed } = placeFieldErrors(error, ['url', 'project'] as const, setError);
          if (placed.length === 0) notifications.show({ color: 'red', title: 'Webhook not added', message: errorMessage(error) });
        },
      },
    ).catch(() => undefined);

  const names = projects.data?.items.map((project) => project.name) ?? [];
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Add a webhook">
      <Stack gap="sm">
        <TextInput
          label="Webhook URL"
          description="Each alert is POSTed here as JSON, signed (Standard Webhooks)."
          placeholder="https://hooks.example.com/alerts"
          inputMode="url"
          spellCheck={false}
          error={errors.url?.message}
          {...register('url')}
        />
        <NativeSelect
          label="Project"
          description="Optional: only this project’s alerts. Every project’s when none is chosen."
          data={[{ value: ALL_PROJECTS, label: 'All projects' }, ...names.map((name) => ({ value: name, label: name }))]}
          error={errors.project?.message}
          {...register('project')}
        />
        <Checkbox
          label="One message per run"
          description="A run that finds several pages worse sends its alerts together, when it ends, rather than one message per page."
          {...register('batch')}
        />
        <Group>
          <Button type="submit" loading={add.isPending}>
            Add webhook
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SecretOnce({ hook, onDone }: { hook: NewWebhook; onDone: () => void }) {
  return (
    <ShownOnce title="Copy the signing secret now" label="Signing secret" value={hook.secret} onDone={onDone}>
      <Text size="sm">
        Receivers at {hook.url} check each message’s signature with this secret. It is shown this once and cannot be
        read again.
      </Text>
    </ShownOnce>
  );
}

const EVENT_WORDS: Record<string, string> = { 'alert.raised': 'Alert', 'alerts.raised': 'Alerts of a run', 'webhook.test': 'Test' };

function statusText(delivery: Delivery): string {
  if (delivery.status === 'delivered') return `Delivered, ${delivery.answerStatus ?? 'no status'}`;
  if (delivery.status === 'pending') return delivery.attempt > 1 ? 'Waiting to retry' : 'Sending';
  return delivery.error ? `Failed: ${delivery.error}` : 'Failed';
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const query = useQuery(webhookQueries.deliveries(webhook.id));
  if (query.isError) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} title="The deliveries could not be loaded." retrying={query.isFetching} />;
  }
  if (!query.data) return <Text size="sm" c="dimmed">Loading deliveries…</Text>;
  if (query.data.items.length === 0) return <Text size="sm" c="dimmed">Nothing sent yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table verticalSpacing={4} fz="sm" aria-label={`Recent deliveries to ${webhook.url}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Attempt</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {query.data.items.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>
                <DateText date={delivery.attemptedAt ?? delivery.dueAt} />
              </Table.Td>
              <Table.Td>{EVENT_WORDS[delivery.event] ?? delivery.event}</Table.Td>
              <Table.Td>{delivery.attempt}</Table.Td>
              <Table.Td>
                <Badge
                  variant="light"
                  color={delivery.status === 'delivered' ? 'teal' : delivery.status === 'failed' ? 'red' : 'gray'}
                  // The text colour, not the tint's: a light teal on its own tint is under 4.5:1 (axe).
                  c="var(--mantine-color-text)"
                  tt="none"
                  style={{ whiteSpace: 'normal', height: 'auto' }}
                >
                  {statusText(delivery)}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Why Send test was refused: the webhook's own limit (429 with Retry-After), or the error's words. */
function testRefusal(error: unknown): string {
  if (!isApiError(error) || error.kind !== 'rate-limited') return errorMessage(error);
  const wait = error.retryAfter === null ? 'shortly' : `in ${error.retryAfter} second${error.retryAfter === 1 ? '' : 's'}`;
  return `A webhook takes a few test messages a minute, and none while many of its messages wait to be sent. Try again ${wait}.`;
}

function WebhookItem({ webhook }: { webhook: Webhook }) {
  const sendTest = useSendTest();
  const remove = useDeleteWebhook();
  const [showLog, setShowLog] = useState(false);

  const onTest = () =>
    sendTest.mutate(webhook.id, {
      onSuccess: () => {
        setShowLog(true);
        notifications.show({ color: 'teal', title: 'Test sent', message: `A test message is on its way to ${webhook.url}.` });
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Test not sent', message: testRefusal(error) }),
    });
  const onDelete = (close: () => void) =>
    remove.mutate(webhook.id, {
      onSuccess: () => {
        close();
        notifications.show({ color: 'teal', title: 'Webhook deleted', message: `Nothing more is sent to ${webhook.url}.` });
      },
    });

  return (
    <Paper withBorder p="md" radius="md" component="li">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {webhook.url}
            </Text>
            <Text size="sm" c="dimmed">
              {webhook.project === null ? 'Every project’s alerts' : `Alerts of ${webhook.project}`}
              {webhook.batch ? ', one message per run' : ''}
            </Text>
          </div>
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconSend size={14} aria-hidden />} loading={sendTest.isPending} onClick={onTest}>
              Send test
            </Button>
            <ConfirmedButton
              label="Delete"
              name={`Delete webhook ${webhook.url}`}
              title={`Delete webhook ${webhook.url}?`}
              message={<Text size="sm">Alerts are no longer sent there, and its delivery log goes with it.</Text>}
              action={remove}
              onConfirm={onDelete}
            />
          </Group>
        </Group>
        <ShowMore what="recent deliveries" shown={showLog} onShownChange={setShowLog}><Deliveries webhook={webhook} /></ShowMore>
      </Stack>
    </Paper>
  );
}

export default function WebhooksSection() {
  const [page, setPage] = useState(1);
  const webhooks = useQuery({ ...webhookQueries.list(page), placeholderData: keepPreviousData });
  const [added, setAdded] = useState<NewWebhook | null>(null);
  // The last webhook of the last page deleted: the page before it.
  useClampPage(page, webhooks.data?.meta, setPage);
  return (
    <SettingsSection
      section="webhooks"
      description="The service POSTs every alert to these addresses, signed, and retries a failed delivery for up to 24 hours."
    >
      <AddWebhookForm onAdded={setAdded} />
      {added && <SecretOnce hook={added} onDone={() => setAdded(null)} />}
      <QueryStates
        query={webhooks}
        what="webhooks"
        isEmpty={(data) => data.meta.total === 0}
        empty="No webhooks yet."
      >
        {(data) => (
          <>
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Webhooks">
              {data.items.map((webhook) => (
                <WebhookItem key={webhook.id} webhook={webhook} />
              ))}
            </Stack>
            <ListPagination meta={data.meta} noun="webhooks" page={page} onPage={setPage} disabled={webhooks.isPlaceholderData} withRange={data.meta.lastPage > 1} />
          </>
        )}
      </QueryStates>
    </SettingsSection>
  );
}
