// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Switch.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import { PRIVACY_LABELS, RESULT_LABELS } from '@/contract/values';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { useUpdateReport } from '@/api/reports-mutations';
import type { Report } from '@/contract/domain';
import {
  editChanges,
  editDefaults,
  editReportSchema,
  hasEditChanges,
  keepsStoredPassword,
} from './edit-schema';
import type { EditBaseline, EditChanges, EditReportValues } from './edit-schema';
import { PrivacyField } from '@/components/privacy-field';
import { LeaveGuard } from './leave-guard';

export interface EditReportFormProps {
  report: Report;
  /** Set by the page before a navigation that must not ask about unsaved changes. */
  allowLeaveRef?: RefObject<boolean>;
  /** A save that re-analyses the page has started. */
  onRefreshStart?: () => void;
  /** It finished: the report as it was before, and as the service now has it. */
  onRefreshDone?: (before: Report, after: Report) => void;
  onRefreshFailed?: () => void;
}

function savedMessage(changes: EditChanges, report: Report): string {
  const parts: string[] = [];
  if (changes.privacy !== undefined) parts.push(`Privacy is now ${PRIVACY_LABELS[report.privacy]}.`);
  else if (changes.password !== undefined) parts.push('The password was changed.');
  if (changes.refreshResults) {
    const outcome = [
      report.score === null ? null : `score ${report.score}`,
      report.result === null ? null : RESULT_LABELS[report.result],
    ].filter(Boolean);
    parts.push(outcome.length > 0 ? `Results refreshed: ${outcome.join(', ')}.` : 'Results refreshed.');
  }
  return parts.join(' ');
}

const FIELDS = ['privacy', 'password'] as const;

function RefreshField({ control, disabled }: { control: Control<EditReportValues>; disabled: boolean }) {
  const helpId = useId();
  return (
    <div>
      <Controller
        control={control}
        name="refresh"
        render={({ field }) => (
          // The description sits outside the switch's <label>, which would otherwise make it part of the name.
          <Switch
            label="Refresh results"
            aria-describedby={helpId}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
            disabled={disabled}
          />
        )}
      />
      <Text id={helpId} size="xs" c="dimmed" mt={4}>
        Fetch and analyse the page again when saving. This takes a few seconds.
      </Text>
    </div>
  );
}

/** Privacy, password and "refresh results" of one report; mounted with the server's data as defaults. */
export function EditReportForm({
  report,
  allowLeaveRef,
  onRefreshStart,
  onRefreshDone,
  onRefreshFailed,
}: EditReportFormProps) {
  // Changes are measured against the report as the service has it. Two moments need a pinned copy:
  // while a save runs the cached report shows the optimistic privacy, so the one from before is used;
  // right after it, the saved one is used until the cached report has caught up (a render later).
  const [pinned, setPinned] = useState<EditBaseline | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const server: EditBaseline = { privacy: report.privacy, hasPassword: report.hasPassword };
  if (
    pinned &&
    !submitting &&
    pinned.privacy === server.privacy &&
    pinned.hasPassword === server.hasPassword
  ) {
    setPinned(null);
  }
  const baseline = pinned ?? server;
  const schema = useMemo(
    () => editReportSchema({ privacy: baseline.privacy, hasPassword: baseline.hasPassword }),
    [baseline.privacy, baseline.hasPassword],
  );
  const {
    control,
    handleSubmit,
    register,
    reset,
    setError,
    formState: { errors },
  } = useForm<EditReportValues>({
    resolver: zodResolver(schema),
    defaultValues: editDefaults(report),
  });
  const values = useWatch({ control }) as EditReportValues;
  const changes = editChanges(baseline, values);
  const dirty = hasEditChanges(changes);

  const update = useUpdateReport();
  // handleSubmit validates asynchronously: two quick clicks would both get through before
  // isPending is rendered, so the guard is a ref set in the same tick as the request.
  const inFlight = useRef(false);

  // The report changed elsewhere (another tab, a refetch) or a failed save was rolled back: fields
  // not being edited follow it. Our own saves reset the form themselves.
  const { privacy: serverPrivacy, hasPassword: serverHasPassword } = server;
  useEffect(() => {
    if (inFlight.current || pinned) return;
    reset(editDefaults({ privacy: serverPrivacy, hasPassword: serverHasPassword }), {
      keepDirtyValues: true,
    });
  }, [serverPrivacy, serverHasPassword, pinned, reset]);

  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = (submitted: EditReportValues) => {
    if (inFlight.current) return;
    const toSend = editChanges(baseline, submitted);
    if (!hasEditChanges(toSend)) return;
    inFlight.current = true;
    setSubmitting(true);
    setPinned(baseline);
    setFormError(null);
    const before = report;
    if (toSend.refreshResults) onRefreshStart?.();
    update.mutate(
      { id: report.id, ...toSend },
      {
        onSuccess: (updated) => {
          const saved = { privacy: updated.privacy, hasPassword: updated.hasPassword };
          setPinned(saved);
          reset(editDefaults(saved));
          if (toSend.refreshResults) onRefreshDone?.(before, updated);
          notifications.show({
            color: 'teal',
            title: 'Changes saved',
            message: savedMessage(toSend, updated),
          });
        },
        onError: (error) => {
          // The rollback has restored the cached report: measure against it again.
          setPinned(null);
          if (toSend.refreshResults) onRefreshFailed?.();
          const { placed, unplaced } = placeFieldErrors(error, FIELDS, setError);
          if (placed.length === 0 || unplaced.length > 0) {
            setFormError(unplaced.length > 0 ? unplaced.join(' ') : errorMessage(error));
          }
          notifications.show({ color: 'red', title: 'Changes not saved', message: errorMessage(error) });
        },
        onSettled: () => {
          inFlight.current = false;
          setSubmitting(false);
        },
      },
    );
  };

  const passwordShown = values.privacy === '2';
  const keeps = keepsStoredPassword(baseline);
  const saving = submitting || update.isPending;

  return (
    <form onSubmit={(event) => void handleSubmit(onSubmit)(event)} noValidate aria-label="Edit report">
      <Stack gap="md">
        <Controller
          control={control}
          name="privacy"
          render={({ field }) => (
            <PrivacyField field={field} error={errors.privacy?.message} disabled={saving} layout="row" />
          )}
        />
        {passwordShown && (
          <PasswordInput
            label="Password"
            description={
              keeps
                ? 'A password is set. Leave this empty to keep it, or type a new one to replace it.'
                : 'Required: people will need it to open this report.'
            }
            withAsterisk={!keeps}
            autoComplete="new-password"
            visibilityToggleFocusable
            error={errors.password?.message}
            // Mantine's PasswordInput marks the error only visually.
            aria-invalid={errors.password ? true : undefined}
            disabled={saving}
            {...register('password')}
          />
        )}
        <RefreshField control={control} disabled={saving} />
        {formError && (
          <Alert
            color="red"
            variant="light"
            role="alert"
            icon={<IconAlertTriangle aria-hidden />}
            title="Not saved"
          >
            {formError}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            type="submit"
            disabled={!dirty && !saving}
            loading={saving}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          >
            Save changes
          </Button>
        </Group>
      </Stack>
      <LeaveGuard when={dirty} allowRef={allowLeaveRef} />
    </form>
  );
}
