// The branding (api-contract.md, Share links and branding): the agency's name, accent colour and
// logo, which the public report pages, share pages, printed pages and digests carry. The logo is
// taken as PNG, JPEG or WebP by its content (file-type reads its first bytes), whatever its name or
// declared type say: an SVG renamed .png is refused (an SVG can carry script).
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describeRoute } from 'hono-openapi';
import { fileTypeFromBuffer } from 'file-type';
import {
  BRANDING_BODY_LIMIT,
  BRANDING_MESSAGES,
  BRANDING_NAME_MAX,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
} from '../../../src/contract/branding';
import { brandingFieldsSchema, REQUEST_MESSAGES } from '../../../src/contract/request-schemas';
import { strictBrandingEnvelope } from '../../../src/contract/strict-schemas';
import type { AppDeps } from './app-deps';
import { errorResponse, validationResponse, type FieldErrors } from '../http/errors';
import { errors, KEYED_ERRORS, ok } from '../http/openapi';
import { fieldErrors } from '../http/validation';
import { brandingLogoPath } from '../public-page/branding';
import { publicOrigin } from '../public-page/page-url';
import type { BrandingRecord, LogoImage } from '../storage/branding-storage';

const FORM_TYPES = new Set(['multipart/form-data', 'application/x-www-form-urlencoded']);

const PUT_BODY_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, maxLength: BRANDING_NAME_MAX, description: 'The agency’s name; empty clears it, left out keeps it.' },
    accent: { type: 'string' as const, pattern: '^(#[0-9a-fA-F]{6})?$', description: 'The accent colour `#rrggbb`; empty clears it, left out keeps it.' },
    logo: {
      type: 'string' as const,
      format: 'binary',
      description: `A PNG, JPEG or WebP image of at most ${LOGO_MAX_BYTES} bytes, by its content (SVG refused); left out (or an empty file) keeps the logo.`,
    },
  },
};

/** The logo of a form, checked by its content; a field error, or undefined when none was sent. */
async function readLogo(value: unknown): Promise<LogoImage | { error: string } | undefined> {
  if (value === undefined || value === '') return undefined;
  if (!(value instanceof File)) return { error: BRANDING_MESSAGES.logoFile };
  // A form sent without a file chosen carries an empty one.
  if (value.size === 0) return undefined;
  if (value.size > LOGO_MAX_BYTES) return { error: BRANDING_MESSAGES.logoSize };
  const bytes = Buffer.from(await value.arrayBuffer());
  const found = await fileTypeFromBuffer(bytes);
  const type = LOGO_TYPES.find((known) => known === found?.mime);
  if (!type) return { error: BRANDING_MESSAGES.logoType };
  return { type, bytes };
}

/** /branding. */
export function brandingRouter(deps: Required<AppDeps>) {
  const { storage, config, now } = deps;

  async function brandingJson(c: Context, branding: BrandingRecord) {
    const logo = branding.logo && (await storage.branding.getLogo(branding.logo.sha256));
    return {
      name: branding.name,
      accent: branding.accent,
      logo:
        branding.logo && logo
          ? {
              type: branding.logo.type,
              size: branding.logo.size,
              url: `${publicOrigin(c, config)}${brandingLogoPath(branding.logo)}`,
              data_url: `data:${logo.type};base64,${logo.bytes.toString('base64')}`,
            }
          : null,
      updated_at: branding.updatedAt,
    };
  }

  const answer = async (c: Context, branding: BrandingRecord) =>
    c.json({ data: await brandingJson(c, branding), status: 200 as const }, 200);

  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'showBranding',
        summary: 'The branding: name, accent colour and logo (an extension)',
        description: 'Every field null when none was set. Public report pages, share pages, printed pages and digests carry it.',
        tags: ['Branding'],
        responses: { 200: ok('The branding.', strictBrandingEnvelope), ...errors(...KEYED_ERRORS) },
      }),
      async (c) => answer(c, await storage.branding.getBranding()),
    )
    .put(
      '/',
      describeRoute({
        operationId: 'setBranding',
        summary: 'Set the branding’s name, accent colour and logo (an extension)',
        description:
          `Multipart form data (or form-urlencoded, without a logo). The body may be ${BRANDING_BODY_LIMIT} bytes, whatever \`BODY_LIMIT\` says. ` +
          'The logo is checked by its content, not its name or declared type: PNG, JPEG or WebP only (an SVG is refused, renamed or not).',
        tags: ['Branding'],
        requestBody: {
          required: true,
          content: { 'multipart/form-data': { schema: PUT_BODY_SCHEMA }, 'application/x-www-form-urlencoded': { schema: PUT_BODY_SCHEMA } },
        },
        responses: {
          200: ok('The branding as it is now.', strictBrandingEnvelope),
          413: {
            description: `A body over ${BRANDING_BODY_LIMIT} bytes.`,
            ...errors(413)['413'],
          },
          ...errors(...KEYED_ERRORS, 422),
        },
      }),
      bodyLimit({ maxSize: BRANDING_BODY_LIMIT, onError: (c) => errorResponse(c, 413) }),
      async (c) => {
        const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (!FORM_TYPES.has(mediaType)) return validationResponse(c, { body: [REQUEST_MESSAGES.bodyMultipart] });
        let body: Record<string, unknown>;
        try {
          body = await c.req.parseBody();
        } catch {
          return validationResponse(c, { body: [REQUEST_MESSAGES.bodyMultipart] });
        }
        const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
        const parsed = brandingFieldsSchema.safeParse({ name: text(body.name), accent: text(body.accent) });
        const fields: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error.issues);
        const logo = await readLogo(body.logo);
        if (logo && 'error' in logo) fields.logo = [logo.error];
        if (!parsed.success || Object.keys(fields).length > 0 || (logo && 'error' in logo)) return validationResponse(c, fields);
        const { name, accent } = parsed.data;
        const branding = await storage.branding.setBranding({
          name: name === undefined ? undefined : name === '' ? null : name,
          accent: accent === undefined ? undefined : accent === '' ? null : accent.toLowerCase(),
          logo,
          now: now(),
        });
        return answer(c, branding);
      },
    )
    .delete(
      '/logo',
      describeRoute({
        operationId: 'deleteBrandingLogo',
        summary: 'Remove the branding’s logo (an extension)',
        description: 'The name and accent stay. Removing no logo is no error.',
        tags: ['Branding'],
        responses: { 200: ok('The branding as it is now, without a logo.', strictBrandingEnvelope), ...errors(...KEYED_ERRORS) },
      }),
      async (c) => answer(c, await storage.branding.setBranding({ logo: null, now: now() })),
    );
}
