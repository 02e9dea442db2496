// Share links on every engine (SQLite always, PostgreSQL when the tests have a server): making,
// listing and revoking them; their pages at /s/<token> for a report, a comparison and a project;
// expiry by the test's clock, revocation seen by a second app on the same database at its next
// request, the password form's limits, and that nothing else opens from a link.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  strictReportEnvelope,
  strictRunListSchema,
  strictShareLinkCreatedEnvelope,
  strictShareLinkListSchema,
  strictShareLinkRevokedSchema,
} from '../../../src/contract/strict-schemas';
import { checkName } from '../../../src/checks/check-info';
import { solidPng } from '../../../test/server/images';
import { BAD, DECENT, GOOD, createTestApp, type TestApp } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import type { AnalysisFields } from '../storage/types';
import { PASSWORD_ATTEMPTS } from '../http/password-attempts';
import { newKey } from '../auth/keys';

const ORIGIN = 'http://localhost';
const DAY_MS = 86_400_000;

describe.each(STORAGE_ENGINES)('share links on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);

  let clock = new Date('2026-11-24T10:00:00Z');
  /** What the next analysis of each path gives (pathAnalyser's outcome by path unless set). */
  let analyses: Record<string, AnalysisFields> = {};

  async function setUp() {
    clock = new Date('2026-11-24T10:00:00Z');
    analyses = {};
    const database = await fresh();
    const open = async () =>
      createTestApp({
        storage: await database.open(),
        now: () => clock,
        analyser: async (url) => {
          const path = new URL(url).pathname;
          return analyses[path] ?? (path.startsWith('/bad') ? BAD : path.startsWith('/decent') ? DECENT : GOOD);
        },
      });
    return { t: await open(), open, database };
  }

  async function store(t: TestApp, url: string, form: Record<string, string> = {}): Promise<number> {
    const res = await t.call('POST', '/api/v1/reports', { form: { url, ...form } });
    expect(res.status).toBe(201);
    return strictReportEnvelope(201).parse(await res.json()).data.id;
  }

  async function share(t: TestApp, form: Record<string, string>) {
    const res = await t.call('POST', '/api/v1/share-links', { form });
    expect(res.status).toBe(201);
    const link = strictShareLinkCreatedEnvelope.parse(await res.json()).data;
    return { ...link, path: new URL(link.url).pathname };
  }

  async function list(t: TestApp, query = '') {
    const res = await t.call('GET', `/api/v1/share-links${query}`);
    expect(res.status).toBe(200);
    return strictShareLinkListSchema.parse(await res.json());
  }

  /** A visit without a key, as a browser sends it. */
  function visit(t: TestApp, path: string, init: RequestInit = {}) {
    return Promise.resolve(t.app.request(path, init, { incoming: { socket: { remoteAddress: '203.0.113.9' } } }));
  }

  function sendPassword(t: TestApp, path: string, password: string, origin = ORIGIN) {
    return visit(t, path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams({ password }).toString(),
    });
  }

  it('shares a report at /s/<token>: a token of 256 bits shown once and stored only as its hash; each view counted', async () => {
    const { t, database } = await setUp();
    const id = await store(t, 'https://shop.example/bad', { privacy: '1' });
    const link = await share(t, { target: `report:${id}`, label: 'For <b>Ana</b>' });
    expect(link.url).toMatch(/^http:\/\/localhost\/s\/[A-Za-z0-9_-]{43}$/);
    const token = link.path.slice('/s/'.length);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(link).toMatchObject({ target: `report:${id}`, label: 'For <b>Ana</b>', password: false, views: 0, expires_at: null, last_viewed_at: null });

    const rows = await database.query('SELECT * FROM share_links');
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    // A private report, and still its page for whoever has the link; never indexed.
    const page = await visit(t, link.path);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('https://shop.example/bad');
    expect(body).toContain(checkName('title'));
    expect(page.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    // The public report page's policy: no script at all, only its own stylesheet.
    const publicPolicy = (await visit(t, `/r/${id}`)).headers.get('Content-Security-Policy');
    expect(page.headers.get('Content-Security-Policy')).toBe(publicPolicy);
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(body).not.toMatch(/<script/i);

    clock = new Date(clock.getTime() + 60_000);
    await visit(t, link.path);
    const [listed] = (await list(t)).data;
    expect(listed).toMatchObject({ id: link.id, views: 2, last_viewed_at: '2026-11-24T10:01:00.000000Z', created_by: 'Owner' });
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('ends a link at its expiry by the clock, and answers expired, revoked and unknown links with the same 404', async () => {
    const { t } = await setUp();
    const id = await store(t, 'https://shop.example/good');
    const expiring = await share(t, { target: `report:${id}`, expires_in_days: '1' });
    expect(expiring.expires_at).toBe('2026-11-25T10:00:00.000000Z');
    const revoked = await share(t, { target: `report:${id}` });

    clock = new Date(clock.getTime() + DAY_MS - 1);
    expect((await visit(t, expiring.path)).status).toBe(200);
    clock = new Date(clock.getTime() + 1);
    const expired = await visit(t, expiring.path);

    const res = await t.call('DELETE', `/api/v1/share-links/${revoked.id}`);
    expect(strictShareLinkRevokedSchema.parse(await res.json())).toEqual({ id: revoked.id, object: 'share_link', deleted: true, status: 200 });
    expect((await t.call('DELETE', `/api/v1/share-links/${revoked.id}`)).status).toBe(404);
    const gone = await visit(t, revoked.path);
    const unknown = await visit(t, `/s/${'A'.repeat(43)}`);
    const malformed = await visit(t, '/s/not.a.token');

    const answers = [expired, gone, unknown, malformed];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(new Set(bodies).size).toBe(1);
    // The expired link is still listed (its expiry says so); the revoked one is not.
    expect((await list(t)).data.map((link) => link.id)).toEqual([expiring.id]);
  });

  it('revokes on every process at once: a second app on the same database answers 404 at its next request', async () => {
    const { t, open } = await setUp();
    const other = await open();
    const id = await store(t, 'https://shop.example/good');
    const link = await share(t, { target: `report:${id}` });
    expect((await visit(other, link.path)).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/share-links/${link.id}`)).status).toBe(200);
    // No cache anywhere: the other app reads the link from the database on this very request.
    expect((await visit(other, link.path)).status).toBe(404);
  });

  it('asks a password link’s password, with the public page’s limits, and opens only that link with its cookie', async () => {
    const { t } = await setUp();
    const id = await store(t, 'https://shop.example/good');
    const link = await share(t, { target: `report:${id}`, password: 'open sesame' });
    const other = await share(t, { target: `report:${id}`, password: 'open sesame' });
    expect(link.password).toBe(true);
    expect(JSON.stringify((await list(t)).data)).not.toContain('open sesame');

    const form = await visit(t, link.path);
    expect(form.status).toBe(200);
    const formBody = await form.text();
    expect(formBody).toContain('This shared page is protected');
    expect(formBody).not.toContain('shop.example');
    expect(formBody).toContain(`action="${link.path}"`);

    const wrong = await sendPassword(t, link.path, 'wrong');
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('Wrong password');
    // From another site: refused before any password is checked.
    expect((await sendPassword(t, link.path, 'open sesame', 'https://evil.example')).status).toBe(403);

    const right = await sendPassword(t, link.path, 'open sesame');
    expect(right.status).toBe(303);
    expect(right.headers.get('Location')).toBe(link.path);
    const cookie = right.headers.getSetCookie()[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^share-${link.id}=[A-Za-z0-9_-]+; Path=${link.path}; HttpOnly; SameSite=Strict$`));
    const pair = cookie.split(';')[0]!;
    const opened = await visit(t, link.path, { headers: { Cookie: pair } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('https://shop.example/good');
    // The cookie of one link opens no other, even of the same report and password.
    const otherPage = await visit(t, other.path, { headers: { Cookie: pair.replace(`share-${link.id}`, `share-${other.id}`) } });
    expect(await otherPage.text()).toContain('This shared page is protected');
    expect((await list(t)).data.find((listed) => listed.id === link.id)?.views).toBe(1);

    // Limits: after PASSWORD_ATTEMPTS tries from one address at one link, 429 even for the right one.
    for (let i = 0; i < PASSWORD_ATTEMPTS; i++) expect((await sendPassword(t, other.path, 'wrong')).status).toBe(403);
    const refused = await sendPassword(t, other.path, 'open sesame');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('reaches nothing else: the token is no API key, the page links only to the analysed pages, and paths below it are 404', async () => {
    const { t } = await setUp();
    const id = await store(t, 'https://shop.example/bad');
    const project = await share(t, { target: 'project:shop.example' });
    const report = await share(t, { target: `report:${id}` });
    for (const link of [project, report]) {
      const token = link.path.slice('/s/'.length);
      expect((await t.call('GET', '/api/v1/reports', { key: token })).status).toBe(401);
      expect((await t.call('GET', `/api/v1/reports/${id}`, { key: token })).status).toBe(401);
      const body = await (await visit(t, link.path)).text();
      const hrefs = [...body.matchAll(/(?:href|action|src)="([^"]*)"/g)].map((match) => match[1]);
      expect(hrefs.filter((href) => !/^https:\/\/shop\.example\//.test(href!) && !href!.startsWith('#') && href !== '/favicon.svg')).toEqual([]);
      expect((await visit(t, `${link.path}/anything`)).status).toBe(404);
    }
  });

  it('shares a History comparison: both runs, and the checks that changed between them', async () => {
    const { t } = await setUp();
    const id = await store(t, 'https://shop.example/page');
    clock = new Date(clock.getTime() + 60_000);
    analyses['/page'] = BAD;
    expect((await t.call('PUT', `/api/v1/reports/${id}`, { form: { results: '1' } })).status).toBe(200);
    const runs = strictRunListSchema.parse(await (await t.call('GET', `/api/v1/reports/${id}/runs`)).json()).data;
    const [after, before] = runs.map((run) => run.generated_at);

    // Written newer first, or with fewer digits: the same target.
    const link = await share(t, { target: `compare:${id}:${after}:${before!.replace('.000000Z', 'Z')}` });
    expect(link.target).toBe(`compare:${id}:${before}:${after}`);
    const page = await visit(t, link.path);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('Comparison of two analyses');
    expect(body).toContain('Newly failing');
    expect(body).toContain(checkName('title'));
    expect(body).toContain(`Good, ${GOOD.score} of 100`);
    expect(body).toContain(`Bad, ${BAD.score} of 100`);

    // A run that is not the report's, or a report that is gone: 422 when made, 404 when seen.
    const invalid = await t.call('POST', '/api/v1/share-links', { form: { target: `compare:${id}:${before}:2020-01-01T00:00:00.000000Z` } });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { message: Record<string, string[]> }).message.target).toEqual(['The selected target is invalid.']);
    expect((await t.call('DELETE', `/api/v1/reports/${id}`)).status).toBe(200);
    expect((await visit(t, link.path)).status).toBe(404);
  });

  it('shares a project summary: health and trend, open problems without the ignored ones, lowest scores, every page', async () => {
    const { t } = await setUp();
    for (const path of ['/good', '/decent', '/bad', '/bad-too']) await store(t, `https://shop.example${path}`);
    await store(t, 'https://elsewhere.example/bad');
    expect((await t.call('PUT', '/api/v1/projects/shop.example/checks/load_time', { form: { state: 'ignored' } })).status).toBe(200);
    const link = await share(t, { target: 'project:shop.example' });
    const page = await visit(t, link.path);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('<h1>shop.example</h1>');
    expect(body).toMatch(/Health over 30 days/);
    expect(body).toMatch(/Average score [\d.]+ on 2026-11-24\./);
    const problems = body.slice(body.indexOf('id="open-problems"'), body.indexOf('id="lowest-scores"'));
    expect(problems).toContain(checkName('title'));
    expect(problems).not.toContain(checkName('load_time'));
    const lowest = body.slice(body.indexOf('id="lowest-scores"'), body.indexOf('id="every-page"'));
    expect(lowest.indexOf('https://shop.example/bad')).toBeLessThan(lowest.indexOf('https://shop.example/good'));
    const every = body.slice(body.indexOf('id="every-page"'));
    for (const path of ['/good', '/decent', '/bad', '/bad-too']) expect(every).toContain(`https://shop.example${path}`);
    expect(body).not.toContain('elsewhere.example');

    // Listed by target; an unknown project is refused.
    expect((await list(t, '?target=project:shop.example')).data.map((listed) => listed.id)).toEqual([link.id]);
    expect((await list(t, '?target=project:nowhere.example')).data).toEqual([]);
    expect((await t.call('POST', '/api/v1/share-links', { form: { target: 'project:nowhere.example' } })).status).toBe(422);
  });

  it('puts the branding on top of every share page and its password form, the accent allowed by its hash alone', async () => {
    const { t } = await setUp();
    const id = await store(t, 'https://shop.example/a');
    await store(t, 'https://shop.example/b');
    await t.storage.branding.setBranding({ name: 'Acme <i>Agency</i>', accent: '#aa33cc', logo: { type: 'image/png', bytes: solidPng(2, 2, [1, 2, 3]) }, now: clock });
    const css = ':root{--accent:#aa33cc}';
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    const links = [
      await share(t, { target: `report:${id}` }),
      await share(t, { target: 'project:shop.example' }),
      await share(t, { target: 'project:shop.example', password: 'open sesame' }),
    ];
    for (const link of links) {
      const page = await visit(t, link.path);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain('<span class="brand-name">Acme &lt;i&gt;Agency&lt;/i&gt;</span>');
      expect(text).toMatch(/<img class="brand-logo" src="\/r\/logo\/[0-9a-f]{64}\.png" alt="">/);
      expect(text).toContain(`<style>${css}</style>`);
      const policy = page.headers.get('Content-Security-Policy')!;
      expect(policy).toContain(hash);
      expect(policy).not.toContain('unsafe');
    }
  });

  it('keeps two workspaces’ links apart: each lists and revokes its own, shares only its own reports, and its pages show its own data and branding', async () => {
    const { t } = await setUp();
    const second = newKey(null);
    const made = await t.storage.accounts.createWorkspace('Second', { name: 'Owner', key: second.stored }, clock);
    if (made === 'taken') throw new Error('taken');
    const asTwo = { ...t, call: (method: string, path: string, options: Parameters<TestApp['call']>[2] = {}) => t.call(method, path, { key: second.key, ...options }) };
    const idOne = await store(t, 'https://shop.example/a');
    const idTwo = await store(asTwo, 'https://shop.example/decent');
    await t.storage.branding.setBranding({ name: 'First Agency', accent: '#112233', now: clock });
    await t.storage.forWorkspace(made.workspaceId).branding.setBranding({ name: 'Second Agency', logo: { type: 'image/png', bytes: solidPng(3, 3, [9, 8, 7]) }, now: clock });

    const linkOne = await share(t, { target: `report:${idOne}` });
    const linkTwo = await share(asTwo, { target: `report:${idTwo}` });
    const projectTwo = await share(asTwo, { target: 'project:shop.example' });
    expect(linkTwo).toMatchObject({ created_by: 'Owner' });
    // Another workspace's report is no target, exactly as an unknown id.
    const refused = await asTwo.call('POST', '/api/v1/share-links', { form: { target: `report:${idOne}` } });
    const unknown = await asTwo.call('POST', '/api/v1/share-links', { form: { target: `report:${idTwo + 1000}` } });
    expect([refused.status, await refused.text()]).toEqual([unknown.status, await unknown.text()]);
    expect((await list(asTwo)).data.map((link) => link.id).sort()).toEqual([linkTwo.id, projectTwo.id].sort());
    expect((await list(t)).data.map((link) => link.id)).toEqual([linkOne.id]);
    const other = await asTwo.call('DELETE', `/api/v1/share-links/${linkOne.id}`);
    const none = await asTwo.call('DELETE', '/api/v1/share-links/999999');
    expect([other.status, await other.text()]).toEqual([404, await none.text()]);
    expect((await list(t)).data.map((link) => link.id)).toEqual([linkOne.id]);

    const pageOne = await (await visit(t, linkOne.path)).text();
    expect(pageOne).toContain('First Agency');
    expect(pageOne).not.toContain('Second Agency');
    const pageTwo = await (await visit(t, linkTwo.path)).text();
    expect(pageTwo).toContain('Second Agency');
    expect(pageTwo).not.toContain('First Agency');
    expect(pageTwo).toContain('https://shop.example/decent');
    const summaryTwo = await (await visit(t, projectTwo.path)).text();
    expect(summaryTwo).toContain('https://shop.example/decent');
    expect(summaryTwo).not.toContain('https://shop.example/a');
    // The second workspace's logo, at its public address.
    const logo = /src="(\/r\/logo\/[0-9a-f]{64}\.png)"/.exec(pageTwo)![1]!;
    expect((await visit(t, logo)).status).toBe(200);
    // The view counted in its own workspace.
    expect((await list(asTwo)).data.find((link) => link.id === linkTwo.id)).toMatchObject({ views: 1 });
  });

  it('refuses a target, expiry or label out of the contract with 422 on its field', async () => {
    const { t } = await setUp();
    const id = await store(t, 'https://shop.example/good');
    const cases: [Record<string, string>, string][] = [
      [{}, 'target'],
      [{ target: 'page:1' }, 'target'],
      [{ target: `report:${id + 1}` }, 'target'],
      [{ target: `report:${id}`, expires_in_days: '0' }, 'expires_in_days'],
      [{ target: `report:${id}`, expires_in_days: '366' }, 'expires_in_days'],
      [{ target: `report:${id}`, expires_in_days: 'soon' }, 'expires_in_days'],
      [{ target: `report:${id}`, label: 'x'.repeat(101) }, 'label'],
      [{ target: `report:${id}`, password: 'p'.repeat(129) }, 'password'],
    ];
    for (const [form, field] of cases) {
      const res = await t.call('POST', '/api/v1/share-links', { form });
      expect(res.status, JSON.stringify(form)).toBe(422);
      expect(Object.keys(((await res.json()) as { message: Record<string, string[]> }).message)).toEqual([field]);
    }
    expect((await t.call('POST', '/api/v1/share-links', { form: { target: `report:${id}`, expires_in_days: '365' } })).status).toBe(201);
    expect((await t.call('GET', '/api/v1/share-links', { key: null })).status).toBe(401);
  });
});
