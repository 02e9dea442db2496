// One sentence per problem a check reports in its `errors`: worded for every reason the reference
// server gives (problem-reasons.ts), generic for any other.
import type { CheckKey } from '@/contract/values';
import { humanise } from './check-info';
import { count, formatBytes, formatMs, formatNumber, isNumber, isString, isStringList, toLine } from './evidence-format';
import type { ProblemReason } from './problem-reasons';

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
