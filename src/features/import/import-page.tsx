// /reports/import, "Add many reports": URLs from a pasted list, a CSV or sitemap file, or a sitemap
// address the server reads (Discover, where it has it); a preview of what each URL is before anything
// is written; then the run, through the request scheduler, saved on the device as it goes.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Switch.css';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconFileUpload, IconSearch } from '@tabler/icons-react';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { Privacy } from '@/contract/values';
import { useCapabilities } from '@/api/capabilities';
import { discover } from '@/api/discover';
import type { Discovery } from '@/api/discover';
import { errorMessage, isApiError } from '@/api/http/errors';
import { countStatuses } from '@/workflows/use-bulk-run';
import { useImportRun } from '@/workflows/use-import-run';
import type { ImportTask } from '@/workflows/use-import-run';
import { ImportResume } from '@/components/import-resume';
import { useSavedImport } from '@/components/use-saved-import';
import { BackLink } from '@/components/back-link';
import { PrivacyField } from '@/components/privacy-field';
import { passwordProblem } from '@/lib/report-url';
import { classify, parseList, urlsToLookUp } from './classify';
import type { PreviewRow } from './classify';
import type { ParsedSource } from './parse-sources';
import classes from './import-page.module.css';

// Three fields and one rule (passwordProblem, the create form's): plain state, without
// react-hook-form and zod (about 28 KB gzip on this page's first visit).
interface BatchValues {
  privacy: '0' | '1' | '2';
  password: string;
  refresh: boolean;
}

// Loaded when first needed, so that the page's first visit stays within the size budget.
const ImportPreview = lazy(() => import('./import-preview').then((m) => ({ default: m.ImportPreview })));
const RunProgress = lazy(() =>
  import('@/components/bulk-progress').then((m) => ({ default: m.RunProgress })),
);
const loadParser = () => import('./parse-sources');

/** At most this many entries from one source (parse-sources.ts says so too). */
const MAX_ENTRIES = 50_000;

interface Preview {
  rows: PreviewRow[];
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

function SourceSummary({ source }: { source: ParsedSource }) {
  return (
    <Text size="sm" c="dimmed">
      {source.note}
      {source.truncated && ` (only the first ${MAX_ENTRIES.toLocaleString('en')} are taken)`}
    </Text>
  );
}

function DiscoveryResult({ discovery }: { discovery: Discovery }) {
  return (
    <Stack gap={4}>
      <Text size="sm">
        Found {plural(discovery.urls.length, 'page URL', 'page URLs')}
        {discovery.truncated && ': a limit was reached, the list is cut short'}.
      </Text>
      <ul aria-label="Sources read" className={classes.sources}>
        {discovery.sources.map((source, i) => (
          <li key={i}>
            <Text size="sm" span>
              {source.url} ({source.kind}
              {source.count !== null && `, ${plural(source.count, 'URL', 'URLs')}`})
            </Text>
            {source.error !== null && (
              <Text size="sm" span c="red">
                {' '}
                {source.error}
              </Text>
            )}
          </li>
        ))}
      </ul>
    </Stack>
  );
}

function ImportPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { capabilities, isPending: capabilitiesPending } = useCapabilities();
  const runner = useImportRun();
  const saved = useSavedImport();

  const [listText, setListText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileSource, setFileSource] = useState<ParsedSource | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [sitemapUrl, setSitemapUrl] = useState('');
  const [discovery, setDiscovery] = useState<Discovery | null>(null);
  const [discoverError, setDiscoverError] = useState<string | null>(null);
  const [discovering, setDiscovering] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<unknown>(null);
  const lookup = useRef<AbortController | null>(null);

  const [privacy, setPrivacy] = useState<BatchValues['privacy']>('0');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const privacyRef = useRef<HTMLInputElement>(null);

  useEffect(() => () => lookup.current?.abort(), []);

  const entries = [...parseList(listText), ...(fileSource?.entries ?? []), ...(discovery?.urls ?? [])];
  const urlFilter = capabilities?.url_filter ?? false;

  // A change of the sources makes the preview out of date.
  const sourcesChanged = () => {
    lookup.current?.abort();
    setPreview(null);
    setCheckError(null);
  };

  const chooseFile = async (chosen: File | null) => {
    setFile(chosen);
    setFileSource(null);
    setFileError(null);
    sourcesChanged();
    if (!chosen) return;
    try {
      const { readSourceFile } = await loadParser();
      setFileSource(await readSourceFile(chosen));
    } catch (error) {
      const { SourceError } = await loadParser();
      setFileError(error instanceof SourceError ? error.message : 'The file could not be read.');
    }
  };

  const readSitemap = async () => {
    const address = sitemapUrl.trim();
    if (address === '') {
      setDiscoverError('Enter the address of a sitemap, a robots.txt or a site.');
      return;
    }
    setDiscovering(true);
    setDiscoverError(null);
    setDiscovery(null);
    sourcesChanged();
    try {
      setDiscovery(await discover(address));
    } catch (error) {
      const onField = isApiError(error) ? error.fieldErrors.url : undefined;
      setDiscoverError(onField?.join(' ') ?? errorMessage(error));
    } finally {
      setDiscovering(false);
    }
  };

  const check = async () => {
    lookup.current?.abort();
    const controller = new AbortController();
    lookup.current = controller;
    setChecking(true);
    setCheckError(null);
    setPreview(null);
    try {
      const [{ findExistingReports }, { createScheduler }] = await Promise.all([
        import('@/api/exact-url'),
        import('@/api/http/scheduler'),
      ]);
      const existing = await findExistingReports(urlsToLookUp(entries), {
        urlFilter,
        urlFilterMany: capabilities?.url_filter_many ?? false,
        scheduler: createScheduler({ signal: controller.signal }),
        signal: controller.signal,
      });
      if (!controller.signal.aborted) setPreview({ rows: classify(entries, existing) });
    } catch (error) {
      if (!controller.signal.aborted) setCheckError(error);
    } finally {
      if (lookup.current === controller) setChecking(false);
    }
  };

  const newRows = preview?.rows.filter((row) => row.status === 'new') ?? [];
  const alreadyRows = preview?.rows.filter((row) => row.status === 'already') ?? [];
  const refreshCount = refresh ? alreadyRows.length : 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = privacy === '2' ? passwordProblem(password) : null;
    setPasswordError(wrong);
    if (wrong) {
      passwordRef.current?.focus();
      return;
    }
    start({ privacy, password, refresh });
  };

  const start = (values: BatchValues) => {
    if (!preview || runner.run?.phase === 'running') return;
    const tasks: ImportTask[] = [
      ...newRows.map((row) => ({ url: row.url!, action: 'create' as const, reportId: null })),
      ...(values.refresh
        ? alreadyRows.map((row) => ({ url: row.url!, action: 'refresh' as const, reportId: row.report!.id }))
        : []),
    ];
    if (tasks.length === 0) return;
    const batchPrivacy = Number(values.privacy) as Privacy;
    runner.start(tasks, {
      privacy: batchPrivacy,
      password: batchPrivacy === 2 ? values.password : undefined,
      urlFilter,
    });
  };

  const resume = (password: string | undefined) => {
    if (!saved) return;
    runner.resume(saved, { privacy: saved.privacy, password, urlFilter });
  };

  // Resume pressed on /reports: go on at once, unless the batch needs its password again.
  const resumeAsked = (location.state as { resume?: boolean } | null)?.resume === true;
  useEffect(() => {
    if (!resumeAsked || capabilities === null) return;
    void navigate('.', { replace: true, state: null });
    if (saved && saved.privacy !== 2 && runner.run === null)
      runner.resume(saved, { privacy: saved.privacy, urlFilter });
  }, [resumeAsked, capabilities, saved, runner, navigate, urlFilter]);

  const run = runner.run;
  const failed = run?.items.filter((item) => item.status === 'failed') ?? [];
  const downloadFailed = async () => {
    const [{ csvText, datedCsvFileName }, { downloadBlob }] = await Promise.all([
      import('@/lib/csv'),
      import('@/lib/download'),
    ]);
    const rows = failed.map((item) => [item.url, item.message]);
    downloadBlob(
      new Blob([csvText(['url', 'reason'], rows)], { type: 'text/csv;charset=utf-8' }),
      datedCsvFileName('failed-rows'),
    );
  };
  const dismiss = () => {
    runner.dismiss();
    setPreview(null);
  };

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <BackLink to="/reports">Reports</BackLink>
        <Title order={1} mt="xs">
          Add many reports
        </Title>
        <Text c="dimmed" mt={4}>
          Paste a list of URLs, upload a CSV or sitemap file
          {capabilities?.discover ? ', or read a sitemap by its address' : ''}. You see what each URL is
          before anything is created.
        </Text>
      </div>

      {saved && run === null && <ImportResume saved={saved} onResume={resume} />}

      {run !== null ? (
        <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
          <RunProgress
            title={`Adding ${plural(run.items.length, 'report', 'reports')}`}
            run={run}
            listLabel="Status of each URL"
            noun="URLs"
            linkOf={(item) =>
              'reportId' in item && typeof item.reportId === 'number' ? `/reports/${item.reportId}` : null
            }
            onCancel={runner.cancel}
            onRetryFailed={runner.retryFailed}
            onDismiss={dismiss}
            finishedActions={
              failed.length > 0 && (
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconDownload size={14} aria-hidden />}
                  onClick={() => void downloadFailed()}
                >
                  Download failed rows
                </Button>
              )
            }
          />
        </Suspense>
      ) : (
        <>
          <Paper withBorder p="lg" radius="md" component="section" aria-label="Sources">
            <Stack gap="md">
              <Textarea
                label="URLs"
                description="One a line; blank lines are ignored; example.com/page is taken as https://example.com/page."
                rows={6}
                resize="vertical"
                spellCheck={false}
                value={listText}
                onChange={(event) => {
                  setListText(event.currentTarget.value);
                  sourcesChanged();
                }}
              />
              <div>
                <FileInput
                  label="CSV or sitemap file"
                  description="A CSV with a column of URLs (found by its header, such as url, or by its content), or a sitemap XML file (.xml or .xml.gz)."
                  accept=".csv,.txt,.tsv,.xml,.gz,text/csv,text/plain,application/xml,text/xml,application/gzip"
                  clearable
                  leftSection={<IconFileUpload size={16} aria-hidden />}
                  value={file}
                  onChange={(chosen) => void chooseFile(chosen)}
                  error={fileError}
                />
                {fileSource && <SourceSummary source={fileSource} />}
              </div>
              {capabilities?.discover ? (
                <div>
                  <Group align="flex-end" gap="sm" wrap="wrap">
                    <TextInput
                      label="Sitemap address"
                      description="A sitemap, a sitemap index, a robots.txt or a site’s address: the server reads it."
                      placeholder="https://example.com/sitemap.xml"
                      inputMode="url"
                      spellCheck={false}
                      style={{ flex: '1 1 18rem' }}
                      value={sitemapUrl}
                      error={discoverError}
                      onChange={(event) => setSitemapUrl(event.currentTarget.value)}
                      onKeyDown={(event) => {
                        if (event.key === 'Enter') void readSitemap();
                      }}
                    />
                    <Button variant="default" onClick={() => void readSitemap()} loading={discovering}>
                      Read sitemap
                    </Button>
                  </Group>
                  {discovery && <DiscoveryResult discovery={discovery} />}
                </div>
              ) : (
                !capabilitiesPending && (
                  <Text size="sm" c="dimmed">
                    This server cannot read a sitemap by its address: download the sitemap and upload it as a
                    file above.
                  </Text>
                )
              )}
              <Group justify="space-between" gap="sm">
                <Text size="sm" role="status">
                  {entries.length === 0
                    ? 'No URLs yet.'
                    : `${plural(entries.length, 'line', 'lines')} to check.`}
                </Text>
                <Button
                  leftSection={<IconSearch size={16} aria-hidden />}
                  onClick={() => void check()}
                  loading={checking}
                  disabled={entries.length === 0 || capabilitiesPending}
                >
                  Preview
                </Button>
              </Group>
              {checking && (
                <Group gap="xs">
                  <Loader size="xs" aria-hidden />
                  <Text size="sm">Looking for existing reports…</Text>
                </Group>
              )}
              {checkError !== null && (
                <Alert
                  color="red"
                  variant="light"
                  title="The URLs could not be checked"
                  icon={<IconAlertTriangle aria-hidden />}
                >
                  <Text size="sm">{errorMessage(checkError)}</Text>
                </Alert>
              )}
            </Stack>
          </Paper>

          {preview && (
            <Paper withBorder p="lg" radius="md" component="section" aria-label="Preview">
              <Stack gap="md">
                <Title order={2} size="h3">
                  Preview
                </Title>
                <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
                  <ImportPreview rows={preview.rows} />
                </Suspense>
                <form onSubmit={submit} noValidate aria-label="Create the reports">
                  <Stack gap="md">
                    <PrivacyField
                      field={{
                        value: privacy,
                        onChange: (value) => setPrivacy(value as BatchValues['privacy']),
                        onBlur: () => {},
                        name: 'privacy',
                        ref: privacyRef,
                      }}
                      layout="row"
                    />
                    {privacy === '2' && (
                      <PasswordInput
                        label="Password"
                        description="Protects every report of this batch."
                        autoComplete="new-password"
                        withAsterisk
                        maw={360}
                        error={passwordError}
                        ref={passwordRef}
                        value={password}
                        onChange={(event) => {
                          setPassword(event.currentTarget.value);
                          if (passwordError !== null) setPasswordError(null);
                        }}
                      />
                    )}
                    {/* No Switch description: Mantine puts it inside the label, and so in the switch's name. */}
                    <div>
                      <Switch
                        label="Refresh existing reports instead"
                        aria-describedby="import-refresh-hint"
                        disabled={alreadyRows.length === 0}
                        checked={refresh}
                        onChange={(event) => setRefresh(event.currentTarget.checked)}
                      />
                      <Text id="import-refresh-hint" size="xs" c="dimmed" mt={4}>
                        The Already reported URLs get their results refreshed; otherwise they are left alone.
                      </Text>
                    </div>
                    <Group justify="flex-end">
                      <Button type="submit" disabled={newRows.length + refreshCount === 0}>
                        {`Create ${plural(newRows.length, 'report', 'reports')}`}
                        {refreshCount > 0 && `, refresh ${refreshCount.toLocaleString('en')}`}
                      </Button>
                    </Group>
                  </Stack>
                </form>
              </Stack>
            </Paper>
          )}
        </>
      )}
      {run !== null && run.phase === 'finished' && countStatuses(run.items).done > 0 && (
        <Text size="sm">
          <Anchor component={Link} to="/reports">
            See them in Reports
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

export { ImportPage as Component };
