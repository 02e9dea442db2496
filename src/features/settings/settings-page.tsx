// Bases before dependants, as in Mantine's styles.css (Paper, Alert and buttons come with the entry).
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/PasswordInput.css';
import { readReportPageTemplate, saveReportPageTemplate } from '@/lib/report-link';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { Suspense, lazy, useRef, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import {
  STORAGE_REFUSED_TEXT,
  normaliseBaseUrl,
  readConnection,
  saveConnection,
  signInReason,
  subscribeConnection,
} from '@/api/http/connection';
import type { Connection } from '@/api/http/connection';
import { signOutEverywhere } from '@/api/http/tab-key-share';
import type { ConnectionCheckResult } from '@/api/http/connection-check';
import { useCapabilities } from '@/api/capabilities';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';
import { useConnectionCheck } from '@/components/use-connection-check';
import { takeSignInTarget } from '@/lib/sign-in-target';
import { settingsSchema } from './settings-schema';
import type { SettingsInput, SettingsValues } from './settings-schema';

function describeBase(baseUrl: string): string {
  return baseUrl === '' ? 'this site (same origin)' : baseUrl;
}

function describeKey(connection: Connection): string {
  if (connection.apiKey === null) return 'none saved';
  return connection.remember ? 'saved on this device' : 'saved for this browser tab only';
}

function useConnection(): Connection {
  return useSyncExternalStore(subscribeConnection, readConnection);
}

// Only where the deployment has webhooks (an extension), and then loaded with its first showing.
const WebhooksSection = lazy(() => import('./webhooks-section'));

function WebhooksArea() {
  const { capabilities } = useCapabilities();
  if (!capabilities) return null;
  if (!capabilities.webhooks) {
    return (
      <Text size="sm" c="dimmed">
        The connected service has no webhooks: its alerts cannot be sent anywhere from here.
      </Text>
    );
  }
  return (
    <Suspense fallback={null}>
      <WebhooksSection />
    </Suspense>
  );
}

// Shown only after a test has run, so it loads with the test rather than with the page.
const ConnectionCheckResultAlert = lazy(() =>
  import('@/components/connection-check-result').then((m) => ({ default: m.ConnectionCheckResultAlert })),
);

interface TestRun {
  baseUrl: string;
  apiKey: string;
  result: ConnectionCheckResult;
  /** Run by Save: a failure offers Save anyway. */
  beforeSave?: boolean;
}

export interface SettingsPageProps {
  /**
   * As the sign-in panel (sign-in-panel.tsx), because no key is saved ('no-key') or the service
   * refused the saved one ('refused'): the connection part of the form only, Save signs in.
   */
  signIn?: 'no-key' | 'refused';
  /** In place of the Settings heading. */
  header?: ReactNode;
  /** In place of the line that says what is in use. */
  footer?: ReactNode;
}

export function SettingsPage({ signIn, header, footer }: SettingsPageProps) {
  const connection = useConnection();

  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SettingsInput, unknown, SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: {
      baseUrl: connection.baseUrl,
      // A refused key is no help: the panel asks for another.
      apiKey: signIn ? '' : (connection.apiKey ?? ''),
      remember: connection.remember,
      reportPageTemplate: readReportPageTemplate(),
    },
  });

  const navigate = useNavigate();
  const test = useConnectionCheck();
  const [lastTest, setLastTest] = useState<TestRun | null>(null);
  const [forgetAsked, forgetDialog] = useDisclosure(false);
  const forgetButton = useRef<HTMLButtonElement>(null);

  const typedBaseUrl = useWatch({ control, name: 'baseUrl' });
  const typedKey = useWatch({ control, name: 'apiKey' });
  // A result only describes the values it was run with; once they are edited it would mislead.
  const shownTest =
    lastTest && lastTest.baseUrl === normaliseBaseUrl(typedBaseUrl) && lastTest.apiKey === typedKey.trim()
      ? lastTest
      : null;

  const persist = (values: SettingsValues) => {
    const apiKey = values.apiKey === '' ? null : values.apiKey;
    const signingIn = apiKey !== null && signInReason() !== null;
    try {
      saveConnection({ baseUrl: values.baseUrl, apiKey, remember: values.remember });
      saveReportPageTemplate(values.reportPageTemplate);
    } catch {
      notifications.show({ color: 'red', title: 'Settings not saved', message: STORAGE_REFUSED_TEXT });
      return;
    }
    reset({
      baseUrl: values.baseUrl,
      apiKey: values.apiKey,
      remember: values.remember,
      reportPageTemplate: values.reportPageTemplate,
    });
    const kept = values.remember ? 'kept on this device' : 'kept for this browser tab only';
    notifications.show({
      color: 'teal',
      title: signIn ? 'Signed in' : 'Settings saved',
      message:
        apiKey === null
          ? `Using the API at ${describeBase(values.baseUrl)}, without a key.`
          : `Using the API at ${describeBase(values.baseUrl)}. The key is ${kept}.`,
    });
    // Signed in after a page asked for a key: that page. The panel is on it already (it shows once
    // the key is saved); Settings leads back to it.
    const target = signingIn ? takeSignInTarget() : null;
    if (target && !signIn) void navigate(target);
  };

  // A new key or address is tried before it is kept: a wrong one is not saved without being asked.
  const onSave = async (values: SettingsValues) => {
    if (signIn && values.apiKey === '') {
      setError('apiKey', { message: 'Enter an API key.' });
      setFocus('apiKey');
      return;
    }
    const untried =
      values.apiKey !== '' &&
      (signIn !== undefined || values.baseUrl !== connection.baseUrl || values.apiKey !== connection.apiKey);
    if (untried) {
      const result = await test.run(values);
      if (result === null) return;
      setLastTest({ baseUrl: values.baseUrl, apiKey: values.apiKey, result, beforeSave: true });
      if (!result.ok) return;
    }
    persist(values);
  };

  const onTest = async (values: SettingsValues) => {
    if (values.apiKey === '') {
      setError('apiKey', { message: 'Enter an API key to test the connection.' });
      setFocus('apiKey');
      return;
    }
    const result = await test.run(values);
    if (result) setLastTest({ baseUrl: values.baseUrl, apiKey: values.apiKey, result });
  };

  const cancelForget = () => {
    forgetDialog.close();
    // The dialog is mounted only while open, so Mantine cannot hand the focus back itself.
    forgetButton.current?.focus();
  };

  const onForget = () => {
    signOutEverywhere();
    forgetDialog.close();
    setValue('apiKey', '', { shouldDirty: false });
    // Forget key is gone with the key: the emptied field is where to go on.
    setFocus('apiKey');
    notifications.show({
      color: 'teal',
      title: 'API key forgotten',
      message: 'The key was removed from this browser.',
    });
  };

  // On the sign-in panel the key leads; the address is folded unless one is in use already.
  const [anotherService, setAnotherService] = useState(() => connection.baseUrl !== '');
  const addressField = (
    name: 'baseUrl' | 'reportPageTemplate',
    label: string,
    description: string,
    placeholder: string,
  ) => (
    <TextInput
      label={label}
      description={description}
      placeholder={placeholder}
      inputMode="url"
      autoComplete={name === 'baseUrl' ? 'url' : undefined}
      spellCheck={false}
      error={errors[name]?.message}
      {...register(name)}
    />
  );
  const baseUrlField = addressField(
    'baseUrl',
    'Base URL',
    'The service’s address without /api/v1, e.g. https://reports.example.com. Leave empty to use the API of this site (same origin).',
    'Same origin (this site)',
  );

  const savedBaseUrl = connection.baseUrl;
  const unsaved =
    normaliseBaseUrl(typedBaseUrl) !== savedBaseUrl || (typedKey.trim() || null) !== connection.apiKey;

  return (
    <Stack gap="lg" maw={720}>
      {header ?? (
        <div>
          <Title order={1}>Settings</Title>
          <Text c="dimmed" mt={4}>
            Where the Webpage Report Service API is, and the key the dashboard sends to it.
          </Text>
        </div>
      )}

      <Paper withBorder p="lg" radius="md">
        <form
          onSubmit={handleSubmit(onSave)}
          noValidate
          aria-label={signIn ? 'Sign in' : 'Connection settings'}
        >
          <Stack gap="md">
            {!signIn && baseUrlField}
            <PasswordInput
              label="API key"
              description="Sent as a Bearer token with every request. It is never put in a URL."
              autoComplete="off"
              spellCheck={false}
              visibilityToggleFocusable
              error={errors.apiKey?.message}
              {...register('apiKey')}
            />
            <Checkbox
              label="Remember this key on this device"
              description="Without this, the key is forgotten when this browser tab is closed."
              {...register('remember')}
            />
            {signIn &&
              (anotherService ? (
                baseUrlField
              ) : (
                <div>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    px={0}
                    aria-expanded={false}
                    onClick={() => setAnotherService(true)}
                  >
                    Another service
                  </Button>
                </div>
              ))}
            {!signIn &&
              addressField(
                'reportPageTemplate',
                'Report page address',
                'Where visitors open a report, with {id} for its number, e.g. https://reports.example.com/r/{id}. Leave empty to use the address the service gives.',
                'The service’s own',
              )}
            <Group gap="sm" mt="xs">
              <Button type="submit" loading={isSubmitting}>
                Save
              </Button>
              {/* In the panel Save tests, which is all it needs. */}
              {!signIn && (
                <Button
                  variant="default"
                  leftSection={<IconPlugConnected size={16} aria-hidden />}
                  loading={test.testing && !isSubmitting}
                  onClick={() => void handleSubmit(onTest)()}
                >
                  Test connection
                </Button>
              )}
              {!signIn && connection.apiKey !== null && (
                <Button
                  ref={forgetButton}
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onPointerEnter={() => void loadConfirmDialog()}
                  onFocus={() => void loadConfirmDialog()}
                  onClick={forgetDialog.open}
                >
                  Forget key
                </Button>
              )}
            </Group>
            {shownTest && (
              <Suspense fallback={null}>
                <ConnectionCheckResultAlert
                  result={shownTest.result}
                  where={describeBase(shownTest.baseUrl)}
                  unsaved={unsaved}
                  beforeSave={shownTest.beforeSave}
                  onSaveAnyway={
                    // A key the service refused is no use saved; other failures may be the network's.
                    shownTest.beforeSave &&
                    !shownTest.result.ok &&
                    shownTest.result.reason !== 'unauthenticated'
                      ? () => void handleSubmit(persist)()
                      : undefined
                  }
                />
              </Suspense>
            )}
          </Stack>
        </form>
      </Paper>

      {footer ?? (
        <Text size="sm" c="dimmed">
          In use now: the API at {describeBase(savedBaseUrl)}; API key {describeKey(connection)}.
        </Text>
      )}

      {forgetAsked && (
        <Suspense fallback={null}>
          <LazyConfirmDialog
            opened
            title="Forget the API key?"
            confirmLabel="Forget key"
            onConfirm={onForget}
            onCancel={cancelForget}
            pending={false}
          >
            <Text size="sm">
              The key is removed from this browser, and the dashboard asks for one again. A key that the
              server generated was shown only once: keep a copy if you will need it.
            </Text>
          </LazyConfirmDialog>
        </Suspense>
      )}
    </Stack>
  );
}

/** /settings: the connection, and the webhooks where the deployment has them (with a key to ask it). */
function SettingsRoute() {
  const connection = useConnection();
  return (
    <Stack gap="lg" maw={720}>
      <SettingsPage />
      {connection.apiKey !== null && <WebhooksArea />}
    </Stack>
  );
}

export { SettingsRoute as Component };
