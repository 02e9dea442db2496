// The branding's limits and messages (api-contract.md, Share links and branding): one definition
// for the reference server, which enforces them, and the dashboard, which says them before sending.
// No zod here: the dashboard imports this, and full zod would join its entry chunk.
/** The most a logo may weigh: 200 KB. */
export const LOGO_MAX_BYTES = 200 * 1024;
/** PUT /branding's own body limit, whatever BODY_LIMIT says: a logo and the form around it. */
export const BRANDING_BODY_LIMIT = 256 * 1024;
/** The longest name, in characters. */
export const BRANDING_NAME_MAX = 100;
/** The logo types taken, as their content (not their name) says. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const ACCENT_PATTERN = /^#[0-9a-fA-F]{6}$/;

export const BRANDING_MESSAGES = {
  nameMax: `The name must not be greater than ${BRANDING_NAME_MAX} characters.`,
  nameControl: 'The name must not contain control characters.',
  accent: 'The accent must be a colour written #rrggbb.',
  logoType: 'The logo must be a PNG, JPEG or WebP image; SVG and other files are refused.',
  logoSize: 'The logo must not be greater than 200 kilobytes.',
  logoFile: 'The logo must be a file.',
} as const;
