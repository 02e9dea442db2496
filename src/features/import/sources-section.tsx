// Add many's sources: a pasted list, a CSV or sitemap file, a sitemap address the server reads
// (where it has Discover), and Preview.
import { Alert, Button, FileInput, Group, Loader, Paper, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconFileUpload, IconSearch } from '@tabler/icons-react';
import type { Discovery } from '@/api/discover';
import { errorMessage } from '@/api/http/errors';
import { plural } from '@/lib/plural';
import { schemesOfHosts } from './entry-url';
import type { ParsedSource } from './parse-sources';
import type { SitemapDiscovery, SourceFile } from './use-sources';
import classes from './import-page.module.css';

/** At most this many entries from one source (parse-sources.ts says so too). */
const MAX_ENTRIES = 50_000;

function SourceSummary({ source }: { source: ParsedSource }) {
  return (
    <Text size="sm" c="dimmed">
      {source.note}
      {source.truncated && ` (only the first ${MAX_ENTRIES.toLocaleString('en')} are taken)`}
    </Text>
  );
}

function FileField({ file }: { file: SourceFile }) {
  return (
    <div>
      <FileInput
        label="CSV or sitemap file"
        description="A CSV with a column of URLs (found by its header, such as url, or by its content), or a sitemap XML file (.xml or .xml.gz)."
        accept=".csv,.txt,.tsv,.xml,.gz,text/csv,text/plain,application/xml,text/xml,application/gzip"
        clearable
        leftSection={<IconFileUpload size={16} aria-hidden />}
        value={file.file}
        onChange={(chosen) => void file.choose(chosen)}
        error={file.error}
      />
      {file.source && <SourceSummary source={file.source} />}
    </div>
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

function SitemapField({ sitemap, entries }: { sitemap: SitemapDiscovery; entries: readonly string[] }) {
  const read = () => void sitemap.read(schemesOfHosts(entries));
  return (
    <div>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Sitemap address"
          description="A sitemap, a sitemap index, a robots.txt or a site’s address: the server reads it."
          placeholder="https://example.com/sitemap.xml"
          inputMode="url"
          spellCheck={false}
          style={{ flex: '1 1 18rem' }}
          value={sitemap.address}
          error={sitemap.error}
          onChange={(event) => sitemap.setAddress(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') read();
          }}
        />
        <Button variant="default" onClick={read} loading={sitemap.reading}>
          Read sitemap
        </Button>
      </Group>
      {sitemap.discovery && <DiscoveryResult discovery={sitemap.discovery} />}
    </div>
  );
}

export interface SourcesSectionProps {
  listText: string;
  onListChange: (text: string) => void;
  file: SourceFile;
  sitemap: SitemapDiscovery;
  /** Whether the server reads sitemaps (Discover); null while that is not known yet. */
  discover: boolean | null;
  /** Every entry of the sources, in order. */
  entries: readonly string[];
  onPreview: () => void;
  /** The preview's lookup of existing reports is under way. */
  checking: boolean;
  /** Why the last lookup failed, or null. */
  checkError: unknown;
}

export function SourcesSection({
  listText,
  onListChange,
  file,
  sitemap,
  discover,
  entries,
  onPreview,
  checking,
  checkError,
}: SourcesSectionProps) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Sources">
      <Stack gap="md">
        <Textarea
          label="URLs"
          description="One a line; blank lines are ignored; example.com/page is taken as https://example.com/page, or as http:// where the other lines of that host use http."
          rows={6}
          resize="vertical"
          spellCheck={false}
          value={listText}
          onChange={(event) => onListChange(event.currentTarget.value)}
        />
        <FileField file={file} />
        {discover ? (
          <SitemapField sitemap={sitemap} entries={entries} />
        ) : (
          discover === false && (
            <Text size="sm" c="dimmed">
              This server cannot read a sitemap by its address: download the sitemap and upload it as a file
              above.
            </Text>
          )
        )}
        <Group justify="space-between" gap="sm">
          <Text size="sm" role="status">
            {entries.length === 0 ? 'No URLs yet.' : `${plural(entries.length, 'line', 'lines')} to check.`}
          </Text>
          <Button
            leftSection={<IconSearch size={16} aria-hidden />}
            onClick={onPreview}
            loading={checking}
            disabled={entries.length === 0 || discover === null}
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
  );
}
