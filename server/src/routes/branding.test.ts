// /branding on every engine (SQLite always, PostgreSQL when the tests have a server): the name,
// accent and logo as set, the logo checked by its content (an SVG renamed .png refused), the route's
// own body limit whatever BODY_LIMIT says, and the branding on the public report page with its logo
// served from this origin, cacheable, under a policy that still allows nothing else.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BRANDING_MESSAGES, LOGO_MAX_BYTES } from '../../../src/contract/branding';
import { strictBrandingEnvelope, strictValidationErrorSchema } from '../../../src/contract/strict-schemas';
import { JPEG_START, SVG_LOGO, solidPng } from '../../../test/server/images';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { createTestApp, GOOD, TEST_KEY, type TestApp } from '../../../test/server/test-app';
import { newKey } from '../auth/keys';

const RED_PNG = solidPng(8, 4, [200, 20, 20]);

function put(t: TestApp, fields: Record<string, string | { bytes: Buffer; name: string; type: string }>, key = TEST_KEY) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new File([new Uint8Array(value.bytes)], value.name, { type: value.type }));
  }
  return t.app.request('/api/v1/branding', { method: 'PUT', headers: { Authorization: `Bearer ${key}` }, body: form });
}

async function branding(res: Response) {
  expect(res.status).toBe(200);
  return strictBrandingEnvelope.parse(await res.json()).data;
}

async function refused(res: Response) {
  expect(res.status).toBe(422);
  return strictValidationErrorSchema.parse(await res.json()).message;
}

const png = (bytes: Buffer = RED_PNG, name = 'logo.png') => ({ bytes, name, type: 'image/png' });

describe.each(STORAGE_ENGINES)('/api/v1/branding on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const app = async (config: { bodyLimitBytes?: number } = {}) =>
    createTestApp({ storage: await (await fresh()).open(), config, now: () => new Date('2026-11-30T03:00:00.000Z') });

  it('has none at first, then the name, accent and logo as set; a field left out stays, one sent empty goes', async () => {
    const t = await app();
    expect(await branding(await t.call('GET', '/api/v1/branding'))).toEqual({ name: null, accent: null, logo: null, updated_at: null });

    const set = await branding(await put(t, { name: '  Acme <b>SEO</b>  ', accent: '#AA33CC', logo: png() }));
    expect(set).toMatchObject({ name: 'Acme <b>SEO</b>', accent: '#aa33cc', updated_at: '2026-11-30T03:00:00.000000Z' });
    const sha = createHash('sha256').update(RED_PNG).digest('hex');
    expect(set.logo).toEqual({
      type: 'image/png',
      size: RED_PNG.length,
      url: `http://localhost/r/logo/${sha}.png`,
      data_url: `data:image/png;base64,${RED_PNG.toString('base64')}`,
    });
    expect(await branding(await t.call('GET', '/api/v1/branding'))).toEqual(set);

    // Only the accent sent: the name and logo stay; then the name sent empty: cleared.
    expect(await branding(await put(t, { accent: '#112233' }))).toMatchObject({ name: 'Acme <b>SEO</b>', accent: '#112233', logo: set.logo });
    expect(await branding(await put(t, { name: '', logo: { bytes: Buffer.alloc(0), name: '', type: 'application/octet-stream' } }))).toMatchObject({
      name: null,
      accent: '#112233',
      logo: set.logo,
    });
  });

  it('takes a logo by its content: an SVG renamed .png is refused, as is anything but PNG, JPEG or WebP', async () => {
    const t = await app();
    expect(await refused(await put(t, { name: 'Acme', logo: png(SVG_LOGO, 'logo.png') }))).toEqual({ logo: [BRANDING_MESSAGES.logoType] });
    expect(await refused(await put(t, { logo: { bytes: SVG_LOGO, name: 'logo.svg', type: 'image/svg+xml' } }))).toEqual({ logo: [BRANDING_MESSAGES.logoType] });
    expect(await refused(await put(t, { logo: png(Buffer.from('GIF89a not really'), 'logo.png') }))).toEqual({ logo: [BRANDING_MESSAGES.logoType] });
    expect(await refused(await put(t, { logo: 'not a file' }))).toEqual({ logo: [BRANDING_MESSAGES.logoFile] });
    // Nothing of a refused form is kept, not even its valid name.
    expect(await branding(await t.call('GET', '/api/v1/branding'))).toMatchObject({ name: null, logo: null });

    // A JPEG named .png is a JPEG: its content decides.
    const jpeg = await branding(await put(t, { logo: png(JPEG_START, 'logo.png') }));
    expect(jpeg.logo).toMatchObject({ type: 'image/jpeg' });
    expect(jpeg.logo?.url).toMatch(/\/r\/logo\/[0-9a-f]{64}\.jpg$/);
  });

  it('refuses a bad accent, a long name and a logo over 200 KB; has its own body limit of 256 KB whatever BODY_LIMIT says', async () => {
    const t = await app({ bodyLimitBytes: 1024 });
    expect(await refused(await put(t, { accent: 'red' }))).toEqual({ accent: [BRANDING_MESSAGES.accent] });
    expect(await refused(await put(t, { accent: '#12345' }))).toEqual({ accent: [BRANDING_MESSAGES.accent] });
    expect(await refused(await put(t, { name: 'x'.repeat(101) }))).toEqual({ name: [BRANDING_MESSAGES.nameMax] });
    expect(await refused(await put(t, { name: 'a\u0000b' }))).toEqual({ name: [BRANDING_MESSAGES.nameControl] });

    // A real PNG of 150 KB passes though BODY_LIMIT is 1 KB here; one of 210 KB is over the logo's limit.
    const big = solidPng(220, 220, [0, 0, 0], true);
    expect(big.length).toBeGreaterThan(140 * 1024);
    expect(big.length).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    expect((await branding(await put(t, { logo: png(big) }))).logo?.size).toBe(big.length);
    const tooBig = solidPng(270, 270, [0, 0, 0], true);
    expect(tooBig.length).toBeGreaterThan(LOGO_MAX_BYTES);
    expect(tooBig.length).toBeLessThan(250 * 1024);
    expect(await refused(await put(t, { logo: png(tooBig) }))).toEqual({ logo: [BRANDING_MESSAGES.logoSize] });
    // Over the route's own limit: 413, as any body over its limit.
    const res = await put(t, { logo: png(Buffer.concat([RED_PNG, Buffer.alloc(300 * 1024)])) });
    expect(res.status).toBe(413);
    // The other routes keep BODY_LIMIT.
    expect((await t.call('POST', '/api/v1/clients', { form: { name: 'x'.repeat(2000) } })).status).toBe(413);
  });

  it('shows the branding on the public report page, with its logo from this origin, cached for good, until removed', async () => {
    const t = await app();
    const report = await t.storage.createReport({ url: 'https://a.example/', project: 'a.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    const before = await t.app.request(`/r/${report.id}`);
    expect(await before.text()).not.toContain('class="brand"');

    const set = await branding(await put(t, { name: '<script>alert(1)</script> & Co', accent: '#aa33cc', logo: png() }));
    const logoPath = new URL(set.logo!.url).pathname;
    const page = await t.app.request(`/r/${report.id}`);
    const text = await page.text();
    expect(text).toContain('<span class="brand-name">&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</span>');
    expect(text).toContain(`<img class="brand-logo" src="${logoPath}" alt="">`);
    // The accent's own style element, allowed by its hash and nothing wider; images from this origin only.
    const css = ':root{--accent:#aa33cc}';
    expect(text).toContain(`<style>${css}</style>`);
    const policy = page.headers.get('Content-Security-Policy')!;
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    expect(policy).toMatch(new RegExp(`style-src 'sha256-[^' ]+' ${hash.replace(/[+/]/g, '\\$&')}(;|$)`));
    expect(policy).toContain("img-src 'self'");
    expect(policy).not.toContain('data:');
    expect(policy).not.toContain('unsafe');

    const logo = await t.app.request(logoPath);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('Content-Type')).toBe('image/png');
    expect(logo.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(logo.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(Buffer.from(await logo.arrayBuffer()).equals(RED_PNG)).toBe(true);
    // The same hash with another type's extension names nothing.
    expect((await t.app.request(logoPath.replace(/\.png$/, '.jpg'))).status).toBe(404);

    const removed = await branding(await t.call('DELETE', '/api/v1/branding/logo'));
    expect(removed).toMatchObject({ name: '<script>alert(1)</script> & Co', accent: '#aa33cc', logo: null });
    const gone = await t.app.request(logoPath);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('Cache-Control')).toBe('no-store');
    expect(await (await t.app.request(`/r/${report.id}`)).text()).not.toContain('class="brand-logo"');
  });

  it('is each workspace’s own: set with its key, on its public pages, its logo at its address; set and logo removal audited by the logo’s hash', async () => {
    const database = await fresh();
    const t = createTestApp({ storage: await database.open(), now: () => new Date('2026-11-30T03:00:00.000Z') });
    const second = newKey(null);
    const made = await t.storage.accounts.createWorkspace('Second', { name: 'Owner', key: second.stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const two = t.storage.forWorkspace(made.workspaceId);
    await branding(await put(t, { name: 'First Agency' }));
    const set = await branding(await put(t, { name: 'Second Agency', accent: '#123456', logo: png() }, second.key));
    expect(await branding(await t.call('GET', '/api/v1/branding'))).toMatchObject({ name: 'First Agency', accent: null, logo: null });
    expect(await branding(await t.call('GET', '/api/v1/branding', { key: second.key }))).toEqual(set);
    const reportOne = await t.storage.createReport({ url: 'https://shop.example/', project: 'shop.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    const reportTwo = await two.createReport({ url: 'https://shop.example/', project: 'shop.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    const pageOne = await (await t.app.request(`/r/${reportOne.id}`)).text();
    const pageTwo = await (await t.app.request(`/r/${reportTwo.id}`)).text();
    expect(pageOne).toContain('First Agency');
    expect(pageOne).not.toContain('Second Agency');
    expect(pageTwo).toContain('Second Agency');
    const logo = await t.app.request(new URL(set.logo!.url).pathname);
    expect(logo.status).toBe(200);
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(RED_PNG);
    expect((await t.call('DELETE', '/api/v1/branding/logo', { key: second.key })).status).toBe(200);
    expect((await t.app.request(new URL(set.logo!.url).pathname)).status).toBe(404);

    const sha = createHash('sha256').update(RED_PNG).digest('hex');
    const audit = (await database.query("SELECT action, changes FROM audit WHERE workspace_id = ? AND outcome = 'done' ORDER BY id", [made.workspaceId])) as {
      action: string;
      changes: string | object | null;
    }[];
    // PostgreSQL answers the JSON column parsed.
    const changes = (value: string | object | null) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
    expect(audit.map((entry) => [entry.action, changes(entry.changes)])).toEqual([
      ['branding.update', { name: [null, 'Second Agency'], accent: [null, '#123456'], logo: [null, sha] }],
      ['branding.delete_logo', { logo: [sha, null] }],
    ]);
  });

  it('needs a key', async () => {
    const t = await app();
    expect((await t.call('GET', '/api/v1/branding', { key: null })).status).toBe(401);
    expect((await t.call('DELETE', '/api/v1/branding/logo', { key: null })).status).toBe(401);
  });
});
