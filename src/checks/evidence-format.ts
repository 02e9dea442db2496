// A check's `value` turned into what a person reads: labelled rows, sizes in KB, times in ms,
// counts, lists of the offending items (its `errors` are worded in problem-sentences.ts). The shapes known here
// are the reference server's (server/src/analysis/page-checks.ts, site-checks.ts); any other shape,
// from another deployment or a newer service, falls back to generic rows, never to "[object Object]".
import type { CheckKey } from '@/contract/values';
import { humanise } from './check-info';

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
export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
export function isString(value: unknown): value is string {
  return typeof value === 'string';
}
export function isStringList(value: unknown): value is string[] {
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
