// What each check is called on screen, and what to do when it fails: why it matters and how to fix
// it, in one or two plain sentences. Keys the dashboard does not know get a name made from the key.
import type { CheckKey } from '@/contract/values';

export interface CheckInfo {
  name: string;
  /** Shown when the check failed. */
  advice: string;
}

export const CHECK_INFO: Record<CheckKey, CheckInfo> = {
  title: {
    name: 'Title',
    advice:
      'Search results and browser tabs show the title first, so it decides whether people click. Give the page one <title> of up to 60 characters that says what this page offers.',
  },
  meta_description: {
    name: 'Meta description',
    advice:
      'Search engines often use the description as the snippet under the title. Add a <meta name="description"> of up to 160 characters that sums up the page and invites the click.',
  },
  headings: {
    name: 'Headings',
    advice:
      'Readers, screen readers and search engines use the headings to see how the page is organised. Give the page exactly one <h1> naming its subject, and use <h2>–<h6> for its sections.',
  },
  content_keywords: {
    name: 'Content keywords',
    advice:
      'When the words of the title do not appear in the text, search engines have less reason to rank the page for them. Use the title’s main words naturally in the visible text, or retitle the page after what it says.',
  },
  image_keywords: {
    name: 'Image alt text',
    advice:
      'Screen readers read the alt text aloud and search engines index it; without it an image says nothing to either. Add an alt attribute to every <img>: a short description, or alt="" for purely decorative images.',
  },
  seo_friendly_url: {
    name: 'SEO-friendly URL',
    advice:
      'Short, readable addresses are easier to share and tell people what to expect before they click. Use lower-case words separated by hyphens, and avoid file extensions, query strings and special characters.',
  },
  '404_page': {
    name: '404 page',
    advice:
      'A missing page that answers 200 looks like real content to search engines, which then index empty or duplicate pages. Make the server answer 404 (or 410) for addresses that do not exist, with a helpful page for visitors.',
  },
  robots: {
    name: 'Robots.txt',
    advice:
      'Crawlers read robots.txt before anything else, and a rule there can keep this page out of search results entirely. Make sure robots.txt is reachable and does not disallow pages you want found.',
  },
  noindex: {
    name: 'Indexing allowed',
    advice:
      'A noindex directive tells search engines to leave the page out of their results. Remove noindex from the robots meta tag or the X-Robots-Tag header unless hiding the page is intended.',
  },
  in_page_links: {
    name: 'In-page links',
    advice:
      'A page with a very large number of links dilutes the weight of each one and is hard to navigate. Keep links to those that help the reader, and move long lists to their own pages.',
  },
  language: {
    name: 'Language',
    advice:
      'Screen readers pick their pronunciation from the page’s language, and search engines use it to serve the right audience. Add a lang attribute to the <html> element, for example lang="en".',
  },
  favicon: {
    name: 'Favicon',
    advice:
      'The small icon in tabs, bookmarks and some search results helps people recognise your site. Add a <link rel="icon"> pointing to an icon file.',
  },
  text_compression: {
    name: 'Text compression',
    advice:
      'Uncompressed HTML takes several times longer to download, especially on mobile connections. Turn on gzip or Brotli compression for text responses in the web server or CDN.',
  },
  load_time: {
    name: 'Load time',
    advice:
      'Visitors leave slow pages, and search engines rank faster pages higher. Reduce the time the server needs to answer: cache pages, speed up slow database queries, and avoid redirect chains.',
  },
  page_size: {
    name: 'Page size',
    advice:
      'A heavy HTML document is slow to download and parse, above all on phones. Remove unused markup and inline data, and load large content only when it is needed.',
  },
  http_requests: {
    name: 'HTTP requests',
    advice:
      'Every script, stylesheet and image is another request the browser must make before the page is complete. Combine files, drop what the page does not use, and lazy-load images below the fold.',
  },
  image_format: {
    name: 'Image format',
    advice:
      'Modern formats such as WebP and AVIF are often much smaller than JPEG, PNG or GIF at the same quality. Convert the listed images, or offer a modern version through <picture>.',
  },
  defer_javascript: {
    name: 'Deferred JavaScript',
    advice:
      'Scripts without defer or async stop the browser from showing the page until they have downloaded and run. Add defer (or async for independent scripts) to the listed <script> tags.',
  },
  dom_size: {
    name: 'DOM size',
    advice:
      'A page with very many elements uses more memory and makes every style change and interaction slower. Simplify deeply nested markup and render long lists in pages.',
  },
  https_encryption: {
    name: 'HTTPS encryption',
    advice:
      'Without HTTPS anyone on the network can read or change what visitors see and send, and browsers mark the page as not secure. Serve the site over HTTPS and redirect HTTP to it.',
  },
  gsb: {
    name: 'Safe browsing',
    advice:
      'Google Safe Browsing lists this page as unsafe, so browsers warn visitors away from it. Find and remove the malware or deceptive content, then ask for a review in Google Search Console.',
  },
  plaintext_email: {
    name: 'Plain-text email addresses',
    advice:
      'Email addresses written in the page are collected by spam bots. Use a contact form instead, or hide the address from simple scrapers.',
  },
  structured_data: {
    name: 'Structured data',
    advice:
      'Structured data lets search engines understand the page and show rich results such as ratings, prices or breadcrumbs. Describe the page with schema.org JSON-LD and make sure it is valid JSON.',
  },
  meta_viewport: {
    name: 'Meta viewport',
    advice:
      'Without a viewport tag, phones show the page zoomed out as if on a desktop screen, and text is too small to read. Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
  },
  charset: {
    name: 'Character set',
    advice:
      'When the character set is not declared, browsers may guess it wrong and show garbled letters. Declare UTF-8 with <meta charset="utf-8"> at the top of <head>, or in the Content-Type header.',
  },
  sitemap: {
    name: 'Sitemap',
    advice:
      'A sitemap tells search engines which pages exist and when they changed, so new pages are found sooner. Publish a sitemap.xml and name it in robots.txt with a Sitemap: line.',
  },
  social: {
    name: 'Social media tags',
    advice:
      'Open Graph and Twitter tags decide the title, text and image shown when the page is shared. Add the missing og: and twitter: meta tags.',
  },
  content_length: {
    name: 'Content length',
    advice:
      'Pages with little text give readers and search engines little to go on. Expand the content with useful, original text about the page’s subject.',
  },
  text_html_ratio: {
    name: 'Text to HTML ratio',
    advice:
      'When markup and scripts far outweigh the readable text, the page is heavier than its content needs. Trim unnecessary markup and inline code, or add more useful text.',
  },
  inline_css: {
    name: 'Inline CSS',
    advice:
      'Styles written into style attributes cannot be cached and are hard to change consistently. Move them into a stylesheet and use classes.',
  },
  deprecated_html_tags: {
    name: 'Deprecated HTML tags',
    advice:
      'Obsolete tags may be shown differently or ignored by current browsers and assistive technology. Replace them with current HTML elements and CSS.',
  },
};

export function isKnownCheck(key: string): key is CheckKey {
  return Object.hasOwn(CHECK_INFO, key);
}

/** "Meta description" for a known key; an unknown key readable as words ("page_speed" -> "Page speed"). */
export function checkName(key: string): string {
  if (isKnownCheck(key)) return CHECK_INFO[key].name;
  return humanise(key);
}

/** Advice for a failed check; null for keys the dashboard does not know. */
export function checkAdvice(key: string): string | null {
  return isKnownCheck(key) ? CHECK_INFO[key].advice : null;
}

/** "too_slow" -> "Too slow", "missingH1" -> "Missing h1"; keeps the text when there is nothing to split. */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  if (words === '') return key.trim() === '' ? '(unnamed)' : key;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

