// A check's `value` and `errors` turned into what a person reads: labelled rows, sizes in KB, times
// in ms, counts, lists of the offending items, and one sentence per problem. The shapes known here
// are the reference server's (server/src/analysis/page-checks.ts, site-checks.ts); any other shape,
// from another deployment or a newer service, falls back to generic rows, never to "[object Object]".
import type { CheckKey } from '@/api/contract';
import { humanise } from './check-info';
import type { ProblemReason } from './problems';

export type Shown =
  | { kind: 'text'; text: string; code?: boolean }
  | { kind: 'list'; items: Shown[]; more: number; code?: boolean; inline?: boolean }
  | { kind: 'rows'; rows: ShownRow[] };

export interface ShownRow {
  label: string;
  value: Shown;
}

/** Nesting shown as rows and lists; deeper levels are summarised ("3 items"). */
export const MAX_DEPTH = 4;
/** Items of one list or fields of one object shown; the rest are counted. */
export const MAX_ITEMS = 50;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
function isString(value: unknown): value is string {
  return typeof value === 'string';
}
function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}
function isOptional<T>(guard: (v: unknown) => v is T) {
  return (value: unknown): value is T | null | undefined =>
    value === null || value === undefined || guard(value);
}

const numberFormat = new Intl.NumberFormat('en');

export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** 512 -> "512 bytes", 12_345 -> "12.1 KB", 3_500_000 -> "3.3 MB" (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (Math.abs(bytes) < 1024) return `${formatNumber(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (Math.abs(bytes) < 1024 * 1024) return `${formatNumber(Math.round((bytes / 1024) * 10) / 10)} KB`;
  return `${formatNumber(Math.round((bytes / (1024 * 1024)) * 10) / 10)} MB`;
}

/** 2140 -> "2,140 ms". */
export function formatMs(ms: number): string {
  return `${formatNumber(Math.round(ms))} ms`;
}

/** 1 -> "1 image", 3 -> "3 images". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

const text = (value: string, code = false): Shown => ({
  kind: 'text',
  text: value,
  ...(code ? { code } : {}),
});
const none = (word = 'None'): Shown => text(word);
const yesNo = (value: boolean): Shown => text(value ? 'Yes' : 'No');
const row = (label: string, value: Shown): ShownRow => ({ label, value });

/** The reference server ends a list it cut short with an item `… (180 more)`. */
const MORE_ITEM = /^… \(([\d,]+) more\)$/;

/** The items of a list, and how many it says were left out (a last item like `… (180 more)`). */
function withoutMore(items: string[]): [items: string[], more: number] {
  const more = MORE_ITEM.exec(items.at(-1) ?? '');
  return more ? [items.slice(0, -1), Number(more[1]?.replaceAll(',', ''))] : [items, 0];
}

function list(all: string[], code = false, empty = 'None'): Shown {
  const [items, left] = withoutMore(all);
  if (items.length === 0 && left === 0) return none(empty);
  return {
    kind: 'list',
    items: items.slice(0, MAX_ITEMS).map((item) => text(item === '' ? '(empty)' : item, code)),
    more: Math.max(0, items.length - MAX_ITEMS) + left,
    ...(code ? { code } : {}),
  };
}

/** Short words (keywords, headings, type names) that read better on one line: "pricing, plans, teams". */
function words(items: string[]): Shown {
  const shown = list(items);
  const short = items.every((item) => item.length <= 60 && !item.includes(','));
  return shown.kind === 'list' && short ? { ...shown, inline: true } : shown;
}

function optionalText(value: string | null | undefined, code = false, empty = 'None'): Shown {
  return value === null || value === undefined || value.trim() === '' ? none(empty) : text(value, code);
}

/** Any JSON as rows, lists and text, down to MAX_DEPTH; what lies deeper is counted, not dropped silently. */
export function toShown(value: unknown, depth = 0): Shown {
  if (value === null || value === undefined) return none();
  if (typeof value === 'boolean') return yesNo(value);
  if (typeof value === 'number') return text(Number.isFinite(value) ? formatNumber(value) : String(value));
  if (typeof value === 'string') return text(value === '' ? '(empty)' : value);
  if (typeof value === 'bigint') return text(value.toString());
  if (Array.isArray(value)) {
    if (value.length === 0) return none();
    if (depth >= MAX_DEPTH) return text(count(value.length, 'item'));
    return {
      kind: 'list',
      items: value.slice(0, MAX_ITEMS).map((item) => toShown(item, depth + 1)),
      more: Math.max(0, value.length - MAX_ITEMS),
    };
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return none();
    if (depth >= MAX_DEPTH) return text(count(entries.length, 'field'));
    const rows = entries
      .slice(0, MAX_ITEMS)
      .map(([key, inner]) => row(humanise(key), toShown(inner, depth + 1)));
    if (entries.length > MAX_ITEMS)
      rows.push(row('More', text(`${count(entries.length - MAX_ITEMS, 'field')} not shown`)));
    return { kind: 'rows', rows };
  }
  return text(String(value));
}

/** Any JSON in one line ("a, b, c"; "status: 404"), for problem sentences about unknown errors. */
export function toLine(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return Number.isFinite(value) ? formatNumber(value) : String(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return count(value.length, 'item');
    const shown = value.slice(0, 10).map((item) => toLine(item, depth + 1));
    return value.length > 10
      ? `${shown.join(', ')} and ${formatNumber(value.length - 10)} more`
      : shown.join(', ');
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (depth >= MAX_DEPTH) return count(entries.length, 'field');
    return entries
      .map(([key, inner]) => `${humanise(key).toLowerCase()}: ${toLine(inner, depth + 1)}`)
      .join('; ');
  }
  return String(value);
}

/** Fields of a record other than `known`, as generic rows, so a newer service's extras still show. */
function extraRows(record: Json, known: readonly string[]): ShownRow[] {
  return Object.entries(record)
    .filter(([key]) => !known.includes(key))
    .map(([key, inner]) => row(humanise(key), toShown(inner, 1)));
}

function rowsOf(rows: ShownRow[]): Shown {
  return { kind: 'rows', rows };
}

function statusText(status: unknown): Shown {
  return isNumber(status) ? text(`HTTP ${status}`) : none('No answer');
}

type Formatter = (value: unknown) => Shown | null;

function textCheck(label: string): Formatter {
  return (value) => {
    if (value === null || value === undefined || value === '') return rowsOf([row(label, none())]);
    if (!isString(value)) return null;
    return rowsOf([row(label, text(value)), row('Length', text(count([...value].length, 'character')))]);
  };
}

function optionalTextCheck(label: string, code = false, empty = 'None'): Formatter {
  return (value) =>
    isOptional(isString)(value) ? rowsOf([row(label, optionalText(value, code, empty))]) : null;
}

function listCheck(label: string, code = true): Formatter {
  return (value) => (isStringList(value) ? rowsOf([row(label, list(value, code))]) : null);
}

function numberCheck(label: string, format: (n: number) => string): Formatter {
  return (value) => (isNumber(value) ? rowsOf([row(label, text(format(value)))]) : null);
}

const HTTP_REQUEST_LABELS: Record<string, string> = {
  scripts: 'Scripts',
  stylesheets: 'Stylesheets',
  images: 'Images',
  iframes: 'Frames',
  media: 'Audio and video',
  other: 'Other',
  total: 'Total',
};

/** How each check's evidence reads; a check without an entry gets generic rows. */
const FORMATTERS: Partial<Record<CheckKey, Formatter>> = {
  title: textCheck('Title'),
  meta_description: textCheck('Description'),
  headings: (value) => {
    if (!isRecord(value)) return null;
    const levels = Object.entries(value);
    if (!levels.every(([, texts]) => isStringList(texts))) return null;
    if (levels.length === 0) return rowsOf([row('Headings', none())]);
    return rowsOf(levels.map(([level, texts]) => row(level.toUpperCase(), words(texts as string[]))));
  },
  content_keywords: (value) => {
    if (!isRecord(value) || !isStringList(value.keywords) || !isOptional(isStringList)(value.found))
      return null;
    return rowsOf([
      row('Keywords in the title', words(value.keywords)),
      row('Found in the text', words(value.found ?? [])),
      ...extraRows(value, ['keywords', 'found']),
    ]);
  },
  image_keywords: (value) => {
    if (!isRecord(value) || !isNumber(value.images) || !isNumber(value.without_alt)) return null;
    if (!isOptional(isStringList)(value.sources)) return null;
    const rows = [
      row('Images', text(formatNumber(value.images))),
      row('Without alt text', text(formatNumber(value.without_alt))),
    ];
    if (value.sources && value.sources.length > 0)
      rows.push(row('Images missing alt text', list(value.sources, true)));
    return rowsOf([...rows, ...extraRows(value, ['images', 'without_alt', 'sources'])]);
  },
  seo_friendly_url: (value) => (isString(value) ? rowsOf([row('URL', text(value, true))]) : null),
  '404_page': (value) => {
    if (!isRecord(value) || !isString(value.url) || !isOptional(isNumber)(value.status)) return null;
    return rowsOf([
      row('Address tried', text(value.url, true)),
      row('Answer', statusText(value.status)),
      ...extraRows(value, ['url', 'status']),
    ]);
  },
  robots: (value) => {
    if (!isRecord(value) || !isString(value.url) || !isOptional(isNumber)(value.status)) return null;
    if (!isOptional((v): v is boolean => typeof v === 'boolean')(value.found)) return null;
    if (!isOptional(isString)(value.disallowed_by)) return null;
    const rows = [row('robots.txt', text(value.url, true)), row('Answer', statusText(value.status))];
    if (typeof value.found === 'boolean') rows.push(row('Found', yesNo(value.found)));
    if (value.found) rows.push(row('Rule blocking this page', optionalText(value.disallowed_by, true)));
    return rowsOf([...rows, ...extraRows(value, ['url', 'status', 'found', 'disallowed_by'])]);
  },
  noindex: (value) => {
    if (!isRecord(value) || !isOptional(isString)(value.meta) || !isOptional(isString)(value.header))
      return null;
    return rowsOf([
      row('Robots meta tag', optionalText(value.meta, true)),
      row('X-Robots-Tag header', optionalText(value.header, true)),
      ...extraRows(value, ['meta', 'header']),
    ]);
  },
  in_page_links: (value) => {
    if (!isRecord(value) || !isNumber(value.total)) return null;
    const rows = [row('Links', text(formatNumber(value.total)))];
    if (isNumber(value.internal)) rows.push(row('To this site', text(formatNumber(value.internal))));
    if (isNumber(value.external)) rows.push(row('To other sites', text(formatNumber(value.external))));
    return rowsOf([...rows, ...extraRows(value, ['total', 'internal', 'external'])]);
  },
  language: optionalTextCheck('Language', true, 'Not declared'),
  favicon: optionalTextCheck('Favicon', true),
  text_compression: (value) => {
    if (!isRecord(value) || !isOptional(isString)(value.encoding)) return null;
    if (!isOptional(isNumber)(value.transferred_bytes) || !isOptional(isNumber)(value.bytes)) return null;
    const rows = [row('Compression', optionalText(value.encoding, false, 'None'))];
    if (isNumber(value.transferred_bytes))
      rows.push(row('Transferred', text(formatBytes(value.transferred_bytes))));
    if (isNumber(value.bytes)) rows.push(row('Uncompressed size', text(formatBytes(value.bytes))));
    return rowsOf([...rows, ...extraRows(value, ['encoding', 'transferred_bytes', 'bytes'])]);
  },
  load_time: numberCheck('Load time', formatMs),
  page_size: numberCheck('HTML size', formatBytes),
  http_requests: (value) => {
    if (!isRecord(value) || !Object.values(value).every(isNumber)) return null;
    const entries = Object.entries(value as Record<string, number>);
    if (entries.length === 0) return rowsOf([row('Requests', none())]);
    // Total last, whatever order the service used.
    entries.sort(([a], [b]) => Number(a === 'total') - Number(b === 'total'));
    return rowsOf(
      entries.map(([type, n]) => row(HTTP_REQUEST_LABELS[type] ?? humanise(type), text(formatNumber(n)))),
    );
  },
  image_format: listCheck('Images in older formats'),
  defer_javascript: listCheck('Scripts that block rendering'),
  dom_size: numberCheck('Elements', formatNumber),
  https_encryption: (value) =>
    typeof value === 'boolean' ? rowsOf([row('Served over HTTPS', yesNo(value))]) : null,
  plaintext_email: listCheck('Addresses found', false),
  structured_data: (value) => {
    if (
      !isRecord(value) ||
      !isOptional(isStringList)(value.json_ld) ||
      !isOptional(isStringList)(value.microdata)
    )
      return null;
    if (!isOptional(isNumber)(value.invalid_json_ld)) return null;
    const rows = [
      row('JSON-LD types', words(value.json_ld ?? [])),
      row('Microdata types', words(value.microdata ?? [])),
    ];
    if (isNumber(value.invalid_json_ld) && value.invalid_json_ld > 0)
      rows.push(row('Invalid JSON-LD blocks', text(formatNumber(value.invalid_json_ld))));
    return rowsOf([...rows, ...extraRows(value, ['json_ld', 'microdata', 'invalid_json_ld'])]);
  },
  meta_viewport: optionalTextCheck('Viewport', true),
  charset: optionalTextCheck('Character set', false, 'Not declared'),
  sitemap: (value) => {
    if (
      !isRecord(value) ||
      !isOptional(isStringList)(value.found) ||
      !isOptional(isStringList)(value.checked)
    )
      return null;
    const rows = [row('Found', list(value.found ?? [], true))];
    if (value.checked) rows.push(row('Addresses checked', list(value.checked, true)));
    if (typeof value.named_in_robots === 'boolean')
      rows.push(row('Named in robots.txt', yesNo(value.named_in_robots)));
    return rowsOf([...rows, ...extraRows(value, ['found', 'checked', 'named_in_robots'])]);
  },
  social: (value) => {
    if (!isRecord(value) || !Object.values(value).every(isString)) return null;
    const entries = Object.entries(value as Record<string, string>);
    if (entries.length === 0) return rowsOf([row('Tags found', none())]);
    return rowsOf(entries.map(([tag, content]) => row(tag, optionalText(content))));
  },
  content_length: numberCheck('Words', formatNumber),
  text_html_ratio: numberCheck('Visible text', (n) => `${formatNumber(n)}% of the HTML`),
  inline_css: listCheck('Elements with inline styles'),
  deprecated_html_tags: (value) => {
    if (!isRecord(value) || !Object.values(value).every(isNumber)) return null;
    const entries = Object.entries(value as Record<string, number>);
    if (entries.length === 0) return rowsOf([row('Deprecated tags', none())]);
    return rowsOf(entries.map(([tag, n]) => row(`<${tag}>`, text(count(n, 'time')))));
  },
};

/** The evidence of a known key in a shape this file knows; null otherwise. */
export function formatKnownEvidence(key: string, value: unknown): Shown | null {
  const formatter = Object.hasOwn(FORMATTERS, key) ? FORMATTERS[key as CheckKey] : undefined;
  return formatter?.(value) ?? null;
}

/** A check's evidence for people: the known shape of a known key, or generic rows for anything else. */
export function formatEvidence(key: string, value: unknown): Shown {
  return formatKnownEvidence(key, value) ?? toShown(value);
}

type ProblemText = (detail: unknown) => string | null;

const n = (detail: unknown): number | null => (isNumber(detail) ? detail : null);
const s = (detail: unknown): string | null => (isString(detail) && detail.trim() !== '' ? detail : null);

function withNumber(make: (value: number) => string): ProblemText {
  return (detail) => {
    const value = n(detail);
    return value === null ? null : make(value);
  };
}
function withText(make: (value: string) => string): ProblemText {
  return (detail) => {
    const value = s(detail);
    return value === null ? null : make(value);
  };
}
function fixed(sentence: string): ProblemText {
  return () => sentence;
}

/** A sentence for every reason of every check (ProblemReason), and for no other. */
const PROBLEMS: { [K in CheckKey]: Record<ProblemReason<K>, ProblemText> } = {
  title: {
    missing: fixed('The page has no title.'),
    too_long: withNumber(
      (v) => `The title is ${count(v, 'character')} long; search results cut titles off after about 60.`,
    ),
    multiple: withNumber((v) => `The page has ${formatNumber(v)} <title> elements instead of one.`),
  },
  meta_description: {
    missing: fixed('The page has no meta description.'),
    too_long: withNumber(
      (v) => `The description is ${count(v, 'character')} long; search results cut it off after about 160.`,
    ),
  },
  headings: {
    missing_h1: fixed('The page has no <h1> heading.'),
    multiple_h1: withNumber((v) => `The page has ${formatNumber(v)} <h1> headings instead of one.`),
  },
  content_keywords: {
    no_keywords: fixed('The title has no words that could serve as keywords.'),
    not_found: (detail) =>
      isStringList(detail) && detail.length > 0
        ? `None of the title’s keywords appear in the text: ${detail.join(', ')}.`
        : null,
  },
  image_keywords: {
    missing_alt: withNumber((v) => `${count(v, 'image has', 'images have')} no alt attribute.`),
  },
  seo_friendly_url: {
    too_long: withNumber((v) => `The URL is ${count(v, 'character')} long.`),
    uppercase: fixed('The path contains upper-case letters.'),
    underscores: fixed('The path contains underscores.'),
    special_characters: withText((v) => `The path contains special characters: ${v}`),
    dynamic_extension: withText((v) => `The path ends in a “.${v}” file extension.`),
    query_string: withText((v) => `The URL has a query string: ${v}`),
  },
  '404_page': {
    status: withNumber((v) => `An address that does not exist answered HTTP ${v} instead of 404.`),
    unreachable: withText((v) => `An address that does not exist could not be fetched: ${v}`),
  },
  robots: {
    unreachable: withText((v) => `robots.txt could not be fetched: ${v}`),
    server_error: withNumber(
      (v) =>
        `robots.txt answered HTTP ${v}; crawlers treat a failing robots.txt as “keep out of the whole site”.`,
    ),
    disallowed: withText((v) => `robots.txt blocks this page with “Disallow: ${v}”.`),
  },
  noindex: {
    meta: withText((v) => `The robots meta tag says “${v}”.`),
    header: withText((v) => `The X-Robots-Tag header says “${v}”.`),
  },
  in_page_links: {
    too_many: withNumber((v) => `The page has ${count(v, 'link')}.`),
  },
  language: { missing: fixed('The <html> element has no lang attribute.') },
  favicon: { missing: fixed('The page links to no favicon.') },
  text_compression: { not_compressed: fixed('The HTML was sent without compression.') },
  load_time: {
    too_slow: withNumber((v) => `The page took ${formatMs(v)} to arrive; under 1,000 ms is the aim.`),
  },
  page_size: {
    too_large: withNumber((v) => `The HTML document weighs ${formatBytes(v)}.`),
    truncated: fixed('The page was larger than the analyser reads; only its first part was checked.'),
  },
  http_requests: { too_many: withNumber((v) => `The page makes ${count(v, 'request')} for resources.`) },
  image_format: {
    legacy_images: withNumber(
      (v) => `${count(v, 'image uses', 'images use')} an older format such as JPEG, PNG or GIF.`,
    ),
  },
  defer_javascript: {
    not_deferred: withNumber(
      (v) => `${count(v, 'script blocks', 'scripts block')} rendering (no defer or async).`,
    ),
  },
  dom_size: { too_large: withNumber((v) => `The page has ${count(v, 'element')}.`) },
  https_encryption: {
    not_https: (detail) => (s(detail) ? 'The page was served over plain HTTP.' : null),
  },
  plaintext_email: {
    found: withNumber((v) => `${count(v, 'email address appears', 'email addresses appear')} in the page.`),
  },
  structured_data: {
    missing: fixed('The page has no structured data.'),
    invalid_json_ld: withNumber(
      (v) => `${count(v, 'JSON-LD block is', 'JSON-LD blocks are')} not valid JSON.`,
    ),
  },
  meta_viewport: {
    missing: fixed('The page has no viewport meta tag.'),
    not_device_width: withText((v) => `The viewport tag does not set width=device-width (it says “${v}”).`),
  },
  charset: { missing: fixed('The page does not declare its character set.') },
  sitemap: { missing: fixed('No sitemap was found.') },
  social: {
    missing: (detail) =>
      isStringList(detail) && detail.length > 0 ? `Missing tags: ${detail.join(', ')}.` : null,
  },
  content_length: { too_few: withNumber((v) => `The page has only ${count(v, 'word')} of visible text.`) },
  text_html_ratio: { too_low: withNumber((v) => `Only ${formatNumber(v)}% of the HTML is visible text.`) },
  inline_css: { found: withNumber((v) => `${count(v, 'element has', 'elements have')} inline styles.`) },
  deprecated_html_tags: {
    found: (detail) =>
      isStringList(detail) && detail.length > 0
        ? `Deprecated tags in use: ${detail.map((tag) => `<${tag}>`).join(', ')}.`
        : null,
  },
  gsb: {},
};

/** The worded sentence for a known key and reason with a detail of the expected shape; null otherwise. */
export function describeKnownProblem(key: string, reason: string, detail: unknown): string | null {
  const known: Record<string, ProblemText> | undefined = Object.hasOwn(PROBLEMS, key)
    ? PROBLEMS[key as CheckKey]
    : undefined;
  return (known && Object.hasOwn(known, reason) ? known[reason]?.(detail) : null) ?? null;
}

/** One sentence per entry of `errors`: worded for known key/reason pairs, generic ("Too slow: 2,140") otherwise. */
export function describeProblems(key: string, errors: Record<string, unknown> | null): string[] {
  if (!errors) return [];
  return Object.entries(errors).map(([reason, detail]) => {
    const worded = describeKnownProblem(key, reason, detail);
    if (worded) return worded;
    // PHP lists arrive keyed "0", "1", …: the detail is all there is to say.
    const label = /^\d+$/.test(reason) ? '' : humanise(reason);
    const line = detail === true || detail === null || detail === undefined ? '' : toLine(detail);
    if (label === '') return line === '' ? 'Failed.' : sentence(line);
    return line === '' ? sentence(label) : `${label}: ${line}`;
  });
}

function sentence(line: string): string {
  return /[.!?…]$/.test(line) ? line : `${line}.`;
}
