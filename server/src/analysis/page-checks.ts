import type { CheerioAPI } from 'cheerio';
import { makeCheck } from './check';
import { listed as listItems, moreItems } from '../results/evidence-bounds';
import type { Problems, RunnableCheckKey } from './check';
import type { Check, JsonValue } from '../results/check-result';
import type { FetchedPage } from '../net/fetcher';
import type { PageNode } from './parse-html';
import {
  DEPRECATED_TAGS,
  LEGACY_IMAGE_EXTENSIONS,
  MODERN_IMAGE_EXTENSIONS,
  SOCIAL_TAGS,
  STOP_WORDS,
  THRESHOLDS,
} from './rules';

/** What the checks that need nothing but the page itself read. */
export interface PageContext {
  /** The URL that answered (after redirects). */
  url: URL;
  html: string;
  $: CheerioAPI;
  page: FetchedPage;
  /** The charset named in the Content-Type header, if any. */
  headerCharset: string | null;
}

type PageCheckKey = Exclude<RunnableCheckKey, 'robots' | 'sitemap' | '404_page'>;

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most THRESHOLDS.maxListed items, the last one saying how many more there were (evidence-bounds.ts). */
function listed(items: string[]): JsonValue[] {
  return listItems(items, THRESHOLDS.maxListed);
}

/** Resolves an attribute URL against the page; null for what is not a fetchable URL. */
function absolute(base: URL, value: string | undefined): string | null {
  if (!value || value.trim() === '') return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const textCache = new WeakMap<CheerioAPI, string>();

/** Elements whose content is not rendered as text. */
const NOT_RENDERED = new Set(['script', 'style', 'noscript', 'template', 'svg']);

/**
 * Text a reader sees: the body without scripts, styles and other non-rendered content, as
 * `collapse` gives it. Built a text node at a time: cloning and pruning the body copied the whole
 * document, and one replace over a 5 MB page's text held about 70 MB while it ran.
 */
function visibleText($: CheerioAPI): string {
  const cached = textCache.get($);
  if (cached !== undefined) return cached;
  const pieces: string[] = [];
  // Each node's runs of white space become one space; a run across nodes, one space in all.
  let afterSpace = true;
  const walk = (nodes: PageNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        let piece = node.data.replace(/\s+/g, ' ');
        if (afterSpace && piece.startsWith(' ')) piece = piece.slice(1);
        if (piece === '') continue;
        pieces.push(piece);
        afterSpace = piece.endsWith(' ');
      } else if ('children' in node && !('name' in node && NOT_RENDERED.has(node.name))) {
        walk(node.children);
      }
    }
  };
  for (const body of $('body').toArray()) walk(body.children);
  const text = pieces.join('').trimEnd();
  textCache.set($, text);
  return text;
}

/** The page's <title>; an SVG's <title> names the drawing, not the page. */
function pageTitles($: CheerioAPI) {
  return $('title').filter((_, el) => $(el).closest('svg').length === 0);
}

function metaContent($: CheerioAPI, attribute: 'name' | 'property', name: string): string | null {
  const element = $(`meta[${attribute}]`)
    .filter((_, el) => ($(el).attr(attribute) ?? '').trim().toLowerCase() === name)
    .first();
  if (element.length === 0) return null;
  return collapse(element.attr('content') ?? '');
}

function relTokens(value: string | undefined): string[] {
  return (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

function titleCheck({ $ }: PageContext): Check {
  const titles = pageTitles($);
  const text = titles.length > 0 ? collapse(titles.first().text()) : '';
  const errors: Problems<'title'> = {};
  if (text === '') errors.missing = true;
  else if (text.length > THRESHOLDS.titleMaxLength) errors.too_long = text.length;
  if (titles.length > 1) errors.multiple = titles.length;
  return makeCheck('title', text === '' ? null : text, errors);
}

function metaDescriptionCheck({ $ }: PageContext): Check {
  const text = metaContent($, 'name', 'description');
  const errors: Problems<'meta_description'> = {};
  if (!text) errors.missing = true;
  else if (text.length > THRESHOLDS.descriptionMaxLength) errors.too_long = text.length;
  return makeCheck('meta_description', text || null, errors);
}

function headingsCheck({ $ }: PageContext): Check {
  const value: Record<string, JsonValue> = {};
  for (const level of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']) {
    const texts = $(level)
      .toArray()
      .map((el) => collapse($(el).text()))
      .filter((t) => t !== '');
    if (texts.length > 0) value[level] = listed(texts);
  }
  const h1Count = $('h1').filter((_, el) => collapse($(el).text()) !== '').length;
  const errors: Problems<'headings'> = {};
  if (h1Count === 0) errors.missing_h1 = true;
  else if (h1Count > 1) errors.multiple_h1 = h1Count;
  return makeCheck('headings', value, errors);
}

function keywordsOf(text: string): string[] {
  const words = (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2 && !STOP_WORDS.has(w));
  return [...new Set(words)];
}

function contentKeywordsCheck(ctx: PageContext): Check {
  const { $ } = ctx;
  const title = collapse(pageTitles($).first().text());
  const keywords = keywordsOf(title);
  // Scanned word by word, not split into an array: a 5 MB page has about a million words.
  const wanted = new Set(keywords);
  const seen = new Set<string>();
  for (const [word] of visibleText($).toLowerCase().matchAll(WORD)) {
    if (wanted.has(word)) seen.add(word);
    if (seen.size === wanted.size) break;
  }
  const found = keywords.filter((k) => seen.has(k));
  const errors: Problems<'content_keywords'> = {};
  if (keywords.length === 0) errors.no_keywords = true;
  else if (found.length === 0) errors.not_found = listed(keywords);
  return makeCheck('content_keywords', { keywords: listed(keywords), found: listed(found) }, errors);
}

function imageKeywordsCheck({ $, url }: PageContext): Check {
  const images = $('img');
  // alt="" is the right thing for decorative images; only a missing attribute is a fault.
  const withoutAlt = images.filter((_, el) => $(el).attr('alt') === undefined);
  const sources = withoutAlt
    .toArray()
    .map((el) => absolute(url, $(el).attr('src')) ?? $(el).attr('src') ?? '');
  const errors: Problems<'image_keywords'> = {};
  if (withoutAlt.length > 0) errors.missing_alt = withoutAlt.length;
  return makeCheck(
    'image_keywords',
    { images: images.length, without_alt: withoutAlt.length, sources: listed(sources) },
    errors,
  );
}

const DYNAMIC_EXTENSION = /\.(php\d?|aspx?|jsp|cgi|pl|cfm)$/i;

function seoFriendlyUrlCheck({ url }: PageContext): Check {
  const errors: Problems<'seo_friendly_url'> = {};
  if (url.href.length > THRESHOLDS.urlMaxLength) errors.too_long = url.href.length;
  let path = url.pathname;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    // Undecodable escapes stay as they are and count as special characters below.
  }
  if (/\p{Lu}/u.test(path)) errors.uppercase = true;
  if (path.includes('_')) errors.underscores = true;
  const special = [...new Set(path.replace(/[\p{Ll}\p{Lo}\p{N}\-/._~]/gu, ''))].filter(
    (c) => !/\p{Lu}/u.test(c),
  );
  if (special.length > 0) errors.special_characters = special.join('');
  const dynamic = DYNAMIC_EXTENSION.exec(path);
  if (dynamic?.[1]) errors.dynamic_extension = dynamic[1].toLowerCase();
  if (url.search !== '') errors.query_string = url.search;
  return makeCheck('seo_friendly_url', url.href, errors);
}

function noindexCheck({ $, page }: PageContext): Check {
  const directives = ['robots', 'webpagereportbot']
    .map((name) => metaContent($, 'name', name))
    .filter((c): c is string => c !== null);
  const meta = directives.find((c) => /\b(noindex|none)\b/i.test(c)) ?? null;
  const rawHeader = page.headers['x-robots-tag'];
  const header = Array.isArray(rawHeader) ? rawHeader.join(', ') : (rawHeader ?? null);
  const headerNoindex = header !== null && /\b(noindex|none)\b/i.test(header);
  const errors: Problems<'noindex'> = {};
  if (meta) errors.meta = meta;
  if (headerNoindex) errors.header = header;
  return makeCheck('noindex', { meta: directives[0] ?? null, header }, errors);
}

function inPageLinksCheck({ $, url }: PageContext): Check {
  let internal = 0;
  let external = 0;
  $('a[href]').each((_, el) => {
    const href = absolute(url, $(el).attr('href'));
    if (!href) return;
    if (new URL(href).host === url.host) internal += 1;
    else external += 1;
  });
  const total = internal + external;
  const errors: Problems<'in_page_links'> = {};
  if (total >= THRESHOLDS.maxLinks) errors.too_many = total;
  return makeCheck('in_page_links', { total, internal, external }, errors);
}

function languageCheck({ $ }: PageContext): Check {
  const lang = ($('html').attr('lang') ?? '').trim();
  return makeCheck('language', lang || null, lang ? {} : { missing: true });
}

function faviconCheck({ $, url }: PageContext): Check {
  const link = $('link[rel][href]')
    .filter((_, el) => relTokens($(el).attr('rel')).some((t) => t === 'icon' || t === 'apple-touch-icon'))
    .first();
  const href = link.length > 0 ? (absolute(url, link.attr('href')) ?? link.attr('href') ?? null) : null;
  return makeCheck('favicon', href, href ? {} : { missing: true });
}

function textCompressionCheck({ page }: PageContext): Check {
  return makeCheck(
    'text_compression',
    { encoding: page.encoding, transferred_bytes: page.transferredBytes, bytes: page.body.length },
    page.encoding ? {} : { not_compressed: true },
  );
}

function loadTimeCheck({ page }: PageContext): Check {
  return makeCheck(
    'load_time',
    page.timeMs,
    page.timeMs < THRESHOLDS.loadTimeMs ? {} : { too_slow: page.timeMs },
  );
}

function pageSizeCheck({ page }: PageContext): Check {
  const bytes = page.body.length;
  const errors: Problems<'page_size'> = {};
  if (bytes >= THRESHOLDS.pageSizeBytes || page.truncated) errors.too_large = bytes;
  if (page.truncated) errors.truncated = true;
  return makeCheck('page_size', bytes, errors);
}

/** Resources the page makes the browser fetch, each distinct URL once, by type. */
function requestedResources($: CheerioAPI, base: URL): Record<string, string[]> {
  const seen = new Set<string>();
  const byType: Record<string, string[]> = {
    scripts: [],
    stylesheets: [],
    images: [],
    iframes: [],
    media: [],
    other: [],
  };
  const add = (type: string, value: string | undefined) => {
    const href = absolute(base, value);
    if (!href || seen.has(href)) return;
    seen.add(href);
    byType[type]?.push(href);
  };
  $('script[src]').each((_, el) => add('scripts', $(el).attr('src')));
  $('link[href]').each((_, el) => {
    const rel = relTokens($(el).attr('rel'));
    if (rel.includes('stylesheet')) add('stylesheets', $(el).attr('href'));
    else if (rel.includes('preload') || rel.includes('modulepreload')) add('other', $(el).attr('href'));
  });
  $('img[src], input[type="image"][src]').each((_, el) => add('images', $(el).attr('src')));
  $('iframe[src], frame[src]').each((_, el) => add('iframes', $(el).attr('src')));
  $('video[src], audio[src], video source[src], audio source[src], track[src]').each((_, el) =>
    add('media', $(el).attr('src')),
  );
  $('embed[src]').each((_, el) => add('other', $(el).attr('src')));
  $('object[data]').each((_, el) => add('other', $(el).attr('data')));
  return byType;
}

function httpRequestsCheck({ $, url }: PageContext): Check {
  const byType = requestedResources($, url);
  const counts: Record<string, JsonValue> = {};
  let total = 0;
  for (const [type, urls] of Object.entries(byType)) {
    counts[type] = urls.length;
    total += urls.length;
  }
  counts.total = total;
  return makeCheck('http_requests', counts, total >= THRESHOLDS.maxHttpRequests ? { too_many: total } : {});
}

function extensionOf(href: string): string | null {
  if (href.startsWith('data:')) {
    const mime = /^data:image\/([\w.+-]+)/i.exec(href)?.[1]?.toLowerCase() ?? null;
    return mime === 'svg+xml' ? 'svg' : mime;
  }
  try {
    const match = /\.([a-z0-9]+)$/i.exec(new URL(href).pathname);
    return match?.[1]?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

function imageFormatCheck({ $, url }: PageContext): Check {
  const modernTypes = MODERN_IMAGE_EXTENSIONS.map((e) => `image/${e}`);
  const legacy: string[] = [];
  $('img[src]').each((_, el) => {
    const img = $(el);
    // A <picture> offering a modern source lets browsers that can use it skip the fallback.
    const offersModern = img
      .closest('picture')
      .find('source[type]')
      .toArray()
      .some((s) => modernTypes.some((t) => ($(s).attr('type') ?? '').toLowerCase().startsWith(t)));
    if (offersModern) return;
    const src = img.attr('src') ?? '';
    const href = src.startsWith('data:') ? src : absolute(url, src);
    if (!href) return;
    const ext = extensionOf(href);
    if (ext && (LEGACY_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) {
      legacy.push(href.startsWith('data:') ? `data:image/${ext}…` : href);
    }
  });
  const unique = [...new Set(legacy)];
  return makeCheck('image_format', listed(unique), unique.length > 0 ? { legacy_images: unique.length } : {});
}

const JS_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'module',
  'text/ecmascript',
  'application/ecmascript',
]);

function deferJavascriptCheck({ $, url }: PageContext): Check {
  const blocking = $('script[src]')
    .filter((_, el) => {
      const script = $(el);
      const type = (script.attr('type') ?? '').trim().toLowerCase();
      if (!JS_TYPES.has(type) || type === 'module') return false;
      return script.attr('defer') === undefined && script.attr('async') === undefined;
    })
    .toArray()
    .map((el) => absolute(url, $(el).attr('src')) ?? $(el).attr('src') ?? '');
  return makeCheck(
    'defer_javascript',
    listed(blocking),
    blocking.length > 0 ? { not_deferred: blocking.length } : {},
  );
}

function domSizeCheck({ $ }: PageContext): Check {
  const nodes = $('*').length;
  return makeCheck('dom_size', nodes, nodes >= THRESHOLDS.maxDomNodes ? { too_large: nodes } : {});
}

function httpsEncryptionCheck({ url }: PageContext): Check {
  return makeCheck(
    'https_encryption',
    url.protocol === 'https:',
    url.protocol === 'https:' ? {} : { not_https: url.href },
  );
}

const EMAIL_LOCAL = /[a-z0-9._%+-]{1,64}$/i;
const EMAIL_DOMAIN = /^[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}\b/i;
const NOT_A_TLD = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'css', 'js', 'ico']);

/**
 * E-mail addresses in the text, found around each "@" within bounded windows: one regular
 * expression over a multi-megabyte page could take quadratic time on long runs of letters.
 */
function findEmails(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    const local = EMAIL_LOCAL.exec(text.slice(Math.max(0, at - 64), at))?.[0];
    const domain = EMAIL_DOMAIN.exec(text.slice(at + 1, at + 1 + 255))?.[0];
    if (!local || !domain) continue;
    const tld = domain.slice(domain.lastIndexOf('.') + 1).toLowerCase();
    if (!NOT_A_TLD.has(tld)) found.push(`${local}@${domain}`.toLowerCase());
  }
  return found;
}

function plaintextEmailCheck({ html }: PageContext): Check {
  // Harvesters read the raw HTML, so mailto: links and text both count.
  const unique = [...new Set(findEmails(html))];
  return makeCheck('plaintext_email', listed(unique), unique.length > 0 ? { found: unique.length } : {});
}

function jsonLdTypes(data: unknown, into: string[]): void {
  if (Array.isArray(data)) {
    for (const item of data) jsonLdTypes(item, into);
    return;
  }
  if (data === null || typeof data !== 'object') return;
  const record = data as Record<string, unknown>;
  const type = record['@type'];
  if (typeof type === 'string') into.push(type);
  else if (Array.isArray(type)) into.push(...type.filter((t): t is string => typeof t === 'string'));
  if (record['@graph'] !== undefined) jsonLdTypes(record['@graph'], into);
}

function structuredDataCheck({ $ }: PageContext): Check {
  const jsonLd: string[] = [];
  let invalid = 0;
  $('script[type]')
    .filter((_, el) => ($(el).attr('type') ?? '').trim().toLowerCase() === 'application/ld+json')
    .each((_, el) => {
      try {
        const before = jsonLd.length;
        jsonLdTypes(JSON.parse($(el).text()), jsonLd);
        if (jsonLd.length === before) jsonLd.push('(untyped)');
      } catch {
        invalid += 1;
      }
    });
  const microdata = $('[itemscope]')
    .toArray()
    .map((el) => ($(el).attr('itemtype') ?? '').trim() || '(untyped)');
  const value = {
    json_ld: listed([...new Set(jsonLd)]),
    microdata: listed([...new Set(microdata)]),
    invalid_json_ld: invalid,
  };
  const errors: Problems<'structured_data'> = {};
  if (jsonLd.length + microdata.length === 0) {
    if (invalid > 0) errors.invalid_json_ld = invalid;
    else errors.missing = true;
  }
  return makeCheck('structured_data', value, errors);
}

function metaViewportCheck({ $ }: PageContext): Check {
  const content = metaContent($, 'name', 'viewport');
  const errors: Problems<'meta_viewport'> = {};
  if (content === null || content === '') errors.missing = true;
  else if (!/width\s*=\s*device-width/i.test(content)) errors.not_device_width = content;
  return makeCheck('meta_viewport', content || null, errors);
}

/** The charset the page declares: the header first, as browsers honour it over the markup. */
export function declaredCharset($: CheerioAPI, headerCharset: string | null): string | null {
  if (headerCharset) return headerCharset.toLowerCase();
  const meta = ($('meta[charset]').first().attr('charset') ?? '').trim();
  if (meta) return meta.toLowerCase();
  const httpEquiv = $('meta[http-equiv]')
    .filter((_, el) => ($(el).attr('http-equiv') ?? '').trim().toLowerCase() === 'content-type')
    .first()
    .attr('content');
  const fromEquiv = /charset\s*=\s*["']?([\w.:-]+)/i.exec(httpEquiv ?? '')?.[1];
  return fromEquiv ? fromEquiv.toLowerCase() : null;
}

function charsetCheck({ $, headerCharset }: PageContext): Check {
  const charset = declaredCharset($, headerCharset);
  return makeCheck('charset', charset, charset ? {} : { missing: true });
}

function socialCheck({ $ }: PageContext): Check {
  const present: Record<string, JsonValue> = {};
  const missing: string[] = [];
  for (const tag of SOCIAL_TAGS) {
    const content = metaContent($, 'property', tag) ?? metaContent($, 'name', tag);
    if (content) present[tag] = content;
    else missing.push(tag);
  }
  return makeCheck('social', present, missing.length > 0 ? { missing } : {});
}

function contentLengthCheck({ $ }: PageContext): Check {
  // Counted, not collected: a 5 MB page has about a million words.
  let words = 0;
  for (const _word of visibleText($).matchAll(WORD)) words += 1;
  return makeCheck('content_length', words, words < THRESHOLDS.minWords ? { too_few: words } : {});
}

function textHtmlRatioCheck({ $, html }: PageContext): Check {
  const ratio = html.length === 0 ? 0 : Math.round((visibleText($).length / html.length) * 1000) / 10;
  return makeCheck('text_html_ratio', ratio, ratio < THRESHOLDS.minTextHtmlRatio ? { too_low: ratio } : {});
}

function inlineCssCheck({ $ }: PageContext): Check {
  const styled = $('[style]')
    .toArray()
    .filter((el) => ($(el).attr('style') ?? '').trim() !== '');
  const snippet = (el: (typeof styled)[number]) => {
    const name = 'tagName' in el ? el.tagName : 'element';
    const text = `<${name} style="${collapse($(el).attr('style') ?? '')}">`;
    return text.length > 100 ? `${text.slice(0, 99)}…` : text;
  };
  // Only what is listed is written out: a page may have 100,000 styled elements.
  const max = THRESHOLDS.maxListed;
  const examples =
    styled.length <= max ? styled.map(snippet) : [...styled.slice(0, max - 1).map(snippet), moreItems(styled.length - (max - 1))];
  return makeCheck('inline_css', examples, styled.length > 0 ? { found: styled.length } : {});
}

function deprecatedTagsCheck({ $ }: PageContext): Check {
  const counts: Record<string, JsonValue> = {};
  for (const tag of DEPRECATED_TAGS) {
    const n = $(tag).length;
    if (n > 0) counts[tag] = n;
  }
  const found = Object.keys(counts);
  return makeCheck('deprecated_html_tags', counts, found.length > 0 ? { found } : {});
}

/** Every check that reads only the fetched page, by key. */
export const PAGE_CHECKS: Record<PageCheckKey, (ctx: PageContext) => Check> = {
  title: titleCheck,
  meta_description: metaDescriptionCheck,
  headings: headingsCheck,
  content_keywords: contentKeywordsCheck,
  image_keywords: imageKeywordsCheck,
  seo_friendly_url: seoFriendlyUrlCheck,
  noindex: noindexCheck,
  in_page_links: inPageLinksCheck,
  language: languageCheck,
  favicon: faviconCheck,
  text_compression: textCompressionCheck,
  load_time: loadTimeCheck,
  page_size: pageSizeCheck,
  http_requests: httpRequestsCheck,
  image_format: imageFormatCheck,
  defer_javascript: deferJavascriptCheck,
  dom_size: domSizeCheck,
  https_encryption: httpsEncryptionCheck,
  plaintext_email: plaintextEmailCheck,
  structured_data: structuredDataCheck,
  meta_viewport: metaViewportCheck,
  charset: charsetCheck,
  social: socialCheck,
  content_length: contentLengthCheck,
  text_html_ratio: textHtmlRatioCheck,
  inline_css: inlineCssCheck,
  deprecated_html_tags: deprecatedTagsCheck,
};
