// Bases before dependants, as in Mantine's styles.css (Paper, Alert and buttons come with the entry).
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/PasswordInput.css';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Suspense, lazy, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { PASSWORD_MAX_LENGTH } from '@/contract/values';
import { errorMessage } from '@/api/http/errors';
import { useCreateReport } from '@/api/reports-mutations';
import { placeFieldErrors } from '@/api/http/field-errors';
import { createReportSchema, httpsSuggestion, toCreateInput } from './create-report-schema';
import type { CreateReportFormInput, CreateReportFormValues } from './create-report-schema';
import { BackLink } from '@/components/back-link';
import { PrivacyField } from '@/components/privacy-field';
import { RoleGate } from '@/components/role-gate';

const FORM_FIELDS = ['url', 'privacy', 'password'] as const;

// Whether a report of the typed URL exists: loaded once someone starts typing one.
const ExistingReport = lazy(() => import('./existing-report').then((m) => ({ default: m.ExistingReport })));

/** While the report is made, a word that the page is being analysed; Cancel and Create report. */
function CreateActions({ pending }: { pending: boolean }) {
  return (
    <Group justify="space-between" gap="sm">
      <div role="status" aria-live="polite">
        {pending && (
          <Group gap="xs" wrap="nowrap">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Analysing page…</Text>
          </Group>
        )}
      </div>
      <Group gap="sm">
        <Button component={Link} to="/reports" variant="default">
          Cancel
        </Button>
        <Button type="submit" loading={pending}>
          Create report
        </Button>
      </Group>
    </Group>
  );
}

function CreateReportPage() {
  const navigate = useNavigate();
  const createReport = useCreateReport();
  // Errors the fields cannot show: network, server, or a 422 on a field this form does not have.
  const [formError, setFormError] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    setValue,
    setFocus,
    formState: { errors },
  } = useForm<CreateReportFormInput, unknown, CreateReportFormValues>({
    resolver: zodResolver(createReportSchema),
    defaultValues: { url: '', privacy: '0', password: '' },
  });
  const typedUrl = useWatch({ control, name: 'url' });
  const privacy = useWatch({ control, name: 'privacy' });
  const suggestion = httpsSuggestion(typedUrl);
  const pending = createReport.isPending;

  const onSubmit = (values: CreateReportFormValues) => {
    // The button is disabled while pending; Enter in a field must not send a second request either.
    if (createReport.isPending) return;
    setFormError(null);
    createReport.mutate(toCreateInput(values), {
      onSuccess: (report) => {
        notifications.show({ color: 'teal', title: 'Report created', message: report.url });
        void navigate(`/reports/${report.id}`);
      },
      onError: (error) => {
        const { placed, unplaced } = placeFieldErrors(error, FORM_FIELDS, setError);
        if (placed[0] !== undefined) {
          setFocus(placed[0]);
          if (unplaced.length === 0) return;
        }
        setFormError(error);
        notifications.show({
          color: 'red',
          title: 'The report was not created',
          message: errorMessage(error),
        });
      },
    });
  };

  const applySuggestion = () => {
    if (suggestion === null) return;
    setValue('url', suggestion, { shouldValidate: errors.url !== undefined, shouldDirty: true });
    setFocus('url');
  };

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <BackLink to="/reports">Reports</BackLink>
        <Title order={1} mt="xs">
          New report
        </Title>
        <Text c="dimmed" mt={4}>
          The service fetches the page and checks its SEO, performance and security. This takes a few seconds.
        </Text>
      </div>

      <RoleGate what="add reports">
        <Paper withBorder p="lg" radius="md">
          <form
            onSubmit={handleSubmit(onSubmit)}
            noValidate
            aria-label="New report"
            aria-busy={pending || undefined}
          >
            <Stack gap="md">
              <div>
                <TextInput
                  label="URL"
                  placeholder="https://example.com/pricing"
                  inputMode="url"
                  autoComplete="url"
                  spellCheck={false}
                  withAsterisk
                  readOnly={pending}
                  error={errors.url?.message}
                  {...register('url')}
                />
                {suggestion !== null && (
                  <Group gap="xs" mt={6} wrap="wrap">
                    {/* The field's error already says what is missing when it shows. */}
                    {errors.url === undefined && (
                      <Text size="sm" c="dimmed">
                        No http:// or https:// at the start.
                      </Text>
                    )}
                    <Button variant="light" size="compact-sm" onClick={applySuggestion} disabled={pending}>
                      Use {suggestion}
                    </Button>
                  </Group>
                )}
              </div>

              {typedUrl.trim() !== '' && (
                <Suspense fallback={null}>
                  <ExistingReport url={typedUrl} disabled={pending} />
                </Suspense>
              )}

              <Controller
                control={control}
                name="privacy"
                render={({ field }) => (
                  <PrivacyField
                    field={field}
                    error={errors.privacy?.message}
                    readOnly={pending}
                    layout="stack"
                  />
                )}
              />

              {privacy === '2' && (
                <PasswordInput
                  label="Password"
                  description={`Needed to open the report page; at most ${PASSWORD_MAX_LENGTH} characters.`}
                  autoComplete="new-password"
                  withAsterisk
                  readOnly={pending}
                  error={errors.password?.message}
                  {...register('password')}
                />
              )}

              {formError !== null && (
                <Alert
                  color="red"
                  variant="light"
                  title="The report was not created"
                  icon={<IconAlertTriangle aria-hidden />}
                >
                  {/* A 401 brings the sign-in panel in place of the page: no link to Settings needed. */}
                  <Text size="sm">{errorMessage(formError)}</Text>
                </Alert>
              )}

              <CreateActions pending={pending} />
            </Stack>
          </form>
        </Paper>
      </RoleGate>
    </Stack>
  );
}

export { CreateReportPage as Component };
