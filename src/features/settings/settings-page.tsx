// Bases before dependants, as in Mantine's styles.css (Paper, Alert and buttons come with the entry).
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/PasswordInput.css';
import { readReportPageTemplate, saveReportPageTemplate } from '@/api/report-link';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { Suspense, lazy, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  forgetKey,
  normaliseBaseUrl,
  readConnection,
  saveConnection,
  subscribeConnection,
} from '@/api/connection';
import type { Connection } from '@/api/connection';
import type { ConnectionTestResult } from '@/api/test-connection';
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

// Shown only after a test has run, so it loads with the test rather than with the page.
const ConnectionTestResultAlert = lazy(() =>
  import('@/components/connection-test-result').then((m) => ({ default: m.ConnectionTestResultAlert })),
);

interface TestRun {
  baseUrl: string;
  apiKey: string;
  result: ConnectionTestResult;
}

function SettingsPage() {
  const connection = useConnection();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    setValue,
    control,
    formState: { errors },
  } = useForm<SettingsInput, unknown, SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: {
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey ?? '',
      remember: connection.remember,
      reportPageTemplate: readReportPageTemplate(),
    },
  });

  const [testing, setTesting] = useState(false);
  const [lastTest, setLastTest] = useState<TestRun | null>(null);
  const testAbort = useRef<AbortController | null>(null);
  useEffect(() => () => testAbort.current?.abort(), []);

  const typedBaseUrl = useWatch({ control, name: 'baseUrl' });
  const typedKey = useWatch({ control, name: 'apiKey' });
  // A result only describes the values it was run with; once they are edited it would mislead.
  const shownTest =
    lastTest && lastTest.baseUrl === normaliseBaseUrl(typedBaseUrl) && lastTest.apiKey === typedKey.trim()
      ? lastTest
      : null;

  const onSave = (values: SettingsValues) => {
    const apiKey = values.apiKey === '' ? null : values.apiKey;
    try {
      saveConnection({ baseUrl: values.baseUrl, apiKey, remember: values.remember });
      saveReportPageTemplate(values.reportPageTemplate);
    } catch {
      notifications.show({
        color: 'red',
        title: 'Settings not saved',
        message:
          'This browser does not allow this site to store data. Allow site data (cookies and storage) and try again.',
      });
      return;
    }
    reset({
      baseUrl: values.baseUrl,
      apiKey: values.apiKey,
      remember: values.remember,
      reportPageTemplate: values.reportPageTemplate,
    });
    notifications.show({
      color: 'teal',
      title: 'Settings saved',
      message:
        apiKey === null
          ? `Using the API at ${describeBase(values.baseUrl)}, without a key.`
          : `Using the API at ${describeBase(values.baseUrl)}. The key is ${values.remember ? 'kept on this device' : 'kept for this browser tab only'}.`,
    });
  };

  const onTest = async (values: SettingsValues) => {
    if (values.apiKey === '') {
      setError('apiKey', { message: 'Enter an API key to test the connection.' });
      setFocus('apiKey');
      return;
    }
    testAbort.current?.abort();
    const controller = new AbortController();
    testAbort.current = controller;
    setTesting(true);
    try {
      // Loaded on first use: it brings the API layer's response schemas, which this page needs for nothing else.
      const { testConnection } = await import('@/api/test-connection');
      const result = await testConnection(
        { baseUrl: values.baseUrl, apiKey: values.apiKey },
        controller.signal,
      );
      setLastTest({ baseUrl: values.baseUrl, apiKey: values.apiKey, result });
    } catch (error) {
      if (controller.signal.aborted) return;
      setLastTest({
        baseUrl: values.baseUrl,
        apiKey: values.apiKey,
        result: {
          ok: false,
          reason: 'error',
          message: error instanceof Error ? error.message : 'The test stopped with an unexpected error.',
        },
      });
    } finally {
      if (testAbort.current === controller) {
        testAbort.current = null;
        setTesting(false);
      }
    }
  };

  const onForget = () => {
    forgetKey();
    setValue('apiKey', '', { shouldDirty: false });
    notifications.show({
      color: 'teal',
      title: 'API key forgotten',
      message: 'The key was removed from this browser.',
    });
  };

  const savedBaseUrl = connection.baseUrl;
  const unsaved =
    normaliseBaseUrl(typedBaseUrl) !== savedBaseUrl || (typedKey.trim() || null) !== connection.apiKey;

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>Settings</Title>
        <Text c="dimmed" mt={4}>
          Where the Webpage Report Service API is, and the key the dashboard sends to it.
        </Text>
      </div>

      <Paper withBorder p="lg" radius="md">
        <form onSubmit={handleSubmit(onSave)} noValidate aria-label="Connection settings">
          <Stack gap="md">
            <TextInput
              label="Base URL"
              description="The service’s address without /api/v1, e.g. https://reports.example.com. Leave empty to use the API of this site (same origin)."
              placeholder="Same origin (this site)"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              error={errors.baseUrl?.message}
              {...register('baseUrl')}
            />
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
            <TextInput
              label="Report page address"
              description="Where visitors open a report, with {id} for its number, e.g. https://reports.example.com/r/{id}. Leave empty to use the address the service gives."
              placeholder="The service’s own"
              inputMode="url"
              spellCheck={false}
              error={errors.reportPageTemplate?.message}
              {...register('reportPageTemplate')}
            />
            <Group gap="sm" mt="xs">
              <Button type="submit">Save</Button>
              <Button
                variant="default"
                leftSection={<IconPlugConnected size={16} aria-hidden />}
                loading={testing}
                onClick={() => void handleSubmit(onTest)()}
              >
                Test connection
              </Button>
              {connection.apiKey !== null && (
                <Button
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={onForget}
                >
                  Forget key
                </Button>
              )}
            </Group>
            {shownTest && (
              <Suspense fallback={null}>
                <ConnectionTestResultAlert
                  result={shownTest.result}
                  where={describeBase(shownTest.baseUrl)}
                  unsaved={unsaved}
                />
              </Suspense>
            )}
          </Stack>
        </form>
      </Paper>

      <Text size="sm" c="dimmed">
        In use now: the API at {describeBase(savedBaseUrl)}; API key {describeKey(connection)}.
      </Text>
    </Stack>
  );
}

export { SettingsPage as Component };
