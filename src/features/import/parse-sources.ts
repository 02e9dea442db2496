// Add many's sources read in the browser: a pasted list, a CSV file (Papa Parse; the URL column
// found by its header or, without one, by its content) and a sitemap file (its <loc>s, read with
// DOMParser). Each gives the entries as written; classify.ts decides what each one is.
import Papa from 'papaparse';
import { openPageHref } from '@/lib/urls';

export { parseList } from './entry-url';

/** At most this many entries from one source: the contract's own limit for a sitemap. */
export const MAX_ENTRIES = 50_000;
/** Files larger than this are refused before they are read. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export interface ParsedSource {
  entries: string[];
  /** What was read, in words ("sitemap: 120 URLs", "CSV column url"). */
  note: string;
  /** More entries than MAX_ENTRIES: the rest were left out. */
  truncated: boolean;
}

export class SourceError extends Error {
  override readonly name = 'SourceError';
}

function capped(entries: string[], note: string): ParsedSource {
  return { entries: entries.slice(0, MAX_ENTRIES), note, truncated: entries.length > MAX_ENTRIES };
}

// Header names that say "this column holds the pages' addresses".
const URL_HEADER =
  /^(?:urls?|address(?:es)?|page(?:s| url| address)?|loc|location|links?|href|uri|website|web address)$/i;

function looksLikeUrl(cell: string): boolean {
  const text = cell.trim();
  return /^https?:\/\//i.test(text) || (text !== '' && openPageHref(text) !== null);
}

/** A CSV's URL column: by its header (url, address, page, loc…), else the column most cells of which are URLs. */
export function parseCsv(text: string): ParsedSource {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const rows = parsed.data.filter((row) => Array.isArray(row));
  if (rows.length === 0) throw new SourceError('The CSV file has no rows.');
  const header = rows[0]!.map((cell) => cell.trim());
  let column = header.findIndex((cell) => URL_HEADER.test(cell));
  let body = rows.slice(1);
  let note: string;
  if (column !== -1) {
    note = `CSV column “${header[column]}”`;
  } else {
    const width = Math.max(...rows.map((row) => row.length));
    const counts = Array.from(
      { length: width },
      (_, i) => rows.filter((row) => looksLikeUrl(row[i] ?? '')).length,
    );
    const best = Math.max(...counts);
    if (best === 0)
      throw new SourceError('No column of URLs found: name its header “url”, or put one URL on each line.');
    column = counts.indexOf(best);
    // A first line whose cell is no URL is a header with a name not known here.
    if (looksLikeUrl(rows[0]![column] ?? '')) body = rows;
    note = `CSV column ${column + 1}`;
  }
  const entries = body.map((row) => (row[column] ?? '').trim()).filter((cell) => cell !== '');
  return capped(entries, `${note}: ${entries.length.toLocaleString('en')} URLs`);
}

/** A sitemap's page URLs (its <loc>s); a sitemap index is refused, saying what it is. */
export function parseSitemap(text: string): ParsedSource {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0)
    throw new SourceError('The file is not readable XML: is it a sitemap?');
  const root = doc.documentElement.localName;
  const locs = [...doc.getElementsByTagNameNS('*', 'loc')].map((loc) => (loc.textContent ?? '').trim());
  if (root === 'sitemapindex')
    throw new SourceError(
      `This is a sitemap index: it lists ${locs.length.toLocaleString('en')} sitemaps, not pages. Upload one of its sitemaps instead.`,
    );
  if (root !== 'urlset') throw new SourceError('The XML file is not a sitemap (no <urlset>).');
  const entries = locs.filter((loc) => loc !== '');
  return capped(entries, `Sitemap: ${entries.length.toLocaleString('en')} URLs`);
}

async function fileText(file: File): Promise<string> {
  if (!/\.gz$/i.test(file.name)) return file.text();
  if (typeof DecompressionStream !== 'function')
    throw new SourceError('This browser cannot read gzip files.');
  try {
    return await new Response(file.stream().pipeThrough(new DecompressionStream('gzip'))).text();
  } catch {
    throw new SourceError('The file is not readable gzip.');
  }
}

/** A CSV or sitemap file, told apart by its content (XML starts with `<`). */
export async function readSourceFile(file: File): Promise<ParsedSource> {
  if (file.size > MAX_FILE_BYTES)
    throw new SourceError(`The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
  const text = await fileText(file);
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('<')
    ? parseSitemap(text)
    : parseCsv(text);
}
