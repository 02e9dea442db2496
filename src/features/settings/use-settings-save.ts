// What Settings' Save and Test connection do: a new key or address is tried before it is kept (a
// wrong one is saved only when asked), then kept on the device with the report page address.
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { saveReportPageTemplate } from '@/lib/report-link';
import { STORAGE_REFUSED_TEXT, normaliseBaseUrl, saveConnection, signInReason } from '@/api/http/connection';
import type { Connection } from '@/api/http/connection';
import type { ConnectionCheckResult } from '@/api/http/connection-check';
import { useConnectionCheck } from '@/components/use-connection-check';
import { learnMember } from '@/api/me';
import { takeSignInTarget } from '@/lib/sign-in-target';
import type { SettingsInput, SettingsValues } from './settings-schema';

export function describeBase(baseUrl: string): string {
  return baseUrl === '' ? 'this site (same origin)' : baseUrl;
}

interface TestRun {
  baseUrl: string;
  apiKey: string;
  result: ConnectionCheckResult;
  /** Run by Save: a failure offers Save anyway. */
  beforeSave?: boolean;
}

type SettingsForm = Pick<UseFormReturn<SettingsInput, unknown, SettingsValues>, 'reset' | 'setError' | 'setFocus' | 'control'>;

export function useSettingsSave(form: SettingsForm, connection: Connection, signIn: boolean) {
  const { reset, setError, setFocus, control } = form;
  const navigate = useNavigate();
  const test = useConnectionCheck();
  const [lastTest, setLastTest] = useState<TestRun | null>(null);

  const typedBaseUrl = useWatch({ control, name: 'baseUrl' });
  const typedKey = useWatch({ control, name: 'apiKey' });
  // A result only describes the values it was run with; once they are edited it would mislead.
  const shownTest =
    lastTest && lastTest.baseUrl === normaliseBaseUrl(typedBaseUrl) && lastTest.apiKey === typedKey.trim()
      ? lastTest
      : null;
  const unsaved =
    normaliseBaseUrl(typedBaseUrl) !== connection.baseUrl || (typedKey.trim() || null) !== connection.apiKey;

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

  const save = async (values: SettingsValues) => {
    if (signIn && values.apiKey === '') {
      setError('apiKey', { message: 'Enter an API key.' });
      setFocus('apiKey');
      return;
    }
    const untried =
      values.apiKey !== '' &&
      (signIn || values.baseUrl !== connection.baseUrl || values.apiKey !== connection.apiKey);
    if (untried) {
      const result = await test.run(values);
      if (result === null) return;
      setLastTest({ baseUrl: values.baseUrl, apiKey: values.apiKey, result, beforeSave: true });
      if (!result.ok) return;
      // The key works: who it belongs to, so the first page after it paints the role's controls.
      await learnMember(values);
    }
    persist(values);
  };

  const testConnection = async (values: SettingsValues) => {
    if (values.apiKey === '') {
      setError('apiKey', { message: 'Enter an API key to test the connection.' });
      setFocus('apiKey');
      return;
    }
    const result = await test.run(values);
    if (result) setLastTest({ baseUrl: values.baseUrl, apiKey: values.apiKey, result });
  };

  return { save, testConnection, persist, testing: test.testing, shownTest, unsaved };
}
