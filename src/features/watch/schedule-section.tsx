// A project's Schedule (the Schedules extension): how often its reports are analysed again, the
// score drop that raises an alert, Run now, and when it runs next and ran last. Loaded only where
// the server has schedules (the project route asks the capabilities first).
import '@mantine/core/styles/Input.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { watchQueries } from '@/api/watch';
import type { Schedule } from '@/api/watch';
import { useRunSchedule, useSaveSchedule } from '@/api/watch-mutations';
import { useCapabilities } from '@/api/capabilities';
import { useStartRun } from '@/api/run-log-mutations';
import { projectHealthQueries } from '@/api/project-health';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { asksBeforeAnalysing } from '@/lib/quota';
import { DateText } from '@/components/date-text';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import { formatAbsolute, formatRelative } from '@/lib/dates';
import { WEEKDAYS, scheduleText, utcHour } from '@/lib/schedule-text';
import { SCHEDULE_FIELDS, scheduleDefaults, scheduleInput, scheduleSchema } from './schedule-schema';
import { MAX_NEW_PAGES } from '@/contract/values';
import type { ScheduleValues } from './schedule-schema';

const EVERY_OPTIONS = [
  { value: 'off', label: 'Off' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
];
const HOUR_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({ value: String(hour), label: utcHour(hour) }));
const DAY_OPTIONS = WEEKDAYS.map((day, index) => ({ value: String(index), label: day }));

/** "07:00 UTC is 09:00 here": the hour in the browser's time zone, when it differs. */
function localHour(hour: string): string | undefined {
  const at = new Date(Date.UTC(2026, 0, 5, Number(hour)));
  const here = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const utc = utcHour(Number(hour)).replace(' UTC', '');
  return here === utc ? 'In UTC (the same as this device’s time).' : `In UTC: ${here} on this device.`;
}

function savedMessage(schedule: Schedule): string {
  if (schedule.every === 'off') return 'Off: the reports are analysed again only when asked.';
  const next = schedule.nextRunAt ? ` Next run ${formatRelative(schedule.nextRunAt)} (${formatAbsolute(schedule.nextRunAt)}).` : '';
  return `${scheduleText(schedule)}; an alert when a score drops by ${schedule.drop} points or more.${next}`;
}

function RunTimes({ schedule }: { schedule: Schedule }) {
  return (
    <Group gap="xl" component="dl" m={0}>
      <div>
        <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={700}>
          Next run
        </Text>
        <Text component="dd" m={0} size="sm">
          {schedule.every === 'off' || schedule.nextRunAt === null ? (
            'None: the schedule is off'
          ) : (
            <>
              <DateText date={schedule.nextRunAt} /> ({formatAbsolute(schedule.nextRunAt)})
            </>
          )}
        </Text>
      </div>
      <div>
        <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={700}>
          Last run
        </Text>
        <Text component="dd" m={0} size="sm">
          {schedule.lastRunAt === null ? (
            'None yet'
          ) : (
            <>
              <DateText date={schedule.lastRunAt} /> ({formatAbsolute(schedule.lastRunAt)})
            </>
          )}
        </Text>
      </div>
    </Group>
  );
}

/** Where the server follows sitemaps (`sitemap_follow`): the sitemap each run reads first, and how many new pages it may add. */
function SitemapFields({
  register,
  errors,
  saving,
}: {
  register: UseFormRegister<ScheduleValues>;
  errors: FieldErrors<ScheduleValues>;
  saving: boolean;
}) {
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <TextInput
        label="Sitemap address"
        description="Each run reads it first: new pages of this project get a report, pages gone from it are marked Gone. Empty: none."
        placeholder="https://example.com/sitemap.xml"
        inputMode="url"
        spellCheck={false}
        error={errors.sitemap?.message}
        aria-invalid={errors.sitemap ? true : undefined}
        disabled={saving}
        style={{ flex: '3 1 20rem' }}
        {...register('sitemap')}
      />
      <TextInput
        label="New pages per run"
        description={`At most, 0 to ${MAX_NEW_PAGES.toLocaleString('en')}.`}
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_NEW_PAGES}
        step={1}
        error={errors.max_new?.message}
        aria-invalid={errors.max_new ? true : undefined}
        disabled={saving}
        style={{ flex: '1 1 10rem' }}
        {...register('max_new')}
      />
    </Group>
  );
}

/**
 * **Run now**: every report of the project analysed again; with more than 10 (or a count not yet
 * known) it asks first, naming the count, as every action that spends the service's work on many pages does.
 */
function RunNowButton({ project, onRun, loading }: { project: string; onRun: () => void; loading: boolean }) {
  const total = useQuery(projectHealthQueries.health(project)).data?.total;
  const [asking, setAsking] = useState(false);
  const count =
    total === undefined ? 'all reports' : `all ${total.toLocaleString('en')} ${total === 1 ? 'report' : 'reports'}`;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconPlayerPlay size={16} aria-hidden />}
        onClick={() => (asksBeforeAnalysing(total) ? setAsking(true) : onRun())}
        loading={loading}
      >
        Run now
      </Button>
      <ConfirmDialog
        opened={asking}
        title={`Run now: analyse ${count} of ${project}?`}
        confirmLabel="Run now"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onRun();
        }}
        pending={false}
      >
        <Text size="sm">
          Each page of <strong>{project}</strong> is fetched and analysed again now, besides its schedule:
          {total === undefined ? ' one analysis of the service’s work each.' : ` ${total.toLocaleString('en')} analyses of the service’s work.`}
        </Text>
      </ConfirmDialog>
    </>
  );
}

function ScheduleForm({ project, schedule }: { project: string; schedule: Schedule }) {
  const {
    control,
    handleSubmit,
    register,
    reset,
    setError,
    formState: { errors },
  } = useForm<ScheduleValues>({ resolver: zodResolver(scheduleSchema), defaultValues: scheduleDefaults(schedule) });
  const values = useWatch({ control }) as ScheduleValues;
  const save = useSaveSchedule(project);
  // Where the server keeps a run log, Run now is the same run as Refresh all reports, watched at the
  // top of the project's page; elsewhere it queues the reports and says so.
  const { capabilities } = useCapabilities();
  const runLog = capabilities?.run_log === true;
  const followsSitemaps = capabilities?.sitemap_follow === true;
  const queue = useRunSchedule(project);
  const start = useStartRun(project);
  const run = runLog ? start : queue;
  const [formError, setFormError] = useState<string | null>(null);
  const inFlight = useRef(false);

  const onSubmit = (submitted: ScheduleValues) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setFormError(null);
    save.mutate(scheduleInput(submitted, followsSitemaps), {
      onSuccess: (saved) => {
        reset(scheduleDefaults(saved));
        notifications.show({ color: 'teal', title: 'Schedule saved', message: savedMessage(saved) });
      },
      onError: (error) => {
        const { placed, unplaced } = placeFieldErrors(error, SCHEDULE_FIELDS, setError);
        if (placed.length === 0 || unplaced.length > 0)
          setFormError(unplaced.length > 0 ? unplaced.join(' ') : errorMessage(error));
        notifications.show({ color: 'red', title: 'Schedule not saved', message: errorMessage(error) });
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  const runNow = () =>
    run.mutate(undefined, {
      onSuccess: ({ queued }) =>
        notifications.show({
          color: 'teal',
          title: 'Run started',
          message: runLog
            ? `${queued === null ? 'Every report' : `${queued.toLocaleString('en')} ${queued === 1 ? 'report' : 'reports'}`} of ${project} to analyse again; the progress is at the top of the page, the run in Runs.`
            : queued === null
              ? `The reports of ${project} are queued to be analysed again.`
              : `${queued.toLocaleString('en')} ${queued === 1 ? 'report' : 'reports'} of ${project} queued to be analysed again; a drop is confirmed by a second analysis before it raises an alert.`,
        }),
      onError: (error) => notifications.show({ color: 'red', title: 'Run not started', message: errorMessage(error) }),
    });

  const saving = save.isPending;
  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} noValidate aria-label="Schedule settings">
      <Stack gap="md">
        <Group align="flex-start" gap="md" wrap="wrap">
          <NativeSelect
            label="Analyse again"
            data={EVERY_OPTIONS}
            error={errors.every?.message}
            disabled={saving}
            style={{ flex: '1 1 9rem' }}
            {...register('every')}
          />
          <NativeSelect
            label="Hour"
            description={localHour(values.hour)}
            data={HOUR_OPTIONS}
            error={errors.hour?.message}
            disabled={saving || values.every === 'off'}
            style={{ flex: '1 1 12rem' }}
            {...register('hour')}
          />
          {values.every === 'weekly' && (
            <NativeSelect
              label="Day"
              description="In UTC."
              data={DAY_OPTIONS}
              error={errors.weekday?.message}
              disabled={saving}
              style={{ flex: '1 1 9rem' }}
              {...register('weekday')}
            />
          )}
          <TextInput
            label="Alert when the score drops by"
            description="Points, 1 to 100; any analysis."
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            rightSection={
              <Text size="xs" c="dimmed" aria-hidden>
                points
              </Text>
            }
            rightSectionWidth={52}
            error={errors.drop?.message}
            aria-invalid={errors.drop ? true : undefined}
            disabled={saving}
            style={{ flex: '1 1 12rem' }}
            {...register('drop')}
          />
        </Group>
        {followsSitemaps && <SitemapFields register={register} errors={errors} saving={saving} />}
        {formError && (
          <Alert color="red" variant="light" title="Schedule not saved">
            {formError}
          </Alert>
        )}
        <Group justify="space-between" align="center" gap="sm">
          <RunTimes schedule={schedule} />
          <Group gap="sm">
            <RunNowButton project={project} onRun={runNow} loading={run.isPending} />
            <Button
              type="submit"
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              loading={saving}
            >
              Save schedule
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** The Schedule section of a project's page. */
export function ScheduleSection({ project }: { project: string }) {
  const query = useQuery(watchQueries.schedule(project));
  let body;
  if (query.data) {
    body = <ScheduleForm key={project} project={project} schedule={query.data} />;
  } else if (query.isError) {
    body = (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        title="The schedule could not be loaded"
      />
    );
  } else {
    body = <LoadingRows rows={2} height={56} label="Loading the schedule" />;
  }
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="project-schedule">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="project-schedule">
            Schedule
          </Title>
          <Text size="sm" c="dimmed">
            Analyse every report of this project again on a schedule, and raise an alert when one gets worse.
            Times are in UTC.
          </Text>
        </div>
        {body}
      </Stack>
    </Paper>
  );
}
