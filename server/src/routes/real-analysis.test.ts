// The API with the real analyser, fetching pages from a server on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_KEYS, resultForScore } from '../../../src/contract/values';
import { strictReportEnvelope, strictValidationErrorSchema } from '../../../src/contract/strict-schemas';
import { createAnalyser } from '../analysis/analyse';
import { createTestApp } from '../../../test/server/test-app';

let title = 'Fresh fruit delivered - Example Shop';
function page(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <meta name="description" content="Fresh fruit and vegetables from local farms, delivered to your door within a day.">
  <link rel="icon" href="/favicon.ico">
</head>
<body>
  <h1>Fresh fruit delivered</h1>
  <p>We deliver fresh fruit and vegetables from local farms. Order fresh fruit today and get it tomorrow.</p>
  <img src="/apple.png" alt="A fresh apple">
  <a href="/about">About the shop</a>
</body>
</html>`;
}

let server: http.Server;
let origin = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/' || path === '/about') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page());
    } else if (path === '/robots.txt') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
    } else if (path === '/data.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"not":"html"}');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('storing reports with the real analyser', () => {
  it('fetches and analyses the page, storing a report the strict contract accepts', async () => {
    const t = createTestApp({ analyser: createAnalyser({ allowPrivate: true, timeoutMs: 5000 }) });
    const res = await t.call('POST', '/api/v1/reports', { form: { url: `${origin}/` } });
    expect(res.status).toBe(201);
    const { data } = strictReportEnvelope(201).parse(await res.json());
    expect(data.project).toBe('127.0.0.1');
    expect(data.result).toBe(resultForScore(data.score));
    expect(Object.keys(data.results).every((key) => (CHECK_KEYS as string[]).includes(key))).toBe(true);
    expect(data.results.title).toMatchObject({ passed: true });
    expect(JSON.stringify(data.results.title?.value)).toContain('Fresh fruit delivered - Example Shop');
    expect(data.results).not.toHaveProperty('gsb');
  });

  it('re-analyses on results=1 and shows what changed on the page', async () => {
    const t = createTestApp({ analyser: createAnalyser({ allowPrivate: true, timeoutMs: 5000 }) });
    const created = strictReportEnvelope(201).parse(await (await t.call('POST', '/api/v1/reports', { form: { url: `${origin}/about` } })).json()).data;
    title = 'About us - Example Shop';
    try {
      const res = await t.call('PATCH', `/api/v1/reports/${created.id}`, { form: { results: '1' } });
      expect(res.status).toBe(200);
      const { data } = strictReportEnvelope(200).parse(await res.json());
      expect(JSON.stringify(data.results.title?.value)).toContain('About us - Example Shop');
    } finally {
      title = 'Fresh fruit delivered - Example Shop';
    }
  });

  it('names a demo host through hostMap and takes the project from it', async () => {
    const port = new URL(origin).port;
    const t = createTestApp({ analyser: createAnalyser({ allowPrivate: false, hostMap: { 'www.shop.example': '127.0.0.1' }, timeoutMs: 5000 }) });
    const res = await t.call('POST', '/api/v1/reports', { form: { url: `http://www.shop.example:${port}/` } });
    expect(res.status).toBe(201);
    expect(strictReportEnvelope(201).parse(await res.json()).data.project).toBe('shop.example');
  });

  it.each([
    ['/gone', /^The page answered 404\.$/],
    ['/data.json', /not HTML/],
  ])('answers 422 on url for %s and stores nothing', async (path, message) => {
    const t = createTestApp({ analyser: createAnalyser({ allowPrivate: true, timeoutMs: 5000 }) });
    const res = await t.call('POST', '/api/v1/reports', { form: { url: `${origin}${path}` } });
    expect(res.status).toBe(422);
    const body = strictValidationErrorSchema.parse(await res.json());
    expect(Object.keys(body.message)).toEqual(['url']);
    expect(body.message.url?.[0]).toMatch(message);
    expect(await t.storage.countReports()).toBe(0);
  });

  it('refuses a loopback address unless private URLs are allowed', async () => {
    const t = createTestApp({ analyser: createAnalyser({ allowPrivate: false, timeoutMs: 5000 }) });
    const res = await t.call('POST', '/api/v1/reports', { form: { url: `${origin}/` } });
    expect(res.status).toBe(422);
    expect(Object.keys(strictValidationErrorSchema.parse(await res.json()).message)).toEqual(['url']);
    expect(await t.storage.countReports()).toBe(0);
  });
});
