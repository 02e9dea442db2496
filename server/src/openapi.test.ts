// The server's real answers, every operation and its every documented status, checked against the
// OpenAPI document it serves: a route that answers what the document does not say (another field,
// another status, a missing header), or a route the document does not have, fails here.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { strictReportEnvelope } from '../../src/contract/strict-schemas';
import { AnalysisBusyError } from './analysis/limit';
import { createProxyApp } from './proxy';
import { newKey } from './auth/keys';
import { operationOf } from './http/operations';
import { createSqliteStorage } from './storage/storage';
import type { Storage } from './storage/types';
import { createTestApp, GOOD, loggedErrors, TEST_KEY, testDatabase, type TestApp } from '../../test/server/test-app';
import { SVG_LOGO, solidPng } from '../../test/server/images';

interface Schema {
  [keyword: string]: unknown;
}
interface Header {
  $ref?: string;
  required?: boolean;
  schema?: Schema;
}
interface ResponseSpec {
  $ref?: string;
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseSpec>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, ResponseSpec>;
    headers: Record<string, Header>;
  };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ORIGIN = 'http://localhost';

let doc: Document;
let ajv: Ajv2020;
const compiled = new Map<Schema, ValidateFunction>();
/** operationId -> the statuses its real answers had. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  const res = await createTestApp().app.request('/api/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as Document;
  ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // The document's components travel with each response schema, for its $refs to them.
  ajv.addKeyword('components');
});

function deref<T extends { $ref?: string }>(item: T): T {
  if (!item.$ref) return item;
  const [, , kind, name] = item.$ref.split('/') as [string, string, 'responses' | 'headers', string];
  const target = doc.components[kind][name];
  expect(target, item.$ref).toBeDefined();
  return target as T;
}

function validatorFor(schema: Schema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
    compiled.set(schema, validate);
  }
  return validate;
}

/** The documented path template a request path falls under, e.g. /api/v1/reports/7 -> /api/v1/reports/{id}. */
function templateOf(path: string): string | undefined {
  return Object.keys(doc.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(path),
  );
}

/** Checks a real answer against what the document says `response` is: its body's schema and its headers. */
async function expectMatches(res: Response, response: ResponseSpec, where: string): Promise<void> {
  const spec = deref(response);
  for (const [name, ref] of Object.entries(spec.headers ?? {})) {
    const header = deref(ref);
    const value = res.headers.get(name);
    if (header.required) expect(value, `${where}: header ${name}`).not.toBeNull();
    if (value !== null && header.schema) {
      const typed = header.schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
      const validate = validatorFor(header.schema);
      expect(validate(typed), `${where}: header ${name}: ${value}`).toBe(true);
    }
  }
  const content = Object.entries(spec.content ?? {});
  if (content.length === 0) {
    expect(await res.text(), `${where}: no body`).toBe('');
    return;
  }
  const type = (res.headers.get('Content-Type') ?? '').split(';')[0]!.trim();
  const media = content.find(([name]) => name === type);
  expect(
    media,
    `${where}: Content-Type ${type}, documented ${content.map(([name]) => name).join(', ')}`,
  ).toBeDefined();
  const schema = media![1].schema;
  const body = type === 'application/json' ? ((await res.json()) as unknown) : await res.text();
  if (!schema) return;
  const validate = validatorFor(schema);
  expect(validate(body) ? [] : validate.errors, `${where}: ${JSON.stringify(body).slice(0, 300)}`).toEqual(
    [],
  );
}

/** Sends a request and checks the answer against its operation in the document; returns the answer (body unread). */
async function call(
  t: TestApp,
  method: string,
  path: string,
  init: {
    form?: Record<string, string>;
    json?: unknown;
    key?: string | null;
    headers?: Record<string, string>;
    body?: string | FormData;
    address?: string;
  } = {},
) {
  const pathname = path.split('?')[0]!;
  const template = templateOf(pathname);
  expect(template, `${pathname} is in the document`).toBeDefined();
  const operation = doc.paths[template!]![method.toLowerCase()];
  expect(operation, `${method} ${template} is in the document`).toBeDefined();
  let res: Response;
  if (init.body !== undefined || init.address !== undefined) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== null) headers.Authorization = `Bearer ${init.key ?? TEST_KEY}`;
    res = await t.app.request(
      path,
      { method, headers, body: init.body },
      { incoming: { socket: { remoteAddress: init.address ?? '203.0.113.7' } } },
    );
  } else {
    res = await t.call(method, path, init);
  }
  const where = `${method} ${path} -> ${res.status}`;
  const response = operation!.responses[String(res.status)];
  expect(
    response,
    `${where}: status documented (${Object.keys(operation!.responses).join(', ')})`,
  ).toBeDefined();
  const set = seen.get(operation!.operationId) ?? new Set<number>();
  set.add(res.status);
  seen.set(operation!.operationId, set);
  await expectMatches(res.clone(), response!, where);
  return res;
}

function failing(storage: Storage): Storage {
  const proxy: Storage = new Proxy(storage, {
    get(target, prop, receiver) {
      if (prop === 'accounts') return Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'forWorkspace') return () => proxy;
      return async () => Promise.reject(new Error('storage down'));
    },
  });
  return proxy;
}

/**
 * The clock of an app limited to 1 request: the rate limit's windows are fixed (a minute from the
 * hour), so two requests on a real clock could fall in two windows and both pass.
 */
const IN_ONE_WINDOW = () => new Date('2026-11-20T10:00:30.000Z');

/** Apps for the refusals every keyed operation can give: 429 (second request), 500 (storage down). */
function refusals() {
  return {
    limited: createTestApp({ config: { rateLimit: 1 }, now: IN_ONE_WINDOW }),
    broken: createTestApp({ storage: failing(createSqliteStorage(testDatabase())), logError: () => {} }),
  };
}

async function keyedRefusals(method: string, path: string, init: { form?: Record<string, string> } = {}) {
  const { limited, broken } = refusals();
  expect((await call(limited, method, path, init)).status).not.toBe(429);
  expect((await call(limited, method, path, init)).status).toBe(429);
  expect((await call(broken, method, path, init)).status).toBe(500);
  expect((await call(createTestApp(), method, path, { ...init, key: 'wrong-key' })).status).toBe(401);
  // A viewer is refused every operation whose rule needs more (http/operations.ts).
  const rule = operationOf(method, new URL(path, ORIGIN).pathname.slice('/api/v1'.length));
  if (rule && rule.role !== 'viewer') {
    const t = createTestApp();
    const viewer = newKey(null);
    await t.storage.accounts.addMember(1, { name: 'Viewer', role: 'viewer', key: viewer.stored }, new Date());
    expect((await call(t, method, path, { ...init, key: viewer.key })).status).toBe(403);
  }
}

async function stored(
  t: TestApp,
  form: Record<string, string> = { url: 'https://example.com/good' },
): Promise<number> {
  const res = await call(t, 'POST', '/api/v1/reports', { form });
  expect(res.status).toBe(201);
  return strictReportEnvelope(201).parse(await res.json()).data.id;
}

const updateCases = (method: 'PUT' | 'PATCH') => async () => {
  const t = createTestApp();
  const id = await stored(t);
  expect(
    (await call(t, method, `/api/v1/reports/${id}`, { form: { privacy: '2', password: 'pw' } })).status,
  ).toBe(200);
  expect((await call(t, method, `/api/v1/reports/${id}`, { json: { results: 1, privacy: 0 } })).status).toBe(
    200,
  );
  expect((await call(t, method, `/api/v1/reports/${id}`, { form: { privacy: '7' } })).status).toBe(422);
  expect((await call(t, method, '/api/v1/reports/999', { form: { privacy: '1' } })).status).toBe(404);
  expect((await call(t, method, '/api/v1/reports/abc')).status).toBe(404);
  const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
  expect(
    (await call(small, method, `/api/v1/reports/${id}`, { form: { password: 'x'.repeat(32) } })).status,
  ).toBe(413);
  let busy = false;
  const queue = createTestApp({
    analyser: async () => {
      if (busy) throw new AnalysisBusyError(5);
      return GOOD;
    },
  });
  const queued = await stored(queue);
  busy = true;
  expect((await call(queue, method, `/api/v1/reports/${queued}`, { form: { results: '1' } })).status).toBe(
    503,
  );
  const late = createTestApp({
    storage: t.storage,
    runReportWork: async () => ({ ok: false, reason: 'timeout' }),
  });
  expect((await call(late, method, `/api/v1/reports/${id}`, { form: { results: '1' } })).status).toBe(504);
  await keyedRefusals(method, `/api/v1/reports/${id}`, { form: { privacy: '1' } });
};

/** A storage whose members, keys and audit log cannot be read or written; keys still sign in. */
function accountsDown(): Storage {
  const healthy = createSqliteStorage(testDatabase());
  const kept = new Set(['identify', 'touchKey', 'storeConfiguredKeys', 'recordAudit']);
  const accounts = new Proxy(healthy.accounts, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && !kept.has(prop)) return async () => Promise.reject(new Error('storage down'));
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  const storage: Storage = { ...healthy, accounts, forWorkspace: () => storage };
  return storage;
}

/** The refusals of an accounts operation: 429, 500 (its account storage down), 401. */
async function accountRefusals(method: string, path: string, init: { form?: Record<string, string> } = {}) {
  const limited = createTestApp({ config: { rateLimit: 1 }, now: IN_ONE_WINDOW });
  expect((await call(limited, method, path, init)).status).not.toBe(429);
  expect((await call(limited, method, path, init)).status).toBe(429);
  expect((await call(createTestApp({ storage: accountsDown(), logError: () => {} }), method, path, init)).status).toBe(500);
  expect((await call(createTestApp(), method, path, { ...init, key: 'wrong-key' })).status).toBe(401);
  // Owners' operations: an editor is refused them.
  const t = createTestApp();
  const editor = newKey(null);
  await t.storage.accounts.addMember(1, { name: 'Editor', role: 'editor', key: editor.stored }, new Date());
  expect((await call(t, method, path, { ...init, key: editor.key })).status).toBe(403);
}

/** A member of the test key's workspace, and its first key. */
async function member(t: TestApp, role = 'viewer'): Promise<{ id: number; keyId: number; key: string }> {
  const res = await t.call('POST', '/api/v1/members', { form: { name: 'Bo', role } });
  expect(res.status).toBe(201);
  const { data } = (await res.json()) as { data: { id: number; key: { id: number; key: string } } };
  return { id: data.id, keyId: data.key.id, key: data.key.key };
}

/** One scenario per operation: it makes the server give every status the document lists for it. */
const SCENARIOS: Record<string, () => Promise<void>> = {
  openApiDocument: async () => {
    const t = createTestApp({ config: { rateLimit: 1 }, now: IN_ONE_WINDOW });
    expect((await call(t, 'GET', '/api/v1/openapi.json', { key: null })).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/openapi.json', { key: null })).status).toBe(429);
  },
  listReports: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://example.com/decent', privacy: '2', password: 'pw' });
    await stored(t, { url: 'https://example.com/bad' });
    for (const query of [
      '',
      '?per_page=25&sort_by=url&sort=asc',
      '?sort_by=score&sort=asc',
      '?url=https%3A%2F%2FEXAMPLE.com%2Fbad%23x',
      '?url=nope',
      '?result=bad&search=example',
      '?page=9',
      '?per_page=7&sort=up',
      '?client=1&search=example&sort_by=url',
      '?gone=1&search=example',
      '?gone=0&project=example.com',
    ]) {
      expect((await call(t, 'GET', `/api/v1/reports${query}`)).status).toBe(200);
    }
    expect((await call(t, 'GET', '/api/v1/reports?search=a%00b')).status).toBe(422);
    expect((await call(t, 'GET', '/api/v1/reports?client=abc')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/reports');
  },
  showCapabilities: async () => {
    expect((await call(createTestApp(), 'GET', '/api/v1/capabilities')).status).toBe(200);
    const { limited, broken } = refusals();
    // It reads no storage: a storage that is down changes nothing.
    expect((await call(broken, 'GET', '/api/v1/capabilities')).status).toBe(200);
    expect((await call(limited, 'GET', '/api/v1/capabilities')).status).toBe(200);
    expect((await call(limited, 'GET', '/api/v1/capabilities')).status).toBe(429);
    expect((await call(createTestApp(), 'GET', '/api/v1/capabilities', { key: 'wrong-key' })).status).toBe(
      401,
    );
  },
  discoverUrls: async () => {
    const sitemap = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end('<urlset><url><loc>https://example.com/good</loc></url></urlset>');
    });
    sitemap.listen(0, '127.0.0.1');
    await once(sitemap, 'listening');
    try {
      const { port } = sitemap.address() as AddressInfo;
      const t = createTestApp({ config: { allowPrivateUrls: true } });
      expect(
        (await call(t, 'POST', '/api/v1/discover', { form: { url: `http://127.0.0.1:${port}/sitemap.xml` } }))
          .status,
      ).toBe(200);
      expect(
        (await call(t, 'POST', '/api/v1/discover', { json: { url: `http://127.0.0.1:${port}/` } })).status,
      ).toBe(200);
    } finally {
      sitemap.closeAllConnections();
      sitemap.close();
    }
    const t = createTestApp();
    expect((await call(t, 'POST', '/api/v1/discover', { form: { url: 'nope' } })).status).toBe(422);
    // Nothing readable: the guard refuses this machine.
    expect(
      (await call(t, 'POST', '/api/v1/discover', { form: { url: 'http://127.0.0.1:9/sitemap.xml' } })).status,
    ).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect(
      (await call(small, 'POST', '/api/v1/discover', { form: { url: 'https://example.com/sitemap.xml' } }))
        .status,
    ).toBe(413);
    const broken = createTestApp({
      discover: async () => Promise.reject(new Error('discover down')),
      logError: () => {},
    });
    expect(
      (await call(broken, 'POST', '/api/v1/discover', { form: { url: 'https://example.com/' } })).status,
    ).toBe(500);
    const limited = createTestApp({ config: { rateLimit: 1 }, now: IN_ONE_WINDOW });
    expect((await call(limited, 'POST', '/api/v1/discover', { form: { url: 'nope' } })).status).toBe(422);
    expect((await call(limited, 'POST', '/api/v1/discover', { form: { url: 'nope' } })).status).toBe(429);
    expect(
      (await call(createTestApp(), 'POST', '/api/v1/discover', { form: { url: 'nope' }, key: 'wrong-key' }))
        .status,
    ).toBe(401);
    const viewer = newKey(null);
    await t.storage.accounts.addMember(1, { name: 'Viewer', role: 'viewer', key: viewer.stored }, new Date());
    expect((await call(t, 'POST', '/api/v1/discover', { form: { url: 'nope' }, key: viewer.key })).status).toBe(403);
  },
  storeReport: async () => {
    const t = createTestApp();
    expect(
      (
        await call(t, 'POST', '/api/v1/reports', {
          form: { url: 'https://example.com/good', privacy: '2', password: 'pw' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await call(t, 'POST', '/api/v1/reports', { json: { url: 'https://example.com/bad', privacy: 1 } }))
        .status,
    ).toBe(201);
    expect((await call(t, 'POST', '/api/v1/reports', { form: { url: 'nope', privacy: '2' } })).status).toBe(
      422,
    );
    expect(
      (await call(t, 'POST', '/api/v1/reports', { form: { url: 'https://example.com/missing' } })).status,
    ).toBe(422);
    expect(
      (
        await call(t, 'POST', '/api/v1/reports', {
          body: '{"url":',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect(
      (await call(small, 'POST', '/api/v1/reports', { form: { url: 'https://example.com/good' } })).status,
    ).toBe(413);
    const busy = createTestApp({
      analyser: async () => {
        throw new AnalysisBusyError(7);
      },
    });
    expect(
      (await call(busy, 'POST', '/api/v1/reports', { form: { url: 'https://example.com/good' } })).status,
    ).toBe(503);
    const late = createTestApp({ runReportWork: async () => ({ ok: false, reason: 'timeout' }) });
    expect(
      (await call(late, 'POST', '/api/v1/reports', { form: { url: 'https://example.com/good' } })).status,
    ).toBe(504);
    await keyedRefusals('POST', '/api/v1/reports', { form: { url: 'https://example.com/good' } });
  },
  showReport: async () => {
    const t = createTestApp();
    const id = await stored(t);
    expect((await call(t, 'GET', `/api/v1/reports/${id}`)).status).toBe(200);
    for (const unknown of ['999', 'abc', '0'])
      expect((await call(t, 'GET', `/api/v1/reports/${unknown}`)).status).toBe(404);
    await keyedRefusals('GET', `/api/v1/reports/${id}`);
  },
  updateReport: updateCases('PUT'),
  patchReport: updateCases('PATCH'),
  destroyReport: async () => {
    const t = createTestApp();
    const id = await stored(t);
    expect((await call(t, 'DELETE', `/api/v1/reports/${id}`)).status).toBe(200);
    expect((await call(t, 'DELETE', `/api/v1/reports/${id}`)).status).toBe(404);
    await keyedRefusals('DELETE', '/api/v1/reports/1');
  },
  listReportRuns: async () => {
    const t = createTestApp();
    const id = await stored(t);
    await call(t, 'PATCH', `/api/v1/reports/${id}`, { form: { results: '1' } });
    expect((await call(t, 'GET', `/api/v1/reports/${id}/runs?per_page=25`)).status).toBe(200);
    expect((await call(t, 'GET', `/api/v1/reports/${id}/runs?page=5`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/reports/999/runs')).status).toBe(404);
    expect((await call(t, 'GET', `/api/v1/reports/${id}/runs?page=%01`)).status).toBe(422);
    await keyedRefusals('GET', `/api/v1/reports/${id}/runs`);
  },
  listProjects: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    await stored(t, { url: 'https://blog.example/bad' });
    await call(t, 'PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily' } });
    for (const query of [
      '',
      '?sort_by=project&sort=asc&per_page=50',
      '?search=shop',
      '?page=3',
      '?with=health&sort_by=health',
      '?with=health&client=1&sort_by=alerts&sort=asc',
    ]) {
      expect((await call(t, 'GET', `/api/v1/projects${query}`)).status).toBe(200);
    }
    expect((await call(t, 'GET', '/api/v1/projects?search=%00')).status).toBe(422);
    expect((await call(t, 'GET', '/api/v1/projects?client=abc')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/projects');
  },
  destroyProject: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'DELETE', '/api/v1/projects/shop.example')).status).toBe(200);
    expect((await call(t, 'DELETE', '/api/v1/projects/shop.example')).status).toBe(404);
    await keyedRefusals('DELETE', '/api/v1/projects/shop.example');
  },
  showProject: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    await call(t, 'PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily' } });
    expect((await call(t, 'GET', '/api/v1/projects/shop.example')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example')).status).toBe(404);
    await keyedRefusals('GET', '/api/v1/projects/shop.example');
  },
  updateProject: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    const path = '/api/v1/projects/shop.example';
    expect((await call(t, 'PATCH', path, { form: { label: 'Main shop' } })).status).toBe(200);
    expect((await call(t, 'PATCH', path, { json: { label: '' } })).status).toBe(200);
    expect((await call(t, 'PATCH', path, { form: { label: 'x'.repeat(81) } })).status).toBe(422);
    expect(
      (await call(t, 'PATCH', '/api/v1/projects/nowhere.example', { form: { label: 'A' } })).status,
    ).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect(
      (await call(small, 'PATCH', path, { form: { label: 'A label longer than 16 bytes' } })).status,
    ).toBe(413);
    await keyedRefusals('PATCH', path, { form: { label: 'A' } });
  },
  showProjectHealth: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    for (const query of ['', '?days=365', '?days=1'])
      expect((await call(t, 'GET', `/api/v1/projects/shop.example/health${query}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/health?days=0')).status).toBe(422);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example/health')).status).toBe(404);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/health');
  },
  showOverview: async () => {
    const t = createTestApp();
    expect((await call(t, 'GET', '/api/v1/overview')).status).toBe(200);
    const id = await stored(t, { url: 'https://shop.example/good' });
    await t.storage.updateReport(id, {
      analysis: { score: 5, result: 'bad', results: {} },
      now: new Date(),
    });
    expect((await call(t, 'GET', '/api/v1/overview')).status).toBe(200);
    await keyedRefusals('GET', '/api/v1/overview');
  },
  setProjectClient: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    await call(t, 'POST', '/api/v1/clients', { form: { name: 'Acme' } });
    const path = '/api/v1/projects/shop.example/client';
    expect((await call(t, 'PUT', path, { form: { client_id: '1' } })).status).toBe(200);
    expect((await call(t, 'PUT', path, { json: { client_id: null } })).status).toBe(200);
    expect((await call(t, 'PUT', path, { form: { client_id: '999' } })).status).toBe(422);
    expect(
      (await call(t, 'PUT', '/api/v1/projects/nowhere.example/client', { form: { client_id: '1' } })).status,
    ).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect((await call(small, 'PUT', path, { form: { client_id: '1'.repeat(32) } })).status).toBe(413);
    await keyedRefusals('PUT', path, { form: { client_id: '' } });
  },
  listClients: async () => {
    const t = createTestApp();
    expect((await call(t, 'GET', '/api/v1/clients')).status).toBe(200);
    await call(t, 'POST', '/api/v1/clients', { form: { name: 'Acme' } });
    await stored(t, { url: 'https://shop.example/good' });
    await call(t, 'PUT', '/api/v1/projects/shop.example/client', { form: { client_id: '1' } });
    for (const query of ['', '?per_page=25&page=2'])
      expect((await call(t, 'GET', `/api/v1/clients${query}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/clients?page=%7F')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/clients');
  },
  addClient: async () => {
    const t = createTestApp();
    expect((await call(t, 'POST', '/api/v1/clients', { form: { name: 'Acme' } })).status).toBe(201);
    expect((await call(t, 'POST', '/api/v1/clients', { json: { name: 'Beta' } })).status).toBe(201);
    expect((await call(t, 'POST', '/api/v1/clients', { form: { name: 'ACME' } })).status).toBe(422);
    expect((await call(t, 'POST', '/api/v1/clients', { form: {} })).status).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect(
      (await call(small, 'POST', '/api/v1/clients', { form: { name: 'A name longer than 16 bytes' } }))
        .status,
    ).toBe(413);
    await keyedRefusals('POST', '/api/v1/clients', { form: { name: 'Acme' } });
  },
  updateClient: async () => {
    const t = createTestApp();
    await call(t, 'POST', '/api/v1/clients', { form: { name: 'Acme' } });
    await call(t, 'POST', '/api/v1/clients', { form: { name: 'Beta' } });
    expect((await call(t, 'PATCH', '/api/v1/clients/1', { form: { name: 'Acme Ltd' } })).status).toBe(200);
    expect((await call(t, 'PATCH', '/api/v1/clients/1', { form: { name: 'beta' } })).status).toBe(422);
    expect((await call(t, 'PATCH', '/api/v1/clients/999', { form: { name: 'Gamma' } })).status).toBe(404);
    expect((await call(t, 'PATCH', '/api/v1/clients/abc', { form: { name: 'Gamma' } })).status).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect(
      (await call(small, 'PATCH', '/api/v1/clients/1', { form: { name: 'A name longer than 16 bytes' } }))
        .status,
    ).toBe(413);
    await keyedRefusals('PATCH', '/api/v1/clients/1', { form: { name: 'Acme' } });
  },
  deleteClient: async () => {
    const t = createTestApp();
    await call(t, 'POST', '/api/v1/clients', { form: { name: 'Acme' } });
    expect((await call(t, 'DELETE', '/api/v1/clients/1')).status).toBe(200);
    expect((await call(t, 'DELETE', '/api/v1/clients/1')).status).toBe(404);
    expect((await call(t, 'DELETE', '/api/v1/clients/abc')).status).toBe(404);
    await keyedRefusals('DELETE', '/api/v1/clients/1');
  },
  showSchedule: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/schedule')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example/schedule')).status).toBe(404);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/schedule');
  },
  updateSchedule: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    const path = '/api/v1/projects/shop.example/schedule';
    expect(
      (await call(t, 'PUT', path, { form: { every: 'weekly', hour: '7', weekday: '1', drop: '5' } })).status,
    ).toBe(200);
    expect((await call(t, 'PUT', path, { json: { every: 'daily', hour: 23 } })).status).toBe(200);
    expect((await call(t, 'PUT', path, { form: { every: 'off', sitemap: 'https://shop.example/sitemap.xml', max_new: '0' } })).status).toBe(200);
    expect((await call(t, 'PUT', path, { form: { every: 'off', sitemap: 'javascript:alert(1)', max_new: '1001' } })).status).toBe(422);
    expect((await call(t, 'PUT', path, { form: { every: 'hourly', hour: '24' } })).status).toBe(422);
    expect(
      (await call(t, 'PUT', '/api/v1/projects/nowhere.example/schedule', { form: { every: 'off' } })).status,
    ).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect(
      (await call(small, 'PUT', path, { form: { every: 'weekly', hour: '7', weekday: '1', drop: '50' } }))
        .status,
    ).toBe(413);
    await keyedRefusals('PUT', path, { form: { every: 'off' } });
  },
  runSchedule: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/schedule/run')).status).toBe(202);
    expect((await call(t, 'POST', '/api/v1/projects/nowhere.example/schedule/run')).status).toBe(404);
    await keyedRefusals('POST', '/api/v1/projects/shop.example/schedule/run');
  },
  listProjectRuns: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/schedule/run')).status).toBe(202);
    for (const query of ['', '?per_page=25&page=3'])
      expect((await call(t, 'GET', `/api/v1/projects/shop.example/run-log${query}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log?per_page=7')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example/run-log')).status).toBe(404);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log?page=0')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log?page=1%00')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/run-log');
  },
  showProjectRun: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/schedule/run')).status).toBe(202);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log/1')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log/2')).status).toBe(404);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example/run-log/1')).status).toBe(404);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/run-log/1');
  },
  listProjectRunPages: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/schedule/run')).status).toBe(202);
    for (const query of ['', '?outcome=worse&per_page=25', '?page=2'])
      expect((await call(t, 'GET', `/api/v1/projects/shop.example/run-log/1/pages${query}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log/1/pages?outcome=sideways')).status).toBe(422);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/run-log/7/pages')).status).toBe(404);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/run-log/1/pages');
  },
  cancelProjectRun: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/schedule/run')).status).toBe(202);
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/run-log/1/cancel')).status).toBe(200);
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/run-log/9/cancel')).status).toBe(404);
    await keyedRefusals('POST', '/api/v1/projects/shop.example/run-log/1/cancel');
  },
  listDeploys: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect((await call(t, 'POST', '/api/v1/projects/shop.example/deploys', { form: { label: 'v1' } })).status).toBe(201);
    for (const query of ['', '?per_page=50&page=2'])
      expect((await call(t, 'GET', `/api/v1/projects/shop.example/deploys${query}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example/deploys')).status).toBe(404);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/deploys?page=x')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/deploys?per_page=%07')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/deploys');
  },
  createDeploy: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    const path = '/api/v1/projects/shop.example/deploys';
    expect((await call(t, 'POST', path, { form: { label: 'v1.2.0', url: 'https://git.example/r/1', run: '1' } })).status).toBe(201);
    expect((await call(t, 'POST', path, { json: { label: 'v1.2.1', run: 0 } })).status).toBe(201);
    expect((await call(t, 'POST', path, { form: { label: '', url: 'javascript:alert(1)', run: '2' } })).status).toBe(422);
    expect((await call(t, 'POST', '/api/v1/projects/nowhere.example/deploys', { form: { label: 'v1' } })).status).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect((await call(small, 'POST', path, { form: { label: 'a label longer than 16 bytes' } })).status).toBe(413);
    await keyedRefusals('POST', path, { form: { label: 'v1' } });
  },
  listAlerts: async () => {
    const t = createTestApp();
    const id = await stored(t, { url: 'https://shop.example/good' });
    await t.storage.watch.insertAlert({
      reportId: id,
      project: 'shop.example',
      url: 'https://shop.example/good',
      kind: 'check_failing',
      before: { score: 90, result: 'good', generatedAt: '2026-11-24T06:00:00.000000Z' },
      after: { score: 85, result: 'good', generatedAt: '2026-11-25T06:00:00.000000Z' },
      checks: ['title'],
      now: new Date(),
    });
    for (const query of ['', '?state=unread&project=shop.example', '?per_page=25&page=4', '?state=nope', '?client=1']) {
      expect((await call(t, 'GET', `/api/v1/alerts${query}`)).status).toBe(200);
    }
    const tag = (await call(t, 'GET', '/api/v1/alerts')).headers.get('ETag')!;
    expect((await call(t, 'GET', '/api/v1/alerts', { headers: { 'If-None-Match': tag } })).status).toBe(304);
    expect((await call(t, 'GET', '/api/v1/alerts?client=0')).status).toBe(422);
    expect((await call(t, 'GET', '/api/v1/alerts?project=shop.example%00')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/alerts');
  },
  markAlertsRead: async () => {
    const t = createTestApp();
    expect((await call(t, 'POST', '/api/v1/alerts/read')).status).toBe(200);
    expect((await call(t, 'POST', '/api/v1/alerts/read', { form: { project: 'shop.example' } })).status).toBe(
      200,
    );
    expect((await call(t, 'POST', '/api/v1/alerts/read', { json: { project: 7 } })).status).toBe(422);
    expect((await call(t, 'POST', '/api/v1/alerts/read', { json: { client: 3 } })).status).toBe(200);
    expect((await call(t, 'POST', '/api/v1/alerts/read', { form: { client: 'abc' } })).status).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect(
      (await call(small, 'POST', '/api/v1/alerts/read', { form: { project: 'x'.repeat(32) } })).status,
    ).toBe(413);
    await keyedRefusals('POST', '/api/v1/alerts/read');
  },
  patchAlert: async () => {
    const t = createTestApp();
    const id = await stored(t, { url: 'https://shop.example/good' });
    const alert = await t.storage.watch.insertAlert({
      reportId: id,
      project: 'shop.example',
      url: 'https://shop.example/good',
      kind: 'score_drop',
      before: { score: 90, result: 'good', generatedAt: '2026-11-24T06:00:00.000000Z' },
      after: { score: 80, result: 'good', generatedAt: '2026-11-25T06:00:00.000000Z' },
      checks: [],
      now: new Date(),
    });
    expect((await call(t, 'PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: '1' } })).status).toBe(200);
    expect((await call(t, 'PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: 'maybe' } })).status).toBe(
      422,
    );
    expect((await call(t, 'PATCH', '/api/v1/alerts/999', { form: { read: '1' } })).status).toBe(404);
    expect((await call(t, 'PATCH', '/api/v1/alerts/abc', { form: { read: '1' } })).status).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 8 }, storage: t.storage });
    expect(
      (await call(small, 'PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: '1'.repeat(16) } })).status,
    ).toBe(413);
    await keyedRefusals('PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: '1' } });
  },
  listProblems: async () => {
    const t = createTestApp();
    expect((await call(t, 'GET', '/api/v1/problems')).status).toBe(200);
    await stored(t, { url: 'https://shop.example/bad' });
    for (const query of [
      '',
      '?project=shop.example&state=all&sort_by=pages&sort=asc',
      '?search=bad&result=bad&per_page=10&page=2',
      '?client=1&state=all',
    ]) {
      expect((await call(t, 'GET', `/api/v1/problems${query}`)).status).toBe(200);
    }
    expect((await call(t, 'GET', '/api/v1/problems?search=%7F')).status).toBe(422);
    expect((await call(t, 'GET', '/api/v1/problems?client=1.5')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/problems');
  },
  listCheckSettings: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/bad' });
    await call(t, 'PUT', '/api/v1/projects/shop.example/checks/title', {
      form: { state: 'ignored', note: 'Fine' },
    });
    for (const query of ['', '?per_page=10&page=2'])
      expect((await call(t, 'GET', `/api/v1/projects/shop.example/checks${query}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/projects/nowhere.example/checks')).status).toBe(404);
    expect((await call(t, 'GET', '/api/v1/projects/shop.example/checks?page=%7F')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/projects/shop.example/checks');
  },
  updateCheckSetting: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/bad' });
    const path = '/api/v1/projects/shop.example/checks/https_encryption';
    expect(
      (await call(t, 'PUT', path, { form: { state: 'ignored', importance: 'low', note: 'Intranet' } }))
        .status,
    ).toBe(200);
    expect((await call(t, 'PUT', path, { json: { state: 'open' } })).status).toBe(200);
    expect((await call(t, 'PUT', path, { form: { state: 'closed' } })).status).toBe(422);
    expect(
      (await call(t, 'PUT', '/api/v1/projects/shop.example/checks/nothing', { form: { state: 'open' } }))
        .status,
    ).toBe(404);
    expect(
      (await call(t, 'PUT', '/api/v1/projects/nowhere.example/checks/title', { form: { state: 'open' } }))
        .status,
    ).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect(
      (
        await call(small, 'PUT', path, {
          form: { state: 'ignored', note: 'A note longer than sixteen bytes' },
        })
      ).status,
    ).toBe(413);
    await keyedRefusals('PUT', path, { form: { state: 'open' } });
  },
  listWebhooks: async () => {
    const t = createTestApp();
    expect((await call(t, 'GET', '/api/v1/webhooks')).status).toBe(200);
    await call(t, 'POST', '/api/v1/webhooks', { form: { url: 'https://93.184.216.34/hook' } });
    expect((await call(t, 'GET', '/api/v1/webhooks?per_page=25&page=2')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/webhooks?page=%7F')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/webhooks');
  },
  addWebhook: async () => {
    const t = createTestApp();
    await stored(t, { url: 'https://shop.example/good' });
    expect(
      (
        await call(t, 'POST', '/api/v1/webhooks', {
          form: { url: 'https://93.184.216.34/hook', project: 'shop.example' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await call(t, 'POST', '/api/v1/webhooks', { json: { url: 'https://93.184.216.34/all' } })).status,
    ).toBe(201);
    expect(
      (
        await call(t, 'POST', '/api/v1/webhooks', {
          form: { url: 'http://127.0.0.1/hook', project: 'nowhere.example' },
        })
      ).status,
    ).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect(
      (await call(small, 'POST', '/api/v1/webhooks', { form: { url: 'https://93.184.216.34/hook' } })).status,
    ).toBe(413);
    await keyedRefusals('POST', '/api/v1/webhooks', { form: { url: 'https://93.184.216.34/hook' } });
  },
  deleteWebhook: async () => {
    const t = createTestApp();
    const res = await call(t, 'POST', '/api/v1/webhooks', { form: { url: 'https://93.184.216.34/hook' } });
    const { data } = (await res.json()) as { data: { id: number } };
    expect((await call(t, 'DELETE', `/api/v1/webhooks/${data.id}`)).status).toBe(200);
    expect((await call(t, 'DELETE', `/api/v1/webhooks/${data.id}`)).status).toBe(404);
    expect((await call(t, 'DELETE', '/api/v1/webhooks/abc')).status).toBe(404);
    await keyedRefusals('DELETE', '/api/v1/webhooks/1');
  },
  testWebhook: async () => {
    const t = createTestApp();
    const res = await call(t, 'POST', '/api/v1/webhooks', { form: { url: 'https://93.184.216.34/hook' } });
    const { data } = (await res.json()) as { data: { id: number } };
    expect((await call(t, 'POST', `/api/v1/webhooks/${data.id}/test`)).status).toBe(202);
    expect((await call(t, 'POST', '/api/v1/webhooks/999/test')).status).toBe(404);
    await keyedRefusals('POST', `/api/v1/webhooks/${data.id}/test`);
  },
  listWebhookDeliveries: async () => {
    const t = createTestApp();
    const res = await call(t, 'POST', '/api/v1/webhooks', { form: { url: 'https://93.184.216.34/hook' } });
    const { data } = (await res.json()) as { data: { id: number } };
    await call(t, 'POST', `/api/v1/webhooks/${data.id}/test`);
    for (const query of ['', '?per_page=25', '?page=3']) {
      expect((await call(t, 'GET', `/api/v1/webhooks/${data.id}/deliveries${query}`)).status).toBe(200);
    }
    expect((await call(t, 'GET', '/api/v1/webhooks/999/deliveries')).status).toBe(404);
    expect((await call(t, 'GET', `/api/v1/webhooks/${data.id}/deliveries?per_page=%7F`)).status).toBe(422);
    await keyedRefusals('GET', `/api/v1/webhooks/${data.id}/deliveries`);
  },
  showDigests: async () => {
    expect((await call(createTestApp(), 'GET', '/api/v1/digests')).status).toBe(200);
    await keyedRefusals('GET', '/api/v1/digests');
  },
  updateDigests: async () => {
    const t = createTestApp({ config: { smtpUrl: 'smtp://mail.example.com', mailFrom: 'reports@example.com' } });
    expect((await call(t, 'PUT', '/api/v1/digests', { form: { every: 'weekly', hour: '7', weekday: '1', recipients: 'ann@example.com', webhook: '1' } })).status).toBe(200);
    expect((await call(t, 'PUT', '/api/v1/digests', { json: { every: 'daily', hour: 23, webhook: 1 } })).status).toBe(200);
    expect((await call(t, 'PUT', '/api/v1/digests', { form: { every: 'daily', recipients: 'nobody' } })).status).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 }, storage: t.storage });
    expect((await call(small, 'PUT', '/api/v1/digests', { form: { every: 'weekly', hour: '7', weekday: '1', webhook: '1' } })).status).toBe(413);
    await keyedRefusals('PUT', '/api/v1/digests', { form: { every: 'off' } });
  },
  previewDigest: async () => {
    const t = createTestApp();
    await stored(t);
    expect((await call(t, 'GET', '/api/v1/digests/preview')).status).toBe(200);
    await keyedRefusals('GET', '/api/v1/digests/preview');
  },
  sendDigest: async () => {
    const t = createTestApp();
    expect((await call(t, 'POST', '/api/v1/digests/send')).status).toBe(422);
    expect((await call(t, 'PUT', '/api/v1/digests', { form: { every: 'off', webhook: '1' } })).status).toBe(200);
    expect((await call(t, 'POST', '/api/v1/digests/send')).status).toBe(200);
    await keyedRefusals('POST', '/api/v1/digests/send');
  },
  showBranding: async () => {
    expect((await call(createTestApp(), 'GET', '/api/v1/branding')).status).toBe(200);
    await keyedRefusals('GET', '/api/v1/branding');
  },
  setBranding: async () => {
    const t = createTestApp({ config: { bodyLimitBytes: 16 } });
    const form = (logo: Buffer) => {
      const body = new FormData();
      body.append('name', 'Acme');
      body.append('logo', new File([new Uint8Array(logo)], 'logo.png', { type: 'image/png' }));
      return body;
    };
    expect((await call(t, 'PUT', '/api/v1/branding', { body: form(solidPng(2, 2, [1, 2, 3])) })).status).toBe(200);
    expect((await call(t, 'PUT', '/api/v1/branding', { form: { accent: '#123456' } })).status).toBe(200);
    expect((await call(t, 'PUT', '/api/v1/branding', { body: form(SVG_LOGO) })).status).toBe(422);
    expect((await call(t, 'PUT', '/api/v1/branding', { body: form(Buffer.alloc(300 * 1024)) })).status).toBe(413);
    await keyedRefusals('PUT', '/api/v1/branding', { form: { name: 'Acme' } });
  },
  deleteBrandingLogo: async () => {
    expect((await call(createTestApp(), 'DELETE', '/api/v1/branding/logo')).status).toBe(200);
    await keyedRefusals('DELETE', '/api/v1/branding/logo');
  },
  showBrandingLogo: async () => {
    const t = createTestApp();
    const body = new FormData();
    body.append('logo', new File([new Uint8Array(solidPng(2, 2, [1, 2, 3]))], 'logo.png', { type: 'image/png' }));
    const set = await call(t, 'PUT', '/api/v1/branding', { body });
    const { data } = (await set.json()) as { data: { logo: { url: string } } };
    const path = new URL(data.logo.url).pathname;
    expect((await call(t, 'GET', path, { key: null })).status).toBe(200);
    expect((await call(t, 'GET', `/r/logo/${'0'.repeat(64)}.png`, { key: null })).status).toBe(404);
    const { broken } = refusals();
    expect((await call(broken, 'GET', path, { key: null })).status).toBe(500);
  },
  showPublicPage: async () => {
    const t = createTestApp();
    const open = await stored(t);
    const locked = await stored(t, { url: 'https://example.com/good', privacy: '2', password: 'pw' });
    const hidden = await stored(t, { url: 'https://example.com/good', privacy: '1' });
    expect((await call(t, 'GET', `/r/${open}`, { key: null })).status).toBe(200);
    expect((await call(t, 'GET', `/r/${locked}`, { key: null })).status).toBe(200);
    for (const id of [hidden, 999, 'abc'])
      expect((await call(t, 'GET', `/r/${id}`, { key: null })).status).toBe(404);
    const { broken } = refusals();
    expect((await call(broken, 'GET', `/r/${open}`, { key: null })).status).toBe(500);
  },
  openPublicPage: async () => {
    const t = createTestApp({ config: { bodyLimitBytes: 64 } });
    const open = await stored(t, { url: 'https://a.io/' });
    const locked = await stored(t, { url: 'https://a.io/', privacy: '2', password: 'pw' });
    const guarded = await stored(t, { url: 'https://a.io/', privacy: '2', password: 'pw' });
    const send = (app: TestApp, id: number | string, password: string, origin = ORIGIN) =>
      call(app, 'POST', `/r/${id}`, {
        key: null,
        body: new URLSearchParams({ password }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      });
    expect((await send(t, locked, 'pw')).status).toBe(303);
    expect((await send(t, open, '')).status).toBe(303);
    expect((await send(t, 999, 'pw')).status).toBe(404);
    expect((await send(t, locked, 'pw', 'https://elsewhere.example')).status).toBe(403);
    expect((await send(t, locked, 'x'.repeat(100))).status).toBe(413);
    // Empty passwords are wrong without hashing anything: quick attempts up to the limit.
    for (let attempt = 1; attempt <= 10; attempt++) expect((await send(t, guarded, '')).status).toBe(403);
    expect((await send(t, guarded, 'pw')).status).toBe(429);
    const { broken } = refusals();
    expect((await send(broken, 1, 'pw')).status).toBe(500);
  },
  listShareLinks: async () => {
    const t = createTestApp();
    const id = await stored(t);
    await call(t, 'POST', '/api/v1/share-links', { form: { target: `report:${id}` } });
    expect((await call(t, 'GET', `/api/v1/share-links?target=report:${id}`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/share-links?page=%7F')).status).toBe(422);
    await keyedRefusals('GET', '/api/v1/share-links');
  },
  addShareLink: async () => {
    const t = createTestApp();
    const id = await stored(t);
    expect((await call(t, 'POST', '/api/v1/share-links', { form: { target: `report:${id}`, expires_in_days: '7' } })).status).toBe(201);
    expect((await call(t, 'POST', '/api/v1/share-links', { form: { target: 'report:999' } })).status).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect((await call(small, 'POST', '/api/v1/share-links', { form: { target: 'project:example.com' } })).status).toBe(413);
    await keyedRefusals('POST', '/api/v1/share-links', { form: { target: 'report:1' } });
  },
  revokeShareLink: async () => {
    const t = createTestApp();
    const id = await stored(t);
    const res = await call(t, 'POST', '/api/v1/share-links', { form: { target: `report:${id}` } });
    const { data } = (await res.json()) as { data: { id: number } };
    expect((await call(t, 'DELETE', `/api/v1/share-links/${data.id}`)).status).toBe(200);
    expect((await call(t, 'DELETE', `/api/v1/share-links/${data.id}`)).status).toBe(404);
    await keyedRefusals('DELETE', '/api/v1/share-links/1');
  },
  showSharePage: async () => {
    const t = createTestApp();
    const id = await stored(t);
    const res = await call(t, 'POST', '/api/v1/share-links', { form: { target: `report:${id}` } });
    const { data } = (await res.json()) as { data: { url: string } };
    const path = new URL(data.url).pathname;
    expect((await call(t, 'GET', path, { key: null })).status).toBe(200);
    expect((await call(t, 'GET', `/s/${'A'.repeat(43)}`, { key: null })).status).toBe(404);
    const { broken } = refusals();
    expect((await call(broken, 'GET', path, { key: null })).status).toBe(500);
  },
  openSharePage: async () => {
    const t = createTestApp({ config: { bodyLimitBytes: 64 } });
    const id = await stored(t, { url: 'https://a.io/' });
    const make = async (form: Record<string, string>) => {
      const res = await call(t, 'POST', '/api/v1/share-links', { form: { target: `report:${id}`, ...form } });
      return new URL(((await res.json()) as { data: { url: string } }).data.url).pathname;
    };
    const [open, locked, guarded] = [await make({}), await make({ password: 'pw' }), await make({ password: 'pw' })];
    const send = (app: TestApp, path: string, password: string, origin = ORIGIN) =>
      call(app, 'POST', path, {
        key: null,
        body: new URLSearchParams({ password }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      });
    expect((await send(t, locked, 'pw')).status).toBe(303);
    expect((await send(t, open, '')).status).toBe(303);
    expect((await send(t, `/s/${'A'.repeat(43)}`, 'pw')).status).toBe(404);
    expect((await send(t, locked, 'pw', 'https://elsewhere.example')).status).toBe(403);
    expect((await send(t, locked, 'x'.repeat(100))).status).toBe(413);
    for (let attempt = 1; attempt <= 10; attempt++) expect((await send(t, guarded, '')).status).toBe(403);
    expect((await send(t, guarded, 'pw')).status).toBe(429);
    const { broken } = refusals();
    expect((await send(broken, open, 'pw')).status).toBe(500);
  },
  showMe: async () => {
    const t = createTestApp();
    expect((await call(t, 'GET', '/api/v1/me')).status).toBe(200);
    const viewer = await member(t);
    expect((await call(t, 'GET', '/api/v1/me', { key: viewer.key })).status).toBe(200);
    const limited = createTestApp({ config: { rateLimit: 1 }, now: IN_ONE_WINDOW });
    expect((await call(limited, 'GET', '/api/v1/me')).status).toBe(200);
    expect((await call(limited, 'GET', '/api/v1/me')).status).toBe(429);
    // It reads nothing but the key: a storage of accounts that is down changes nothing.
    expect((await call(createTestApp({ storage: accountsDown() }), 'GET', '/api/v1/me')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/me', { key: 'wrong-key' })).status).toBe(401);
  },
  listMembers: async () => {
    const t = createTestApp();
    await member(t);
    expect((await call(t, 'GET', '/api/v1/members')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/members?per_page=25&page=2')).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/members?page=%7F')).status).toBe(422);
    await accountRefusals('GET', '/api/v1/members');
  },
  addMember: async () => {
    const t = createTestApp();
    expect((await call(t, 'POST', '/api/v1/members', { form: { name: 'Ana', role: 'editor' } })).status).toBe(201);
    expect((await call(t, 'POST', '/api/v1/members', { json: { name: 'Bo', role: 'viewer' } })).status).toBe(201);
    expect((await call(t, 'POST', '/api/v1/members', { form: { name: 'Cy', role: 'admin' } })).status).toBe(422);
    expect((await call(t, 'POST', '/api/v1/members', { form: { role: 'viewer' } })).status).toBe(422);
    const small = createTestApp({ config: { bodyLimitBytes: 16 } });
    expect((await call(small, 'POST', '/api/v1/members', { form: { name: 'Someone', role: 'viewer' } })).status).toBe(413);
    await accountRefusals('POST', '/api/v1/members', { form: { name: 'Bo', role: 'viewer' } });
  },
  updateMember: async () => {
    const t = createTestApp();
    const bo = await member(t);
    expect((await call(t, 'PATCH', `/api/v1/members/${bo.id}`, { form: { role: 'editor' } })).status).toBe(200);
    expect((await call(t, 'PATCH', '/api/v1/members/1', { form: { role: 'viewer' } })).status).toBe(422);
    expect((await call(t, 'PATCH', `/api/v1/members/${bo.id}`, { form: { role: 'boss' } })).status).toBe(422);
    expect((await call(t, 'PATCH', '/api/v1/members/999', { form: { role: 'viewer' } })).status).toBe(404);
    expect((await call(t, 'PATCH', '/api/v1/members/abc', { form: { role: 'viewer' } })).status).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 8 } });
    expect((await call(small, 'PATCH', '/api/v1/members/1', { form: { role: 'viewer' } })).status).toBe(413);
    await accountRefusals('PATCH', '/api/v1/members/1', { form: { role: 'owner' } });
  },
  deleteMember: async () => {
    const t = createTestApp();
    const bo = await member(t);
    expect((await call(t, 'DELETE', `/api/v1/members/${bo.id}`)).status).toBe(200);
    expect((await call(t, 'DELETE', `/api/v1/members/${bo.id}`)).status).toBe(404);
    expect((await call(t, 'DELETE', '/api/v1/members/1')).status).toBe(422);
    await accountRefusals('DELETE', '/api/v1/members/1');
  },
  listMemberKeys: async () => {
    const t = createTestApp();
    const bo = await member(t);
    expect((await call(t, 'GET', `/api/v1/members/${bo.id}/keys`)).status).toBe(200);
    expect((await call(t, 'GET', '/api/v1/members/999/keys')).status).toBe(404);
    expect((await call(t, 'GET', `/api/v1/members/${bo.id}/keys?per_page=%00`)).status).toBe(422);
    await accountRefusals('GET', '/api/v1/members/1/keys');
  },
  addMemberKey: async () => {
    const t = createTestApp();
    const bo = await member(t);
    expect((await call(t, 'POST', `/api/v1/members/${bo.id}/keys`, { form: { label: 'laptop' } })).status).toBe(201);
    expect((await call(t, 'POST', `/api/v1/members/${bo.id}/keys`)).status).toBe(201);
    expect((await call(t, 'POST', `/api/v1/members/${bo.id}/keys`, { form: { label: 'x'.repeat(81) } })).status).toBe(422);
    expect((await call(t, 'POST', '/api/v1/members/999/keys', { form: { label: 'laptop' } })).status).toBe(404);
    const small = createTestApp({ config: { bodyLimitBytes: 8 } });
    expect((await call(small, 'POST', '/api/v1/members/1/keys', { form: { label: 'laptop' } })).status).toBe(413);
    await accountRefusals('POST', '/api/v1/members/1/keys', { form: { label: 'ci' } });
  },
  revokeKey: async () => {
    const t = createTestApp();
    const bo = await member(t);
    expect((await call(t, 'DELETE', `/api/v1/keys/${bo.keyId}`)).status).toBe(200);
    expect((await call(t, 'DELETE', `/api/v1/keys/${bo.keyId}`)).status).toBe(404);
    await accountRefusals('DELETE', '/api/v1/keys/999');
  },
  listAudit: async () => {
    const t = createTestApp();
    const bo = await member(t);
    expect((await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/good' }, key: bo.key })).status).toBe(403);
    for (const query of ['', `?member=${bo.id}`, '?action=report.create', '?target=report:1', '?since=2026-01-01&until=2099-12-31T00:00:00Z', '?per_page=100&page=3']) {
      expect((await call(t, 'GET', `/api/v1/audit${query}`)).status).toBe(200);
    }
    for (const query of ['?action=report.eat', '?member=abc', '?target=42', '?since=yesterday', '?until=2026-13-40']) {
      expect((await call(t, 'GET', `/api/v1/audit${query}`)).status, query).toBe(422);
    }
    await accountRefusals('GET', '/api/v1/audit');
  },
};

describe('the OpenAPI document at /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a key and not to be cached', async () => {
    const res = await createTestApp().app.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
    const result = await new Validator().validate((await res.json()) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes every route the app has, and nothing else', () => {
    const app = createTestApp().app;
    const routes = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`),
    );
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect([...routes].sort()).toEqual(documented.sort());
  });

  it('in proxy mode is the upstream’s, forwarded like the rest of /api/v1: this one describes the reference server', async () => {
    const upstream = createServer((req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: `upstream: ${req.url}`, status: 404 }));
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    try {
      const { port } = upstream.address() as AddressInfo;
      const res = await createProxyApp({ upstreamUrl: `http://127.0.0.1:${port}` }).request(
        '/api/v1/openapi.json',
      );
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'upstream: /api/v1/openapi.json', status: 404 });
    } finally {
      upstream.close();
    }
  });

  it('has one scenario here per operation', () => {
    const ids = Object.values(doc.paths).flatMap((operations) =>
      Object.values(operations).map((operation) => operation.operationId),
    );
    expect(Object.keys(SCENARIOS).sort()).toEqual(ids.sort());
  });
});

describe('real answers match the document', () => {
  it.each(Object.keys(SCENARIOS))(
    '%s: every answer is documented, and every documented status was answered',
    async (operationId) => {
      const logged = loggedErrors.length;
      await SCENARIOS[operationId]!();
      // Each write that succeeded wrote its audit entry in its own transaction (storage/audit.ts):
      // the app tells when it had to write one after the write.
      const late = loggedErrors.slice(logged).map(({ error }) => String(error)).filter((message) => message.includes('audit entry'));
      expect(late).toEqual([]);
      const operation = Object.values(doc.paths)
        .flatMap((operations) => Object.values(operations))
        .find((op) => op.operationId === operationId)!;
      expect([...(seen.get(operationId) ?? [])].sort()).toEqual(
        Object.keys(operation.responses).map(Number).sort(),
      );
    },
  );

  it('answers a known path with an undocumented method 405, Allow naming exactly the documented methods', async () => {
    const t = createTestApp();
    for (const [template, operations] of Object.entries(doc.paths)) {
      const path = template.replace('{id}', '1').replace('{project}', 'example.com');
      const documented = Object.keys(operations).map((method) => method.toUpperCase());
      const allowed = documented.includes('GET') ? [...documented, 'HEAD'] : documented;
      for (const method of METHODS.map((m) => m.toUpperCase()).filter((m) => !documented.includes(m))) {
        const res = await t.call(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('Allow')?.split(', ').sort(), `${method} ${path}`).toEqual(allowed.sort());
        if (path.startsWith('/api/v1/'))
          await expectMatches(res, doc.components.responses.MethodNotAllowed!, `${method} ${path}`);
      }
    }
  });

  it('answers an unknown path under /api/v1 as the document’s NotFound, and without a key as Unauthenticated', async () => {
    const t = createTestApp();
    await expectMatches(
      await t.call('GET', '/api/v1/nowhere'),
      doc.components.responses.NotFound!,
      'GET /api/v1/nowhere',
    );
    await expectMatches(
      await t.call('GET', '/api/v1/nowhere', { key: null }),
      doc.components.responses.Unauthenticated!,
      'no key',
    );
  });
});
