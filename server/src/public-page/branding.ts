// The agency's branding on the server-rendered pages (public report pages, share pages) and in
// e-mails: one header, built from the stored branding. The logo is an image of this server's own
// origin (/r/logo/<sha256>.<ext>, cacheable for good since its address names its content), so the
// pages' policy keeps `img-src 'self'` and needs no `data:`. The accent colour is one CSS variable in
// a <style> element of its own, allowed by its hash (brandingStyleSource): only a bar and a border
// carry it, never text, so no accent can break the text's contrast.
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { html, raw } from 'hono/html';
import type { BrandingRecord, BrandingStorage, LogoRecord } from '../storage/branding-storage';
import { PUBLIC_PAGE_PREFIX } from './page-url';

type Html = ReturnType<typeof html>;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Where the logo is served, under the public pages' prefix: its SHA-256 and its type's extension. */
export const LOGO_PATH_PREFIX = `${PUBLIC_PAGE_PREFIX}/logo`;

/** The file name of a logo of `type` (`logo.png`), as an e-mail attaches it. */
export function logoFileName(type: string): string {
  return `logo.${EXTENSIONS[type] ?? 'img'}`;
}

/** The logo's path on this server (prefix it with the public origin for an e-mail). */
export function brandingLogoPath(logo: LogoRecord): string {
  return `${LOGO_PATH_PREFIX}/${logo.sha256}.${EXTENSIONS[logo.type] ?? 'img'}`;
}

/** The hash and type a logo path names; null for anything else. */
export function parseLogoFile(file: string): { sha256: string; type: string } | null {
  const match = /^([0-9a-f]{64})\.(png|jpg|webp)$/.exec(file);
  if (!match) return null;
  const type = Object.keys(EXTENSIONS).find((key) => EXTENSIONS[key] === match[2])!;
  return { sha256: match[1]!, type };
}

/** Whether the branding has anything to show. */
export function hasBranding(branding: BrandingRecord | null): branding is BrandingRecord {
  return branding !== null && (branding.name !== null || branding.logo !== null || branding.accent !== null);
}

function accentCss(branding: BrandingRecord): string | null {
  // Stored as #rrggbb only (the route refuses anything else); checked again, as it goes into CSS.
  return branding.accent !== null && /^#[0-9a-f]{6}$/.test(branding.accent) ? `:root{--accent:${branding.accent}}` : null;
}

/** The CSP source that allows the branding's own <style> element, or null when it has none. */
export function brandingStyleSource(branding: BrandingRecord | null): string | null {
  const css = branding && accentCss(branding);
  return css ? `'sha256-${createHash('sha256').update(css).digest('base64')}'` : null;
}

/**
 * The branding on top of a page: the logo and the name, over a bar in the accent colour; '' when
 * there is no branding. `origin` prefixes the logo's path (an e-mail needs an absolute address).
 */
export function brandingHeader(branding: BrandingRecord | null, options: { origin?: string } = {}): Html | string {
  if (!hasBranding(branding)) return '';
  const css = accentCss(branding);
  const logo = branding.logo
    ? html`<img class="brand-logo" src="${options.origin ?? ''}${brandingLogoPath(branding.logo)}" alt="${branding.name === null ? 'Logo' : ''}">`
    : '';
  const name = branding.name === null ? '' : html`<span class="brand-name">${branding.name}</span>`;
  return html`${css ? raw(`<style>${css}</style>`) : ''}<div class="brand${css ? ' accented' : ''}">${logo}${name}</div>
`;
}

// The extra style sources a response's page asked for (its branding's), by request.
const extraStyles = new WeakMap<Request, string[]>();

/** Allows one more style source (brandingStyleSource) in this response's Content-Security-Policy. */
export function allowStyleSource(c: Context, source: string | null): void {
  if (source === null) return;
  extraStyles.set(c.req.raw, [...(extraStyles.get(c.req.raw) ?? []), source]);
}

/**
 * Put before the pages' security headers: adds the sources allowStyleSource named to `style-src`
 * of the policy those headers set, for this response only.
 */
export function extraStyleSources(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const sources = extraStyles.get(c.req.raw);
    const policy = c.res.headers.get('Content-Security-Policy');
    if (!sources || !policy) return;
    c.res.headers.set(
      'Content-Security-Policy',
      policy.replace(/(^|;\s*)style-src([^;]*)/, (_all, start: string, values: string) => `${start}style-src${values} ${sources.join(' ')}`),
    );
  };
}

/** The branding for a page about to be shown (public report and share pages), its accent's style allowed in this response's policy. */
export async function brandingForPage(c: Context, storage: { branding: BrandingStorage }): Promise<BrandingRecord> {
  const stored = await storage.branding.getBranding();
  allowStyleSource(c, brandingStyleSource(stored));
  return stored;
}
