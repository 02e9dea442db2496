// Bases before dependants, as in Mantine's styles.css (Paper, Alert and buttons come with the entry).
import type { SignInReason } from '@/api/http/connection';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/PasswordInput.css';
import { readReportPageTemplate } from '@/lib/report-link';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { Suspense, lazy, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { readConnection, subscribeConnection } from '@/api/http/connection';
import type { Connection } from '@/api/http/connection';
import { useCapabilities } from '@/api/capabilities';
import { usePermission } from '@/api/me';
import { RoleGate, RoleNote } from '@/components/role-gate';
import { ForgetKey } from './forget-key';
import { settingsSchema } from './settings-schema';
import type { SettingsInput, SettingsValues } from './settings-schema';
import { describeBase, useSettingsSave } from './use-settings-save';
import { SECTIONS, sectionAnchor } from './settings-section';
import type { SectionId } from './settings-section';
import classes from './settings-page.module.css';

function describeKey(connection: Connection): string {
  if (connection.apiKey === null) return 'none saved';
  return connection.remember ? 'saved on this device' : 'saved for this browser tab only';
}

function useConnection(): Connection {
  return useSyncExternalStore(subscribeConnection, readConnection);
}

/**
 * Which sections the page shows: those whose extension the deployment has and whose work the key's
 * role may do. The one place that decides it, for the sections and for the page's contents; only
 * with a key (the key's role is asked for).
 */
type ShownSections = ReadonlySet<SectionId>;

function useShownSections(): ShownSections {
  const { capabilities } = useCapabilities();
  const changesData = usePermission('change-data').allowed;
  const manages = usePermission('manage').allowed;
  if (!capabilities) return new Set();
  const shown: [SectionId, unknown][] = [
    ['clients', capabilities.clients && changesData],
    ['webhooks', capabilities.webhooks && manages],
    ['digests', capabilities.digests && manages],
    ['share-links', capabilities.share_links],
    ['branding', capabilities.branding && manages],
    ['members', capabilities.accounts && manages],
    ['audit-log', capabilities.accounts && capabilities.audit && manages],
  ];
  return new Set(shown.filter(([, on]) => on === true).map(([id]) => id));
}

/** Links to the page's sections below the connection: on a phone Settings is several screens long. */
function SettingsContents() {
  const shown = useShownSections();
  if (shown.size === 0) return null;
  return (
    <nav aria-label="Settings sections" className={classes.contents}>
      <Text size="sm" span c="dimmed">
        Go to:
      </Text>
      {[...shown].map((id) => (
        <Anchor key={id} href={`#${sectionAnchor(id)}`} size="sm" className="tap-target">
          {SECTIONS[id]}
        </Anchor>
      ))}
    </nav>
  );
}

// Only where the deployment has webhooks (an extension), and then loaded with its first showing;
// after them, where the server has digests (issue 48), their section, likewise (one component for
// both: the first visit's budget of bytes, tools/size.ts, had no room for another).
const WebhooksSection = lazy(() => import('./webhooks-section'));
const DigestsSection = lazy(() => import('./digests-section'));

function WebhooksArea() {
  const shown = useShownSections();
  const { capabilities } = useCapabilities();
  // Webhooks and digests are an owner's (where the server has accounts): AccountsArea says so to others.
  const { allowed } = usePermission('manage');
  if (!capabilities || !allowed) return null;
  return (
    <>
      {shown.has('webhooks') ? (
        <Suspense fallback={null}>
          <WebhooksSection />
        </Suspense>
      ) : (
        <Text size="sm" c="dimmed">
          The connected service has no webhooks: its alerts cannot be sent anywhere from here.
        </Text>
      )}
      {shown.has('digests') && (
        <Suspense fallback={null}>
          <DigestsSection />
        </Suspense>
      )}
    </>
  );
}

// Only where the deployment has share links (an extension), loaded with its first showing; nothing
// at all otherwise (links are made with Share, which such a server does not show either).
const ShareLinksSection = lazy(() => import('./share-links-section'));

function ShareLinksArea() {
  const shown = useShownSections();
  if (!shown.has('share-links')) return null;
  return (
    <Suspense fallback={null}>
      <ShareLinksSection />
    </Suspense>
  );
}

// Only where the deployment has clients (an extension), loaded with its first showing.
const ClientsSection = lazy(() => import('./clients-section'));

function ClientsArea() {
  const shown = useShownSections();
  const { capabilities } = useCapabilities();
  if (!capabilities) return null;
  if (!capabilities.clients) {
    return (
      <Text size="sm" c="dimmed">
        The connected service keeps no clients: grouping projects by client comes with the reference server’s
        extensions.
      </Text>
    );
  }
  // Not to a viewer, who may not change them: RoleGate says so.
  return (
    <RoleGate what="change clients">
      {shown.has('clients') && (
        <Suspense fallback={null}>
          <ClientsSection />
        </Suspense>
      )}
    </RoleGate>
  );
}

// Where the server has accounts (issue 47): Members and, where it keeps one, the Audit log, for an owner,
// each loaded with its first showing; to an editor or a viewer, a line saying what their role leaves out.
const MembersSection = lazy(() => import('./members-section'));
const AuditLogSection = lazy(() => import('./audit-log-section'));

function AccountsArea() {
  const shown = useShownSections();
  const { capabilities } = useCapabilities();
  const { role } = usePermission('manage');
  if (!capabilities?.accounts) return null;
  if (!shown.has('members'))
    return role && <RoleNote role={role} what="manage members, keys, webhooks, branding or digests" />;
  return (
    <Suspense fallback={null}>
      <MembersSection />
    </Suspense>
  );
}

/** The audit log, wider than the other sections: its table has seven columns. */
function AuditArea() {
  const shown = useShownSections();
  if (!shown.has('audit-log')) return null;
  return (
    <Suspense fallback={null}>
      <AuditLogSection />
    </Suspense>
  );
}

// Only where the deployment has branding (issue 48), loaded with its first showing.
const BrandingSection = lazy(() => import('./branding-section'));

function BrandingArea() {
  const shown = useShownSections();
  if (!shown.has('branding')) return null;
  return (
    <Suspense fallback={null}>
      <BrandingSection />
    </Suspense>
  );
}

// Shown only after a test has run, so it loads with the test rather than with the page.
const ConnectionCheckResultAlert = lazy(() =>
  import('@/components/connection-check-result').then((m) => ({ default: m.ConnectionCheckResultAlert })),
);

/** An address field of the form: the service's, or the report page's. */
function AddressField({
  label,
  description,
  placeholder,
  error,
  autoComplete,
  field,
}: {
  label: string;
  description: string;
  placeholder: string;
  error: string | undefined;
  autoComplete?: string;
  field: UseFormRegisterReturn;
}) {
  return (
    <TextInput
      label={label}
      description={description}
      placeholder={placeholder}
      inputMode="url"
      autoComplete={autoComplete}
      spellCheck={false}
      error={error}
      {...field}
    />
  );
}

export interface SettingsPageProps {
  /**
   * As the sign-in panel (sign-in-panel.tsx), because no key is saved ('no-key') or the service
   * refused the saved one ('refused'): the connection part of the form only, Save signs in.
   */
  signIn?: SignInReason;
  /** In place of the Settings heading. */
  header?: ReactNode;
  /** In place of the line that says what is in use. */
  footer?: ReactNode;
  /** Under the heading: the way to the sections below the connection. */
  contents?: ReactNode;
}

export function SettingsPage({ signIn, header, footer, contents }: SettingsPageProps) {
  const connection = useConnection();

  const form = useForm<SettingsInput, unknown, SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: {
      baseUrl: connection.baseUrl,
      // A refused key is no help: the panel asks for another.
      apiKey: signIn ? '' : (connection.apiKey ?? ''),
      remember: connection.remember,
      reportPageTemplate: readReportPageTemplate(),
    },
  });
  const {
    register,
    handleSubmit,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = form;
  const { save, testConnection, persist, testing, shownTest, unsaved } = useSettingsSave(
    form,
    connection,
    signIn !== undefined,
  );

  // On the sign-in panel the key leads; the address is folded unless one is in use already.
  const [anotherService, setAnotherService] = useState(() => connection.baseUrl !== '');
  const baseUrlField = (
    <AddressField
      label="Base URL"
      description="The service’s address without /api/v1, e.g. https://reports.example.com. Leave empty to use the API of this site (same origin)."
      placeholder="Same origin (this site)"
      autoComplete="url"
      error={errors.baseUrl?.message}
      field={register('baseUrl')}
    />
  );

  return (
    <Stack gap="lg" maw={720}>
      {header ?? (
        <div>
          <Title order={1}>Settings</Title>
          <Text c="dimmed" mt={4}>
            Where the Webpage Report Service API is, and the key the dashboard sends to it.
          </Text>
          {contents}
        </div>
      )}

      <Paper withBorder p="lg" radius="md">
        <form
          onSubmit={handleSubmit(save)}
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
            {!signIn && (
              <AddressField
                label="Report page address"
                description="Where visitors open a report, with {id} for its number, e.g. https://reports.example.com/r/{id}. Leave empty to use the address the service gives."
                placeholder="The service’s own"
                error={errors.reportPageTemplate?.message}
                field={register('reportPageTemplate')}
              />
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
                  loading={testing && !isSubmitting}
                  onClick={() => void handleSubmit(testConnection)()}
                >
                  Test connection
                </Button>
              )}
              {!signIn && connection.apiKey !== null && (
                <ForgetKey
                  onForgotten={() => {
                    setValue('apiKey', '', { shouldDirty: false });
                    // Forget key is gone with the key: the emptied field is where to go on.
                    setFocus('apiKey');
                  }}
                />
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
          In use now: the API at {describeBase(connection.baseUrl)}; API key {describeKey(connection)}.
        </Text>
      )}

    </Stack>
  );
}

/** /settings: the connection, and the clients, webhooks and share links where the deployment has them (with a key to ask it). */
function SettingsRoute() {
  const connection = useConnection();
  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap="lg" maw={720}>
        <SettingsPage contents={connection.apiKey !== null && <SettingsContents />} />
        {connection.apiKey !== null && <ClientsArea />}
        {connection.apiKey !== null && <WebhooksArea />}
        {connection.apiKey !== null && <ShareLinksArea />}
        {connection.apiKey !== null && <BrandingArea />}
        {connection.apiKey !== null && <AccountsArea />}
      </Stack>
      {connection.apiKey !== null && <AuditArea />}
    </Stack>
  );
}

export { SettingsRoute as Component };
