import { describe, expect, it } from 'vitest';
import {
  strictCapabilitiesEnvelope,
  strictDiscoverEnvelope,
  strictReportListSchema,
} from '../../../src/contract/strict-schemas';
import { createTestApp } from '../../../test/server/test-app';
import { startTestServer } from '../../../test/server/test-server';

describe('GET /api/v1/capabilities', () => {
  it('says which extensions the server has: runs, the exact-URL filter (also of many URLs), sort by score, schedules, alerts, webhooks, discover, the failing filter, problems, check settings, project labels, clients, the overview, the run log and deploys', async () => {
    const res = await createTestApp().call('GET', '/api/v1/capabilities');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(strictCapabilitiesEnvelope.parse(await res.json())).toEqual({
      data: {
        runs: true,
        url_filter: true,
        url_filter_many: true,
        sort_by_score: true,
        discover: true,
        schedules: true,
        alerts: true,
        webhooks: true,
        failing_filter: true,
        problems: true,
        check_settings: true,
        project_labels: true,
        clients: true,
        overview: true,
        run_log: true,
        deploys: true,
        sitemap_follow: true,
        ids_filter: true,
        digests: true,
        share_links: true,
        branding: true,
        accounts: true,
        audit: true,
      },
      status: 200,
    });
  });

  it('is true only for what the server answers', async () => {
    const t = createTestApp();
    for (const url of ['https://shop.example/good', 'https://shop.example/bad']) {
      expect((await t.call('POST', '/api/v1/reports', { form: { url } })).status).toBe(201);
    }
    const { data } = strictCapabilitiesEnvelope.parse(
      await (await t.call('GET', '/api/v1/capabilities')).json(),
    );
    const ids = async (query: string) =>
      strictReportListSchema
        .parse(await (await t.call('GET', `/api/v1/reports${query}`)).json())
        .data.map((r) => r.id);
    expect(data.runs).toBe((await t.call('GET', '/api/v1/reports/1/runs')).status === 200);
    expect(data.url_filter).toBe(
      (await ids(`?url=${encodeURIComponent('https://SHOP.example:443/bad#x')}`)).join() === '2',
    );
    expect(data.sort_by_score).toBe((await ids('?sort_by=score&sort=asc')).join() === '2,1');
    expect(data.schedules).toBe(
      (await t.call('GET', '/api/v1/projects/shop.example/schedule')).status === 200,
    );
    expect(data.alerts).toBe((await t.call('GET', '/api/v1/alerts')).status === 200);
    const sitemap = await startTestServer({
      '/sitemap.xml': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        res.end('<urlset><url><loc>https://shop.example/good</loc></url></urlset>');
      },
    });
    try {
      const local = createTestApp({ config: { allowPrivateUrls: true } });
      const res = await local.call('POST', '/api/v1/discover', {
        form: { url: `${sitemap.origin}/sitemap.xml` },
      });
      expect(data.discover).toBe(
        res.status === 200 &&
          strictDiscoverEnvelope.parse(await res.json()).data.urls.join() === 'https://shop.example/good',
      );
    } finally {
      await sitemap.close();
    }
    expect(data.webhooks).toBe((await t.call('GET', '/api/v1/webhooks')).status === 200);
    expect(data.project_labels).toBe(
      (await t.call('PATCH', '/api/v1/projects/shop.example', { form: { label: 'Shop' } })).status === 200,
    );
    expect(data.clients).toBe((await t.call('GET', '/api/v1/clients')).status === 200);
    expect(data.overview).toBe(
      (await t.call('GET', '/api/v1/overview')).status === 200 &&
        (await t.call('GET', '/api/v1/projects/shop.example/health')).status === 200 &&
        (await t.call('GET', '/api/v1/projects?client=x')).status === 422,
    );
    expect(data.run_log).toBe(
      (await t.call('POST', '/api/v1/projects/shop.example/schedule/run')).status === 202 &&
        (await t.call('GET', '/api/v1/projects/shop.example/run-log')).status === 200,
    );
    expect(data.sitemap_follow).toBe(
      (await t.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'off', sitemap: 'https://shop.example/sitemap.xml', max_new: '5' } })).status === 200 &&
        (await ids('?gone=1')).length === 0 &&
        (await ids('?gone=0')).length === 2,
    );
    expect(data.ids_filter).toBe((await ids('?ids=2')).join() === '2' && (await ids('?ids=1-2')).join() === '2,1');
    expect(data.digests).toBe(
      (await t.call('GET', '/api/v1/digests')).status === 200 &&
        (await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', webhook: '1' } })).status === 200 &&
        (await t.call('GET', '/api/v1/digests/preview')).status === 200 &&
        (await t.call('POST', '/api/v1/digests/send')).status === 200,
    );
    expect(data.branding).toBe(
      (await t.call('PUT', '/api/v1/branding', { form: { name: 'Acme', accent: '#123456' } })).status === 200 &&
        (await t.call('DELETE', '/api/v1/branding/logo')).status === 200,
    );
    expect(data.deploys).toBe(
      (await t.call('POST', '/api/v1/projects/shop.example/deploys', { form: { label: 'v1' } })).status === 201 &&
        (await t.call('GET', '/api/v1/projects/shop.example/deploys')).status === 200,
    );
    const shared = await t.call('POST', '/api/v1/share-links', { form: { target: 'project:shop.example' } });
    const url = shared.status === 201 ? ((await shared.json()) as { data: { url: string } }).data.url : '/s/none';
    expect(data.share_links).toBe((await t.app.request(new URL(url).pathname)).status === 200);
    expect(data.accounts).toBe(
      (await t.call('GET', '/api/v1/me')).status === 200 &&
        (await t.call('GET', '/api/v1/members')).status === 200 &&
        (await t.call('POST', '/api/v1/members', { form: { name: 'Bo', role: 'viewer' } })).status === 201,
    );
    expect(data.audit).toBe((await t.call('GET', '/api/v1/audit?action=member.create')).status === 200);
  });

  it('needs a key, like every API route', async () => {
    const res = await createTestApp().call('GET', '/api/v1/capabilities', { key: null });
    expect(res.status).toBe(401);
  });
});
