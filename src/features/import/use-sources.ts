// Add many's sources besides the pasted list: a CSV or sitemap file read in the browser, and a
// sitemap address the server reads (Discover). Each calls `onChange` when what it gives changes,
// which makes the preview out of date.
import { useState } from 'react';
import { discover } from '@/api/discover';
import type { Discovery } from '@/api/discover';
import { errorMessage, isApiError } from '@/api/http/errors';
import { entryUrl } from './entry-url';
import type { SchemeOf } from './entry-url';
import type { ParsedSource } from './parse-sources';

// Loaded when a file is first chosen, so that the page's first visit stays within the size budget.
const loadParser = () => import('./parse-sources');

export function useSourceFile(onChange: () => void) {
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<ParsedSource | null>(null);
  const [error, setError] = useState<string | null>(null);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setSource(null);
    setError(null);
    onChange();
    if (!chosen) return;
    try {
      const { readSourceFile } = await loadParser();
      setSource(await readSourceFile(chosen));
    } catch (failure) {
      const { SourceError } = await loadParser();
      setError(failure instanceof SourceError ? failure.message : 'The file could not be read.');
    }
  };

  return { file, source, error, choose };
}

export type SourceFile = ReturnType<typeof useSourceFile>;

export function useSitemapDiscovery(onChange: () => void) {
  const [address, setAddress] = useState('');
  const [discovery, setDiscovery] = useState<Discovery | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);

  /** `schemeOf`: as for the sources' lines, the scheme of their host where the address has none. */
  const read = async (schemeOf?: SchemeOf) => {
    if (address.trim() === '') {
      setError('Enter the address of a sitemap, a robots.txt or a site.');
      return;
    }
    // What the URLs box takes, taken alike: `127.0.0.2:8080/sitemap.xml` as https://….
    const parsed = entryUrl(address, schemeOf);
    if ('reason' in parsed) {
      setError(parsed.reason);
      return;
    }
    const { url } = parsed;
    setReading(true);
    setError(null);
    setDiscovery(null);
    onChange();
    try {
      setDiscovery(await discover(url));
    } catch (failure) {
      const onField = isApiError(failure) ? failure.fieldErrors.url : undefined;
      setError(onField?.join(' ') ?? errorMessage(failure));
    } finally {
      setReading(false);
    }
  };

  return { address, setAddress, discovery, error, reading, read };
}

export type SitemapDiscovery = ReturnType<typeof useSitemapDiscovery>;
