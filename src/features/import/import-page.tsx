// /reports/import, "Add many reports": URLs from a pasted list, a CSV or sitemap file, or a sitemap
// address the server reads (Discover, where it has it); a preview of what each URL is before anything
// is written; then the run, through the request scheduler, saved on the device as it goes.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/RadioIndicator.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Switch.css';
import { Loader, Stack, Text, Title } from '@mantine/core';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useCapabilities } from '@/api/capabilities';
import { useImportRun } from '@/workflows/use-import-run';
import type { ImportBatch, ImportTask } from '@/workflows/use-import-run';
import { ImportResume } from '@/components/import-resume';
import { useSavedImport } from '@/components/use-saved-import';
import { BackLink } from '@/components/back-link';
import { parseList } from './entry-url';
import { SourcesSection } from './sources-section';
import { usePreviewLookup } from './use-preview-lookup';
import { useSitemapDiscovery, useSourceFile } from './use-sources';
import { RoleGate } from '@/components/role-gate';

// Loaded when first needed, so that the page's first visit stays within the size budget (the batch
// form's react-hook-form among them).
const loadPreviewSection = () => import('./preview-section');
const PreviewSection = lazy(() => loadPreviewSection().then((m) => ({ default: m.PreviewSection })));
const ImportRun = lazy(() => import('./import-run').then((m) => ({ default: m.ImportRun })));

function ImportPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { capabilities, isPending: capabilitiesPending } = useCapabilities();
  const runner = useImportRun();
  const saved = useSavedImport();
  const lookup = usePreviewLookup(capabilities);
  const [listText, setListText] = useState('');
  const file = useSourceFile(lookup.reset);
  const sitemap = useSitemapDiscovery(lookup.reset);

  const entries = [...parseList(listText), ...(file.source?.entries ?? []), ...(sitemap.discovery?.urls ?? [])];
  const urlFilter = capabilities?.url_filter ?? false;
  const run = runner.run;

  const start = (tasks: ImportTask[], batch: Omit<ImportBatch, 'urlFilter'>) => {
    if (run?.phase === 'running' || tasks.length === 0) return;
    runner.start(tasks, { ...batch, urlFilter });
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

  const dismiss = () => {
    runner.dismiss();
    lookup.reset();
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

      <RoleGate what="add reports">
        {saved && run === null && <ImportResume saved={saved} onResume={resume} />}

        {run !== null ? (
          <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
            <ImportRun run={run} runner={runner} onDismiss={dismiss} idsFilter={capabilities?.ids_filter ?? false} />
          </Suspense>
        ) : (
          <>
            <SourcesSection
              listText={listText}
              onListChange={(text) => {
                setListText(text);
                lookup.reset();
              }}
              file={file}
              sitemap={sitemap}
              discover={capabilitiesPending ? null : (capabilities?.discover ?? false)}
              entries={entries}
              onPreview={() => {
                // The preview's code comes while the server is asked about the URLs.
                void loadPreviewSection();
                void lookup.check(entries);
              }}
              checking={lookup.checking}
              checkError={lookup.error}
            />
            {lookup.rows && (
              <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
                <PreviewSection rows={lookup.rows} onStart={start} />
              </Suspense>
            )}
          </>
        )}
      </RoleGate>
    </Stack>
  );
}

export { ImportPage as Component };
