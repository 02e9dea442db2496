// Settings' Digests section (issue 48; ui-contract.md, Sharing and reporting): Off, Daily or Weekly,
// the hour (and day), the recipients, also as a webhook; Preview of the next digest, Send now with
// its outcome, and the last digest's state. Loaded only where the server has digests.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/List.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Checkbox, Group, List, NativeSelect, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconEye, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import * as z from 'zod/mini';
import { digestQueries, useSaveDigests, useSendDigest, type Digest, type DigestSend, type DigestSettings } from '@/api/digests';
import { errorMessage, isApiError } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { DateText } from '@/components/date-text';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import { parseRecipients } from '@/contract/recipients';
import { SCHEDULE_EVERY } from '@/contract/values';
import { formatAbsolute } from '@/lib/dates';
import { WEEKDAYS, utcHour } from '@/lib/schedule-text';
import { SettingsSection } from './settings-section';

const HOUR_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({ value: String(hour), label: utcHour(hour) }));
const DAY_OPTIONS = WEEKDAYS.map((day, index) => ({ value: String(index), label: day }));
export const NOWHERE_MESSAGE = 'Enter at least one e-mail address, or send the digest as a webhook.';

const digestFormSchema = z
  .object({
    every: z.enum(SCHEDULE_EVERY),
    hour: z.string(),
    weekday: z.string(),
    recipients: z.string(),
    webhook: z.boolean(),
  })
  .check((ctx) => {
    const parsed = parseRecipients(ctx.value.recipients);
    if (!parsed.ok) ctx.issues.push({ code: 'custom', message: parsed.error, input: ctx.value.recipients, path: ['recipients'] });
    else if (ctx.value.every !== 'off' && parsed.recipients.length === 0 && !ctx.value.webhook)
      ctx.issues.push({ code: 'custom', message: NOWHERE_MESSAGE, input: ctx.value.recipients, path: ['recipients'] });
  });
type DigestFormValues = z.output<typeof digestFormSchema>;
const FIELDS = ['every', 'hour', 'weekday', 'recipients', 'webhook'] as const;

function defaultsOf(settings: DigestSettings): DigestFormValues {
  return {
    every: settings.every,
    hour: String(settings.hour),
    weekday: String(settings.weekday ?? 1),
    recipients: settings.recipients,
    webhook: settings.webhook,
  };
}

function sendState(send: DigestSend): string {
  if (send.status === 'sent') return 'Sent';
  if (send.status === 'failed') return `Failed after ${send.attempts} attempts${send.error ? `: ${send.error}` : ''}`;
  return send.error ? `Not sent yet: ${send.error}` : 'Being sent';
}

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function When({ date }: { date: Date | null }) {
  if (date === null) return <>—</>;
  return (
    <>
      <DateText date={date} /> ({formatAbsolute(date)})
    </>
  );
}

/** Next digest, last sent, and the last digest's state (with its error and next attempt when it failed). */
function SendingState({ settings }: { settings: DigestSettings }) {
  const last = settings.last;
  return (
    <Group gap="xl" component="dl" m={0} align="flex-start">
      <Term label="Next digest">{settings.every === 'off' ? 'None: digests are off' : <When date={settings.nextAt} />}</Term>
      <Term label="Last sent">{settings.lastSentAt === null ? 'None yet' : <When date={settings.lastSentAt} />}</Term>
      {last && last.status !== 'sent' && (
        <Term label="Last digest">
          {sendState(last)}
          {last.status === 'pending' && last.nextAttemptAt && (
            <>
              {' '}
              Next attempt <When date={last.nextAttemptAt} />.
            </>
          )}
        </Term>
      )}
    </Group>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function projectLine(project: Digest['projects'][number]): string {
  return [
    project.new_problems > 0 ? plural(project.new_problems, 'new problem') : null,
    project.fixed_problems > 0 ? plural(project.fixed_problems, 'fixed problem') : null,
    project.drops > 0 ? plural(project.drops, 'drop') : null,
    project.alerts > 0 ? plural(project.alerts, 'alert') : null,
    project.new_pages > 0 ? plural(project.new_pages, 'new page') : null,
    project.gone_pages > 0 ? plural(project.gone_pages, 'gone page') : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** A section of the preview: at most 10 lines, the rest counted. */
function PreviewList({ title, items }: { title: string; items: { key: string; text: string; reportId?: number }[] }) {
  const headingId = useId();
  if (items.length === 0) return null;
  const shown = items.slice(0, 10);
  return (
    <div>
      <Title order={4} size="h6" id={headingId}>
        {title}
      </Title>
      <List size="sm" spacing={2} aria-labelledby={headingId} style={{ overflowWrap: 'anywhere' }}>
        {shown.map((item) => (
          <List.Item key={item.key}>
            {item.reportId === undefined ? (
              item.text
            ) : (
              <Anchor component={Link} to={`/reports/${item.reportId}`} size="sm">
                {item.text}
              </Anchor>
            )}
          </List.Item>
        ))}
        {items.length > shown.length && <List.Item>and {(items.length - shown.length).toLocaleString('en')} more</List.Item>}
      </List>
    </div>
  );
}

function Preview({ digest }: { digest: Digest }) {
  const problems = (list: Digest['new_problems']) => list.map((p) => ({ key: `${p.project}/${p.check}`, text: `${p.name || p.check} (${p.project}): ${plural(p.pages, 'page')}` }));
  const pages = (list: Digest['new_pages']) => list.map((p) => ({ key: String(p.report_id), text: `${p.url} (${p.project})`, reportId: p.report_id }));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Preview of the next digest">
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          What changed from {digest.since ? formatAbsolute(digest.since) : '—'} to {digest.until ? formatAbsolute(digest.until) : '—'}
        </Text>
        {digest.projects.length === 0 ? (
          <Text size="sm">Nothing changed in any project: the digest would say so.</Text>
        ) : (
          <>
            <PreviewList title="Projects" items={digest.projects.map((p) => ({ key: p.project, text: `${p.project}: ${projectLine(p)}` }))} />
            <PreviewList title="New problems" items={problems(digest.new_problems)} />
            <PreviewList title="Fixed problems" items={problems(digest.fixed_problems)} />
            <PreviewList
              title="Drops"
              items={digest.drops.map((d) => ({ key: String(d.report_id), text: `${d.url} (${d.project}): ${d.before} → ${d.after}`, reportId: d.report_id }))}
            />
            <PreviewList
              title="Alerts"
              items={digest.alerts.map((a) => ({ key: String(a.id), text: `${a.url} (${a.project}): ${a.before_score} → ${a.after_score}`, reportId: a.report_id }))}
            />
            <PreviewList title="New pages" items={pages(digest.new_pages)} />
            <PreviewList title="Gone pages" items={pages(digest.gone_pages)} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

function outcomeText(send: DigestSend): string {
  const where = [send.recipients > 0 ? `e-mailed to ${plural(send.recipients, 'recipient')}` : null, send.webhook ? 'queued as a webhook' : null].filter(Boolean).join(' and ');
  if (send.status === 'sent') return `The digest was ${where}.`;
  if (send.status === 'failed') return `The digest could not be sent${send.error ? `: ${send.error}` : '.'}`;
  return `The digest is not sent yet${send.error ? `: ${send.error}` : ''}. It is tried again${send.nextAttemptAt ? ` at ${formatAbsolute(send.nextAttemptAt)}` : ' shortly'}.`;
}

/** **Preview** (the next digest's content) and **Send now** (with its outcome), of the saved settings. */
function DigestActions({ saved }: { saved: boolean }) {
  const send = useSendDigest();
  const [showPreview, setShowPreview] = useState(false);
  const preview = useQuery({ ...digestQueries.preview(), enabled: showPreview });
  const [outcome, setOutcome] = useState<DigestSend | null>(null);
  const previewId = useId();
  const onSend = () => {
    setOutcome(null);
    send.mutate(undefined, {
      onSuccess: (made) => setOutcome(made),
      onError: (error) => notifications.show({ color: 'red', title: 'Digest not sent', message: fieldMessage(error) }),
    });
  };
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconEye size={16} aria-hidden />}
          aria-expanded={showPreview}
          aria-controls={previewId}
          loading={showPreview && preview.isFetching}
          onClick={() => (showPreview ? void preview.refetch() : setShowPreview(true))}
        >
          Preview
        </Button>
        <Button variant="default" leftSection={<IconSend size={16} aria-hidden />} loading={send.isPending} disabled={!saved} onClick={onSend}>
          Send now
        </Button>
        {!saved && (
          <Text size="xs" c="dimmed">
            Preview and Send now use the saved settings: save the changes first.
          </Text>
        )}
      </Group>
      <div aria-live="polite">
        {outcome && (
          <Alert color={outcome.status === 'sent' ? 'teal' : outcome.status === 'failed' ? 'red' : 'yellow'} variant="light" title={outcome.status === 'sent' ? 'Digest sent' : 'Digest not sent yet'}>
            {outcomeText(outcome)}
          </Alert>
        )}
      </div>
      <div id={previewId}>
        {showPreview &&
          (preview.isError ? (
            <ErrorState error={preview.error} onRetry={() => void preview.refetch()} retrying={preview.isFetching} title="The preview could not be loaded." />
          ) : preview.data ? (
            <Preview digest={preview.data} />
          ) : (
            <LoadingRows rows={2} height={40} label="Loading the preview" />
          ))}
      </div>
    </Stack>
  );
}

/** A refusal's words: a field's message (422) when it has one; Send now's own limit (429). */
function fieldMessage(error: unknown): string {
  if (isApiError(error) && error.kind === 'rate-limited') {
    const minutes = error.retryAfter === null ? null : Math.max(1, Math.ceil(error.retryAfter / 60));
    return `A few digests may be sent now in 10 minutes, as each e-mails every recipient. Try again ${minutes === null ? 'shortly' : `in ${minutes} minute${minutes === 1 ? '' : 's'}`}.`;
  }
  if (isApiError(error) && error.kind === 'validation') {
    const messages = Object.values(error.fieldErrors).flat();
    if (messages.length > 0) return messages.join(' ');
  }
  return errorMessage(error);
}

function DigestsForm({ settings }: { settings: DigestSettings }) {
  const {
    control,
    handleSubmit,
    register,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<DigestFormValues>({ resolver: zodResolver(digestFormSchema), defaultValues: defaultsOf(settings) });
  const values = useWatch({ control }) as DigestFormValues;
  const save = useSaveDigests();

  const onSubmit = (submitted: DigestFormValues) =>
    save.mutateAsync(
      {
        every: submitted.every,
        hour: Number(submitted.hour),
        weekday: submitted.every === 'weekly' ? Number(submitted.weekday) : null,
        recipients: submitted.recipients,
        webhook: submitted.webhook,
      },
      {
        onSuccess: (saved) => {
          reset(defaultsOf(saved));
          notifications.show({ color: 'teal', title: 'Digests saved', message: saved.every === 'off' ? 'Digests are off.' : `The ${saved.every} digest is set.` });
        },
        onError: (error) => {
          const { placed } = placeFieldErrors(error, FIELDS, setError);
          if (placed.length === 0) notifications.show({ color: 'red', title: 'Digests not saved', message: errorMessage(error) });
        },
      },
    ).catch(() => undefined);

  const saving = save.isPending;
  return (
    <Stack gap="md">
      <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} noValidate aria-label="Digest settings">
        <Stack gap="md">
          <Controller
            control={control}
            name="every"
            render={({ field }) => (
              <Radio.Group label="Send a digest" value={field.value} onChange={(value) => field.onChange(value)} error={errors.every?.message}>
                <Group gap="lg" mt={6}>
                  <Radio value="off" label="Off" disabled={saving} />
                  <Radio value="daily" label="Daily" disabled={saving} />
                  <Radio value="weekly" label="Weekly" disabled={saving} />
                </Group>
              </Radio.Group>
            )}
          />
          <Group align="flex-start" gap="md" wrap="wrap">
            <NativeSelect
              label="Hour"
              description="In UTC."
              data={HOUR_OPTIONS}
              error={errors.hour?.message}
              disabled={saving || values.every === 'off'}
              style={{ flex: '1 1 10rem' }}
              {...register('hour')}
            />
            {values.every === 'weekly' && (
              <NativeSelect
                label="Day"
                description="In UTC."
                data={DAY_OPTIONS}
                error={errors.weekday?.message}
                disabled={saving}
                style={{ flex: '1 1 10rem' }}
                {...register('weekday')}
              />
            )}
          </Group>
          <TextInput
            label="Recipients"
            description={
              settings.mail
                ? 'E-mail addresses, separated by commas (at most 50).'
                : 'This server has no SMTP_URL, so it sends no e-mail: leave this empty and send digests as a webhook.'
            }
            placeholder="ann@example.com, team@example.org"
            inputMode="email"
            spellCheck={false}
            autoComplete="off"
            error={errors.recipients?.message}
            aria-invalid={errors.recipients ? true : undefined}
            disabled={saving}
            {...register('recipients')}
          />
          <Checkbox
            label="Also as a webhook"
            description={
              settings.webhookReceivers === 0
                ? 'The digest is sent as the event digest.sent to the webhooks for every project; there is none yet: add one under Webhooks.'
                : 'The digest is sent as the event digest.sent to the webhooks for every project.'
            }
            disabled={saving}
            {...register('webhook')}
          />
          <Group gap="sm">
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      <DigestActions saved={!isDirty} />
      <SendingState settings={settings} />
    </Stack>
  );
}

export default function DigestsSection() {
  const query = useQuery(digestQueries.settings());
  return (
    <SettingsSection
      section="digests"
      description="A daily or weekly summary of what changed since the last one: new and fixed problems, drops, alerts, new and gone pages."
    >
      {query.data ? (
        <DigestsForm settings={query.data} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} title="The digest settings could not be loaded." />
      ) : (
        <LoadingRows rows={3} height={48} label="Loading the digest settings" />
      )}
    </SettingsSection>
  );
}
