import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictReportEnvelope, strictReportListSchema } from '../../../src/contract/strict-schemas';
import { checkAdvice } from '../../../src/checks/check-info';
import { describeProblems } from '../../../src/checks/problem-sentences';
import { hashPassword } from '../auth/passwords';
import { loadConfig } from '../config';
import { projectFromUrl } from '../net/host-name';
import { createWebApp } from '../web';
import { PASSWORD_REPORT_ATTEMPTS } from '../http/password-attempts';
import { BAD, createTestApp, GOOD, TEST_KEY } from '../../../test/server/test-app';
import type { TestApp } from '../../../test/server/test-app';

const ADDRESS = '203.0.113.7';
const ORIGIN = 'http://localhost';

/** A visit to the app as the Node server would hand it over, from `address`. */
function visit(t: TestApp, path: string, init: RequestInit = {}, address = ADDRESS) {
  return Promise.resolve(t.app.request(path, init, { incoming: { socket: { remoteAddress: address } } }));
}

/** The password form sent from the page itself, as a browser does (its Origin), with any cookie given. */
function sendPassword(
  t: TestApp,
  id: number,
  password: string,
  options: { address?: string; origin?: string | null; url?: string } = {},
) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  if (origin !== null) headers.Origin = origin;
  return visit(
    t,
    options.url ?? `/r/${id}`,
    { method: 'POST', headers, body: new URLSearchParams({ password }).toString() },
    options.address,
  );
}

async function store(t: TestApp, form: Record<string, string>): Promise<number> {
  const res = await t.call('POST', '/api/v1/reports', { form });
  expect(res.status).toBe(201);
  return strictReportEnvelope(201).parse(await res.json()).data.id;
}

async function update(t: TestApp, id: number, form: Record<string, string>) {
  const res = await t.call('PATCH', `/api/v1/reports/${id}`, { form });
  expect(res.status).toBe(200);
}

/** The `name=value` of the one Set-Cookie header, and its attributes by lower-cased name. */
function setCookie(res: Response) {
  const [header, ...others] = res.headers.getSetCookie();
  expect(others).toEqual([]);
  const [pair = '', ...attributes] = (header ?? '').split(/;\s*/);
  return {
    pair,
    attributes: new Map(
      attributes.map((attribute) => {
        const [name = '', value = ''] = attribute.split('=');
        return [name.toLowerCase(), value] as const;
      }),
    ),
  };
}

/** Unlocks report `id` and returns the Cookie header that opens it. */
async function unlock(t: TestApp, id: number, password: string): Promise<string> {
  const res = await sendPassword(t, id, password);
  expect(res.status).toBe(303);
  return setCookie(res).pair;
}

function withCookie(cookie: string): RequestInit {
  return { headers: { Cookie: cookie } };
}

function expectNoindex(res: Response, body: string) {
  expect(res.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
  expect(body).toContain('<meta name="robots" content="noindex, nofollow">');
}

describe('the public page of a public report', () => {
  it('shows the report without a key: its URL as the one h1, results by category, failed checks first with their advice', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/bad' });
    const res = await visit(t, `/r/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8');
    const body = await res.text();
    expect(body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(body.match(/<h1[ >]/g)).toHaveLength(1);
    expect(body).toContain(
      '<h1><a class="url" href="https://example.com/bad" rel="noreferrer">https://example.com/bad</a></h1>',
    );
    expect(body).toContain(`Bad, ${BAD.score} of 100`);
    // Headings per category, a check per failure, worded as the dashboard words it (src/checks).
    for (const category of ['SEO', 'Performance', 'Security', 'Miscellaneous'])
      expect(body).toContain(`>${category}</h2>`);
    expect(body).toContain('<h3>Load time</h3>');
    expect(body).toContain(escapeText(checkAdvice('load_time') ?? 'missing advice'));
    expect(body).toContain(
      escapeText(describeProblems('load_time', { too_slow: 2140 })[0] ?? 'missing problem'),
    );
    // "Fix first": the failed checks, most important first, linked to their place on the page.
    const fixFirst = body.slice(body.indexOf('<h2 id="fix-first">'), body.indexOf('</ol>'));
    expect([...fixFirst.matchAll(/href="#check-([a-z_]+)"/g)].map((m) => m[1])).toEqual([
      'title',
      'meta_description',
      'https_encryption',
      'load_time',
      'image_keywords',
    ]);
    expect(body.indexOf('id="fix-first"')).toBeLessThan(body.indexOf('id="category-seo"'));
    // Readable without JavaScript, and indexable: it is public.
    expect(body).not.toMatch(/<script|<form|<button/);
    expect(body).not.toContain('noindex');
    expect(res.headers.get('X-Robots-Tag')).toBeNull();
  });

  it('has security headers, a policy without any script and with its one stylesheet by hash, and is never cached', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good' });
    const res = await visit(t, `/r/${id}`);
    const policy = new Map(
      (res.headers.get('Content-Security-Policy') ?? '').split(/;\s*/).map((directive) => {
        const [name = '', ...values] = directive.split(' ');
        return [name, values.join(' ')] as const;
      }),
    );
    const style = /<style>([\s\S]*)<\/style>/.exec(await res.text())?.[1] ?? '';
    expect(Object.fromEntries(policy)).toEqual({
      'default-src': "'none'",
      'style-src': `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
      'img-src': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
    });
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('shows hostile URLs and evidence as text, and links the audited page only when it is http(s)', async () => {
    const t = createTestApp();
    const hostile = '<script>alert(1)</script>';
    const report = await t.storage.createReport({
      url: 'javascript:alert(1)//<img src=x onerror=alert(2)>',
      project: projectFromUrl('https://example.com/'),
      privacy: 0,
      passwordHash: null,
      score: 0,
      result: 'bad',
      results: {
        title: { passed: false, importance: 'high', value: hostile, errors: { too_long: 72 } },
        [hostile]: {
          passed: false,
          importance: 'low',
          value: { [hostile]: `"><a href="javascript:alert(3)">` },
        },
      },
      now: new Date(),
    });
    const body = await (await visit(t, `/r/${report.id}`)).text();
    expect(body).not.toMatch(/<script|<img|href="javascript:|<a href="javascript/i);
    expect(body).toContain('<h1>javascript:alert(1)//&lt;img src=x onerror=alert(2)&gt;</h1>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).toContain('&quot;&gt;&lt;a href=&quot;javascript:alert(3)&quot;&gt;');
  });
});

describe('the public page of a private report', () => {
  it('answers the same 404 as an unknown id, naming nothing of the report', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://secret.example.com/decent', privacy: '1' });
    const res = await visit(t, `/r/${id}`);
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).not.toContain('secret');
    expectNoindex(res, body);
    for (const other of ['/r/999', '/r/abc', `/r/${id}/more`, '/r/']) {
      const unknown = await visit(t, other);
      expect(unknown.status, other).toBe(404);
      expect(await unknown.text(), other).toBe(body);
      expect(Object.fromEntries(unknown.headers), other).toEqual(Object.fromEntries(res.headers));
    }
    // Its form is refused as if it did not exist.
    const posted = await sendPassword(t, id, 'anything');
    expect(posted.status).toBe(404);
    expect(await posted.text()).toBe(body);
  });

  it('stays closed to the password and cookie of a hash left in storage', async () => {
    const t = createTestApp();
    const passwordHash = await hashPassword('pw');
    const open = await t.storage.createReport({
      url: 'https://example.com/a',
      project: 'example.com',
      privacy: 2,
      passwordHash,
      ...GOOD,
      now: new Date(),
    });
    const cookie = (await unlock(t, open.id, 'pw')).replace(`report-${open.id}=`, '');
    const closed = await t.storage.createReport({
      url: 'https://example.com/b',
      project: 'example.com',
      privacy: 1,
      passwordHash,
      ...GOOD,
      now: new Date(),
    });
    expect((await visit(t, `/r/${closed.id}`, withCookie(`report-${closed.id}=${cookie}`))).status).toBe(404);
    expect((await sendPassword(t, closed.id, 'pw')).status).toBe(404);
  });
});

describe('the public page of a password-protected report', () => {
  it('shows a labelled password form that names nothing of the report', async () => {
    const t = createTestApp();
    const id = await store(t, {
      url: 'https://secret.example.com/good',
      privacy: '2',
      password: 'open sesame',
    });
    const res = await visit(t, `/r/${id}`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(`<form method="post" action="/r/${id}">`);
    expect(body).toContain('<label for="password">Password</label>');
    expect(body).toMatch(/<input id="password" name="password" type="password" required/);
    expect(body).not.toContain('secret');
    expectNoindex(res, body);
  });

  it('says so on a wrong password, and sets no cookie', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: 'open sesame' });
    for (const wrong of ['open says me', '', 'x'.repeat(200)]) {
      const res = await sendPassword(t, id, wrong);
      expect(res.status, wrong).toBe(403);
      const body = await res.text();
      expect(body).toContain('Wrong password');
      expect(body).toContain('aria-invalid="true"');
      expect(body).not.toContain('example.com');
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('on the right password sets a cookie for this report only, HttpOnly and SameSite=Strict, and shows the report', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: 'open sesame' });
    const res = await sendPassword(t, id, 'open sesame');
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/r/${id}`);
    const cookie = setCookie(res);
    expect(cookie.pair).toMatch(new RegExp(`^report-${id}=[A-Za-z0-9_-]{43}$`));
    expect(Object.fromEntries(cookie.attributes)).toEqual({
      path: `/r/${id}`,
      httponly: '',
      samesite: 'Strict',
    });

    const shown = await visit(t, `/r/${id}`, withCookie(cookie.pair));
    expect(shown.status).toBe(200);
    const body = await shown.text();
    expect(body).toContain('<h1><a class="url" href="https://example.com/good"');
    expect(body).not.toContain('<form');
    // Seen by password only: still kept out of search engines.
    expectNoindex(shown, body);
  });

  it('marks the cookie Secure when the page is served over https, directly or behind PUBLIC_URL', async () => {
    const direct = createTestApp();
    const id = await store(direct, { url: 'https://example.com/good', privacy: '2', password: 'pw' });
    const https = await sendPassword(direct, id, 'pw', {
      url: `https://reports.example.com/r/${id}`,
      origin: 'https://reports.example.com',
    });
    expect(setCookie(https).attributes.has('secure')).toBe(true);

    const proxied = createTestApp({ config: { publicUrl: 'https://reports.example.com' } });
    const other = await store(proxied, { url: 'https://example.com/good', privacy: '2', password: 'pw' });
    // The TLS front end forwards plain HTTP; the browser's Origin is the public one.
    const behind = await sendPassword(proxied, other, 'pw', { origin: 'https://reports.example.com' });
    expect(behind.status).toBe(303);
    expect(setCookie(behind).attributes.has('secure')).toBe(true);
  });

  it('takes the form only from its own page (Origin checked)', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: 'pw' });
    for (const origin of ['https://evil.example', null]) {
      const res = await sendPassword(t, id, 'pw', { origin });
      expect(res.status, String(origin)).toBe(403);
      expect(await res.text()).toContain('Form not accepted');
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('does not open another report with the cookie of one, even under the other’s name and with the same stored hash', async () => {
    const t = createTestApp();
    const passwordHash = await hashPassword('same');
    const [a, b] = await Promise.all(
      ['https://example.com/a', 'https://example.com/b'].map(
        async (url) =>
          (
            await t.storage.createReport({
              url,
              project: 'example.com',
              privacy: 2,
              passwordHash,
              ...GOOD,
              now: new Date(),
            })
          ).id,
      ),
    );
    const cookieA = await unlock(t, a!, 'same');
    const valueA = cookieA.split('=')[1] ?? '';
    for (const cookie of [cookieA, `report-${b!}=${valueA}`]) {
      const res = await visit(t, `/r/${b!}`, withCookie(cookie));
      expect(await res.text()).toContain('<form');
    }
    expect(await (await visit(t, `/r/${a!}`, withCookie(cookieA))).text()).not.toContain('<form');
  });

  it('follows a change at once: a new password or privacy 1 closes the page to an old cookie, privacy 0 opens it to all', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: 'first' });
    const opened = async (cookie: string) => {
      const res = await visit(t, `/r/${id}`, withCookie(cookie));
      return { status: res.status, form: (await res.text()).includes('<form') };
    };

    const first = await unlock(t, id, 'first');
    expect(await opened(first)).toEqual({ status: 200, form: false });
    await update(t, id, { password: 'second' });
    expect(await opened(first)).toEqual({ status: 200, form: true });

    const second = await unlock(t, id, 'second');
    expect(await opened(second)).toEqual({ status: 200, form: false });
    await update(t, id, { privacy: '1' });
    expect(await opened(second)).toEqual({ status: 404, form: false });

    await update(t, id, { privacy: '0' });
    expect(await opened('')).toEqual({ status: 200, form: false });
    // Back to a password (given anew: leaving privacy 2 discarded it): the old cookie opens nothing.
    await update(t, id, { privacy: '2', password: 'second' });
    expect(await opened(second)).toEqual({ status: 200, form: true });
  });

  it('allows 10 attempts per 15 minutes per address and report, then answers 429 with Retry-After', async () => {
    let time = Date.parse('2026-11-20T10:00:00.000Z');
    const t = createTestApp({ now: () => new Date(time) });
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: 'right' });
    const other = await store(t, { url: 'https://example.com/bad', privacy: '2', password: 'right' });
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await sendPassword(t, id, `wrong ${attempt}`)).status).toBe(403);
    }
    time += 60_000;
    const limited = await sendPassword(t, id, 'right');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe(String(14 * 60));
    const body = await limited.text();
    expect(body).toContain('Too many attempts');
    expect(body).toContain('Try again in 14 minutes.');
    expectNoindex(limited, body);
    expect(limited.headers.getSetCookie()).toEqual([]);

    // Another report, or another address, is not limited by these.
    expect((await sendPassword(t, other, 'wrong')).status).toBe(403);
    expect((await sendPassword(t, id, 'right', { address: '198.51.100.2' })).status).toBe(303);

    // Once the 15 minutes are over, the address may try again.
    time += 14 * 60_000;
    expect((await sendPassword(t, id, 'right')).status).toBe(303);
  }, 30_000);
});

describe('password limits shared with the API', () => {
  it('counts a password as the API does: 100 emoji open their page, 129 are refused at once (422)', async () => {
    const t = createTestApp();
    const emoji = '🔑'.repeat(100);
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: emoji });
    expect((await sendPassword(t, id, emoji)).status).toBe(303);
    const tooLong = await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/good', privacy: '2', password: '🔑'.repeat(129) } });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toEqual({ message: { password: ['The password must not be greater than 128 characters.'] }, status: 422 });
  });

  it('counts after Unicode normalisation (NFC): 128 decomposed "é" are 128 characters, and the composed ones open the page', async () => {
    const t = createTestApp();
    const decomposed = 'e\u0301'.repeat(128);
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: decomposed });
    expect((await sendPassword(t, id, '\u00e9'.repeat(128))).status).toBe(303);
    expect((await sendPassword(t, id, 'e\u0301'.repeat(129), { address: '198.51.100.9' })).status).toBe(403);
  });

  it('allows 30 attempts per report from all addresses together in a window, then 429 for every address', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good', privacy: '2', password: 'right' });
    // Over-long passwords count as attempts without being hashed, which keeps this test quick.
    const long = 'x'.repeat(200);
    for (let n = 1; n <= PASSWORD_REPORT_ATTEMPTS; n++) {
      expect((await sendPassword(t, id, long, { address: `2001:db8::${n}` })).status).toBe(403);
    }
    const limited = await sendPassword(t, id, 'right', { address: '2001:db8::ffff' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).not.toBeNull();
  });
});

describe('page_url', () => {
  it('is in every report the API returns: the address of /r/{id} at the request’s own origin', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good' });
    const pageUrl = `${ORIGIN}/r/${id}`;
    const shown = strictReportEnvelope(200).parse(
      await (await t.call('GET', `/api/v1/reports/${id}`)).json(),
    );
    expect(shown.data.page_url).toBe(pageUrl);
    const updated = strictReportEnvelope(200).parse(
      await (await t.call('PATCH', `/api/v1/reports/${id}`, { form: { privacy: '1' } })).json(),
    );
    expect(updated.data.page_url).toBe(pageUrl);
    const list = strictReportListSchema.parse(await (await t.call('GET', '/api/v1/reports')).json());
    expect(list.data.map((report) => report.page_url)).toEqual([pageUrl]);
    const elsewhere = await t.app.request(`http://127.0.0.1:8080/api/v1/reports/${id}`, {
      headers: { Authorization: `Bearer ${TEST_KEY}` },
    });
    expect(strictReportEnvelope(200).parse(await elsewhere.json()).data.page_url).toBe(
      `http://127.0.0.1:8080/r/${id}`,
    );
  });

  it('is at PUBLIC_URL when that is set, whatever address the request came to', async () => {
    const t = createTestApp({
      config: { publicUrl: loadConfig({ PUBLIC_URL: 'https://reports.example.com/' }).publicUrl },
    });
    const res = await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/good' } });
    const { data } = strictReportEnvelope(201).parse(await res.json());
    expect(data.page_url).toBe(`https://reports.example.com/r/${data.id}`);
  });
});

describe('the public pages in the one-process web app', () => {
  // No dashboard build is needed for them; an empty one will do.
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'public-page-dist-'));
  });
  afterAll(() => rm(distDir, { recursive: true, force: true }));

  it('carry their own headers, not the dashboard’s', async () => {
    const t = createTestApp();
    const id = await store(t, { url: 'https://example.com/good' });
    const web = createWebApp({ config: loadConfig({}), api: t.app, distDir });
    const res = await web.request(`/r/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(await res.text()).toContain('https://example.com/good');
  });

  it('are not served in proxy mode: the deployment’s own pages are at its address', async () => {
    const web = createWebApp({
      config: loadConfig({ UPSTREAM_URL: 'https://reports.example.com' }),
      api: null,
      distDir,
    });
    const res = await web.request('/r/1');
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).toContain('Report not found');
    expectNoindex(res, body);
    expect(res.headers.get('Content-Security-Policy')).toMatch(/^default-src 'none'/);
  });
});

/** Text as Hono's html template escapes it. */
function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
