import type { CheckKey } from '@/contract/values';

/**
 * The reasons each check fails with: the keys of its `errors`, as the reference server reports them.
 * The server can report no other (its checks are typed by this), and the dashboard words every one
 * (its table is typed by this too), so the two cannot drift apart unnoticed. `gsb` is the service's
 * own (Google Safe Browsing); the reference server does not run it.
 */
interface Reasons {
  title: 'missing' | 'too_long' | 'multiple';
  meta_description: 'missing' | 'too_long';
  headings: 'missing_h1' | 'multiple_h1';
  content_keywords: 'no_keywords' | 'not_found';
  image_keywords: 'missing_alt';
  seo_friendly_url:
    | 'too_long'
    | 'uppercase'
    | 'underscores'
    | 'special_characters'
    | 'dynamic_extension'
    | 'query_string';
  '404_page': 'status' | 'unreachable';
  robots: 'unreachable' | 'server_error' | 'disallowed';
  noindex: 'meta' | 'header';
  in_page_links: 'too_many';
  language: 'missing';
  favicon: 'missing';
  text_compression: 'not_compressed';
  load_time: 'too_slow';
  page_size: 'too_large' | 'truncated';
  http_requests: 'too_many';
  image_format: 'legacy_images';
  defer_javascript: 'not_deferred';
  dom_size: 'too_large';
  https_encryption: 'not_https';
  plaintext_email: 'found';
  structured_data: 'missing' | 'invalid_json_ld';
  meta_viewport: 'missing' | 'not_device_width';
  charset: 'missing';
  sitemap: 'missing';
  social: 'missing';
  content_length: 'too_few';
  text_html_ratio: 'too_low';
  inline_css: 'found';
  deprecated_html_tags: 'found';
  gsb: never;
}

/** The failure reasons of check `K` (a key of Reasons for every check key, or this does not compile). */
export type ProblemReason<K extends CheckKey> = Reasons[K];
