// The clients and which client a project is for, by what the routes answer and what they change.
import { describe, expect, it } from 'vitest';
import {
  strictClientDeletedSchema,
  strictClientEnvelope,
  strictClientListSchema,
  strictErrorSchema,
  strictLabelledProjectEnvelope,
  strictProjectListSchema,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import { createTestApp } from '../../../test/server/test-app';

type TestApp = ReturnType<typeof createTestApp>;

const NOW = new Date('2026-11-25T10:00:00Z');

const addClient = async (t: TestApp, name: string) => {
  const res = await t.call('POST', '/api/v1/clients', { form: { name } });
  expect(res.status).toBe(201);
  return strictClientEnvelope(201).parse(await res.json()).data;
};

const clients = async (t: TestApp, query = '') => {
  const res = await t.call('GET', `/api/v1/clients${query}`);
  expect(res.status).toBe(200);
  return strictClientListSchema.parse(await res.json());
};

const setClient = (t: TestApp, project: string, clientId: string) =>
  t.call('PUT', `/api/v1/projects/${project}/client`, { form: { client_id: clientId } });

const refusal = async (res: Response) => {
  expect(res.status).toBe(422);
  return strictValidationErrorSchema.parse(await res.json()).message;
};

describe('/clients', () => {
  it('adds, lists by name, renames and deletes clients', async () => {
    const t = createTestApp({ now: () => NOW });
    expect(await addClient(t, '  Zeta Ltd ')).toEqual({
      id: 1,
      name: 'Zeta Ltd',
      projects: 0,
      created_at: '2026-11-25T10:00:00.000000Z',
    });
    const acme = await addClient(t, 'acme');
    await addClient(t, 'Beta');
    const list = await clients(t);
    expect(list.data.map((client) => client.name)).toEqual(['acme', 'Beta', 'Zeta Ltd']);
    expect(list.meta).toMatchObject({ total: 3, current_page: 1, per_page: 10 });
    const past = await clients(t, '?per_page=10&page=2');
    expect([past.data, past.meta.total]).toEqual([[], 3]);

    const renamed = await t.call('PATCH', `/api/v1/clients/${acme.id}`, { json: { name: 'Acme' } });
    expect(renamed.status).toBe(200);
    expect(strictClientEnvelope(200).parse(await renamed.json()).data).toEqual({ ...acme, name: 'Acme' });

    const deleted = await t.call('DELETE', `/api/v1/clients/${acme.id}`);
    expect(deleted.status).toBe(200);
    expect(strictClientDeletedSchema.parse(await deleted.json())).toEqual({
      id: acme.id,
      object: 'client',
      deleted: true,
      status: 200,
    });
    expect((await clients(t)).data.map((client) => client.name)).toEqual(['Beta', 'Zeta Ltd']);
    for (const [method, path] of [
      ['PATCH', `/api/v1/clients/${acme.id}`],
      ['DELETE', `/api/v1/clients/${acme.id}`],
      ['PATCH', '/api/v1/clients/abc'],
      ['DELETE', '/api/v1/clients/0'],
    ] as const) {
      const res = await t.call(method, path, { form: { name: 'Again' } });
      expect(res.status, `${method} ${path}`).toBe(404);
      strictErrorSchema.parse(await res.json());
    }
  });

  it('refuses a name missing, too long, with a control character, or another client’s whatever its case', async () => {
    const t = createTestApp();
    const acme = await addClient(t, 'Acme');
    const beta = await addClient(t, 'Beta');
    const post = (form: Record<string, string>) => t.call('POST', '/api/v1/clients', { form });
    expect(await refusal(await post({}))).toEqual({ name: ['The name field is required.'] });
    expect(await refusal(await post({ name: '   ' }))).toEqual({ name: ['The name field is required.'] });
    expect(await refusal(await post({ name: 'x'.repeat(81) }))).toEqual({
      name: ['The name must not be greater than 80 characters.'],
    });
    expect(await refusal(await post({ name: 'a\u0007b' }))).toEqual({
      name: ['The name must not contain control characters.'],
    });
    for (const taken of ['ACME', ' acme ']) {
      expect(await refusal(await post({ name: taken }))).toEqual({
        name: ['The name has already been taken.'],
      });
    }
    expect(
      await refusal(await t.call('PATCH', `/api/v1/clients/${beta.id}`, { form: { name: 'aCmE' } })),
    ).toEqual({ name: ['The name has already been taken.'] });
    // A client may change the case of its own name; 80 characters (code points) is the most.
    expect((await t.call('PATCH', `/api/v1/clients/${acme.id}`, { form: { name: 'ACME' } })).status).toBe(
      200,
    );
    expect((await post({ name: '🙂'.repeat(80) })).status).toBe(201);
    expect((await clients(t)).data.map((client) => client.name)).toEqual(['ACME', 'Beta', '🙂'.repeat(80)]);
  });
});

describe('PUT /projects/{project}/client', () => {
  it('puts a project in a client and out of it; the list and the client’s count say so', async () => {
    const t = createTestApp();
    for (const url of ['https://shop.example/', 'https://shop.example/b', 'https://blog.example/'])
      expect((await t.call('POST', '/api/v1/reports', { form: { url } })).status).toBe(201);
    const acme = await addClient(t, 'Acme');
    await t.call('PATCH', '/api/v1/projects/shop.example', { form: { label: 'Main shop' } });

    const set = await setClient(t, 'shop.example', String(acme.id));
    expect(set.status).toBe(200);
    expect(strictLabelledProjectEnvelope.parse(await set.json()).data).toMatchObject({
      project: 'shop.example',
      reports: 2,
      label: 'Main shop',
      client: { id: acme.id, name: 'Acme' },
    });
    expect(
      (await t.call('PUT', '/api/v1/projects/blog.example/client', { json: { client_id: acme.id } })).status,
    ).toBe(200);
    expect((await clients(t)).data).toMatchObject([{ name: 'Acme', projects: 2 }]);
    // A renamed client is renamed in its projects.
    await t.call('PATCH', `/api/v1/clients/${acme.id}`, { form: { name: 'Acme Ltd' } });
    const projects = strictProjectListSchema.parse(
      await (await t.call('GET', '/api/v1/projects?sort_by=project&sort=asc')).json(),
    );
    expect(projects.data.map((project) => [project.project, project.label, project.client])).toEqual([
      ['blog.example', null, { id: acme.id, name: 'Acme Ltd' }],
      ['shop.example', 'Main shop', { id: acme.id, name: 'Acme Ltd' }],
    ]);

    const cleared = await setClient(t, 'blog.example', '');
    expect(strictLabelledProjectEnvelope.parse(await cleared.json()).data.client).toBeNull();
    expect((await clients(t)).data).toMatchObject([{ projects: 1 }]);
  });

  it('refuses an unknown or malformed client (422) and answers 404 for an unknown project', async () => {
    const t = createTestApp();
    await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/' } });
    const acme = await addClient(t, 'Acme');
    await setClient(t, 'shop.example', String(acme.id));
    for (const wrong of ['999', 'abc', '1.5', '-1']) {
      expect(await refusal(await setClient(t, 'shop.example', wrong))).toEqual({
        client_id: ['The selected client id is invalid.'],
      });
    }
    // Nothing refused changed it.
    const shown = await t.call('GET', '/api/v1/projects/shop.example');
    expect(strictLabelledProjectEnvelope.parse(await shown.json()).data.client).toEqual({
      id: acme.id,
      name: 'Acme',
    });
    const unknown = await setClient(t, 'nowhere.example', String(acme.id));
    expect(unknown.status).toBe(404);
    strictErrorSchema.parse(await unknown.json());
  });

  it('a client deleted leaves its projects without one; a project deleted leaves its client', async () => {
    const t = createTestApp();
    for (const url of ['https://shop.example/', 'https://blog.example/'])
      await t.call('POST', '/api/v1/reports', { form: { url } });
    const acme = await addClient(t, 'Acme');
    await setClient(t, 'shop.example', String(acme.id));
    await setClient(t, 'blog.example', String(acme.id));

    expect((await t.call('DELETE', '/api/v1/projects/blog.example')).status).toBe(200);
    expect((await clients(t)).data).toMatchObject([{ name: 'Acme', projects: 1 }]);
    await t.call('POST', '/api/v1/reports', { form: { url: 'https://blog.example/' } });
    const blog = await t.call('GET', '/api/v1/projects/blog.example');
    expect(strictLabelledProjectEnvelope.parse(await blog.json()).data.client).toBeNull();

    expect((await t.call('DELETE', `/api/v1/clients/${acme.id}`)).status).toBe(200);
    const shop = await t.call('GET', '/api/v1/projects/shop.example');
    expect(strictLabelledProjectEnvelope.parse(await shop.json()).data).toMatchObject({
      reports: 1,
      client: null,
    });
  });
});

describe('the audit log of clients, labels and check settings', () => {
  it('has one entry per change, written by the storage with what changed (before, after)', async () => {
    const t = createTestApp({ now: () => NOW });
    expect((await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/good' } })).status).toBe(201);
    const acme = await addClient(t, 'Acme');
    expect((await t.call('PATCH', `/api/v1/clients/${acme.id}`, { form: { name: 'Acme Ltd' } })).status).toBe(200);
    expect((await setClient(t, 'shop.example', String(acme.id))).status).toBe(200);
    expect((await t.call('PATCH', '/api/v1/projects/shop.example', { form: { label: 'Main shop' } })).status).toBe(200);
    expect((await t.call('PUT', '/api/v1/projects/shop.example/checks/title', { form: { state: 'ignored', note: 'Known' } })).status).toBe(200);
    expect((await t.call('PUT', '/api/v1/projects/shop.example/checks/title', { form: { state: 'open' } })).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/clients/${acme.id}`)).status).toBe(200);
    const log = await t.storage.accounts.listAudit(1, { limit: 20, offset: 0 });
    expect(log.items.slice(0, 7).reverse().map((entry) => [entry.action, entry.target, entry.changes])).toEqual([
      ['client.create', { type: 'client', id: String(acme.id) }, { name: [null, 'Acme'] }],
      ['client.update', { type: 'client', id: String(acme.id) }, { name: ['Acme', 'Acme Ltd'] }],
      ['project.client', { type: 'project', id: 'shop.example' }, { client: [null, acme.id] }],
      ['project.update', { type: 'project', id: 'shop.example' }, { label: [null, 'Main shop'] }],
      ['checks.update', { type: 'project', id: 'shop.example' }, { check: ['title', 'title'], state: ['open', 'ignored'], note: [null, 'Known'] }],
      ['checks.update', { type: 'project', id: 'shop.example' }, { check: ['title', 'title'], state: ['ignored', 'open'], note: ['Known', null] }],
      ['client.delete', { type: 'client', id: String(acme.id) }, { name: ['Acme Ltd', null] }],
    ]);
  });
});
