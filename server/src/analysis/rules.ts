import type { CheckKey, Importance } from '../../../src/contract/values';

/**
 * Every threshold the checks use, in one place. The numbers follow common guidance from
 * search engines and page-speed tools: titles longer than about 60 characters and descriptions
 * longer than about 160 are cut off in result pages; a document that takes more than a second
 * to arrive, weighs more than ~330 KB, pulls more than 50 resources or has more than 1500 DOM
 * nodes is flagged by Lighthouse-style audits.
 */
export const THRESHOLDS = {
  /** `title`: passes with 1..60 characters. */
  titleMaxLength: 60,
  /** `meta_description`: passes with 1..160 characters. */
  descriptionMaxLength: 160,
  /** `seo_friendly_url`: the whole URL at most this long. */
  urlMaxLength: 100,
  /** `in_page_links`: fewer links than this. */
  maxLinks: 150,
  /** `load_time`: the page arrives in less than this many ms (redirects included). */
  loadTimeMs: 1000,
  /** `page_size`: the decoded HTML document is smaller than this. */
  pageSizeBytes: 330 * 1024,
  /** `http_requests`: fewer resources referenced by the page than this. */
  maxHttpRequests: 50,
  /** `dom_size`: fewer elements than this. */
  maxDomNodes: 1500,
  /** `text_html_ratio`: visible text is at least this percentage of the HTML. */
  minTextHtmlRatio: 10,
  /** `content_length`: at least this many words of visible text. */
  minWords: 500,
  /** Evidence lists (image URLs, scripts, emails, …) are cut at this length; counts stay exact. */
  maxListed: 20,
  /** Bytes read from robots.txt, sitemap.xml and the 404 probe. */
  auxiliaryMaxBytes: 512 * 1024,
  /** Time allowed for each of those fetches (never more than the page's own timeout). */
  auxiliaryTimeoutMs: 5000,
} as const;

/**
 * How much each check matters. The score weighs passed checks by these (see score.ts), so the
 * table decides what a report's result is; it is fixed and the same for every page.
 */
export const IMPORTANCE_OF: Record<Exclude<CheckKey, 'gsb'>, Importance> = {
  title: 'high',
  meta_description: 'high',
  headings: 'high',
  content_keywords: 'medium',
  image_keywords: 'medium',
  seo_friendly_url: 'medium',
  '404_page': 'medium',
  robots: 'high',
  noindex: 'high',
  in_page_links: 'low',
  language: 'medium',
  favicon: 'low',
  text_compression: 'high',
  load_time: 'high',
  page_size: 'medium',
  http_requests: 'medium',
  image_format: 'medium',
  defer_javascript: 'medium',
  dom_size: 'low',
  https_encryption: 'high',
  plaintext_email: 'low',
  structured_data: 'low',
  meta_viewport: 'high',
  charset: 'medium',
  sitemap: 'low',
  social: 'low',
  content_length: 'low',
  text_html_ratio: 'low',
  inline_css: 'low',
  deprecated_html_tags: 'low',
};

/** Elements HTML5 removed or never standardised. */
export const DEPRECATED_TAGS = [
  'acronym',
  'applet',
  'basefont',
  'bgsound',
  'big',
  'blink',
  'center',
  'dir',
  'font',
  'frame',
  'frameset',
  'isindex',
  'marquee',
  'nobr',
  'noframes',
  'plaintext',
  'spacer',
  'strike',
  'tt',
  'xmp',
] as const;

/** Image formats that count as modern for `image_format`. */
export const MODERN_IMAGE_EXTENSIONS = ['webp', 'avif', 'svg', 'jxl'] as const;
/** Image formats that a modern one should replace. */
export const LEGACY_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff'] as const;

/** The Open Graph and Twitter tags `social` expects. */
export const SOCIAL_TAGS = ['og:title', 'og:description', 'og:image', 'og:url', 'twitter:card'] as const;

/** Words too common to count as a page's keywords (English, as most pages here are). */
export const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his how ' +
    'i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under ' +
    'until up very was we were what when where which while who whom why will with would you your yours home page welcome'
  ).split(' '),
);
