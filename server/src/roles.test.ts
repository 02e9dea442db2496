// Roles over every operation of the OpenAPI document (issue 47): each write has its rule in
// http/operations.ts, a viewer and an editor are refused (403, logged) exactly what their role may
// not do, before anything else of the request, and allowed the rest.
import { beforeAll, describe, expect, it } from 'vitest';
import { newKey } from './auth/keys';
import { mayDo, operationOf } from './http/operations';
import type { Role } from './storage/database';
import { createTestApp, type TestApp } from '../../test/server/test-app';

interface Document {
  paths: Record<string, Record<string, { operationId: string }>>;
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const PREFIX = '/api/v1';

let doc: Document;
beforeAll(async () => {
  doc = (await (await createTestApp().app.request(`${PREFIX}/openapi.json`)).json()) as Document;
});

/** Every operation of the document, its path's parameters filled with ids that exist nowhere. */
function operations(): { method: string; path: string; id: string }[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: template.replace(/\{[^}]+\}/g, (name) => (name === '{project}' ? 'nowhere.example' : name === '{check}' ? 'title' : '999')),
        id: operation.operationId,
      })),
  );
}

/**
 * The least role of an operation as api-contract.md says it, written apart from operations.ts so
 * that a wrong rule there fails here: a viewer reads and marks alerts read; an owner alone manages
 * members, keys, webhooks, branding and digests and reads the audit log; an editor does the rest.
 */
function contractRole(method: string, path: string): Role {
  const below = path.slice(PREFIX.length);
  if (/^\/(members|keys|audit|webhooks|digests)(\/|$)/.test(below)) return 'owner';
  if (/^\/branding(\/|$)/.test(below) && method !== 'GET') return 'owner';
  if (method === 'GET') return 'viewer';
  if (/^\/alerts\/(read|\d+)$/.test(below)) return 'viewer';
  return 'editor';
}

async function memberKey(t: TestApp, name: string, role: Role): Promise<{ key: string; memberId: number; keyId: number }> {
  const { key, stored } = newKey(null);
  const added = await t.storage.accounts.addMember(1, { name, role, key: stored }, new Date());
  return { key, memberId: added.member.id, keyId: added.key.id };
}

describe('roles over every operation of the OpenAPI document', () => {
  it('names the rule of every write: none falls to the catch-all', () => {
    const unnamed = operations()
      .filter(({ method, path }) => WRITES.has(method.toLowerCase()) && !path.startsWith('/r/') && !path.startsWith('/s/'))
      .filter(({ method, path }) => path.startsWith(PREFIX) && operationOf(method, path.slice(PREFIX.length))?.action === 'write');
    expect(unnamed).toEqual([]);
    expect(operations().length).toBeGreaterThan(40);
  });

  it.each(['viewer', 'editor'] as const)(
    'refuses the role %s, before anything else, what the role may not do, logs each refusal, and lets the rest through',
    async (role) => {
      const t = createTestApp();
      const { key, memberId, keyId } = await memberKey(t, `A ${role}`, role);
      let refused = 0;
      for (const { method, path, id } of operations()) {
        if (!path.startsWith(PREFIX) || path === `${PREFIX}/openapi.json`) continue;
        const needed = contractRole(method, path);
        expect(operationOf(method, path.slice(PREFIX.length))?.role ?? 'viewer', `${id}'s rule`).toBe(needed);
        const res = await t.call(method, path, { key, form: WRITES.has(method.toLowerCase()) ? {} : undefined });
        if (!mayDo(role, needed)) {
          expect(res.status, `${id} ${method} ${path}`).toBe(403);
          expect(await res.json()).toEqual({ message: `Your role (${role}) may not do this.`, status: 403 });
          refused += 1;
        } else {
          expect(res.status, `${id} ${method} ${path}`).not.toBe(403);
        }
      }
      expect(refused).toBeGreaterThan(role === 'viewer' ? 25 : 8);
      const log = await t.storage.accounts.listAudit(1, { limit: 100, offset: 0 });
      const refusals = log.items.filter((entry) => entry.outcome === 'refused');
      expect(refusals).toHaveLength(refused);
      expect(refusals[0]).toMatchObject({ member: { id: memberId, name: `A ${role}` }, keyId, role, ip: expect.any(String) });
      // Nothing a refused request asked for was done: no write succeeded.
      expect(log.items.filter((entry) => entry.outcome === 'done' && entry.member.id === memberId).every((entry) => entry.action === 'alert.read' || role === 'editor')).toBe(true);
    },
  );

  it('refuses a viewer the same way whether the report exists or not', async () => {
    const t = createTestApp();
    const created = await t.call('POST', `${PREFIX}/reports`, { form: { url: 'https://example.com/' } });
    const { id } = ((await created.json()) as { data: { id: number } }).data;
    const { key } = await memberKey(t, 'Vi', 'viewer');
    const here = await t.call('DELETE', `${PREFIX}/reports/${id}`, { key });
    const nowhere = await t.call('DELETE', `${PREFIX}/reports/${id + 1000}`, { key });
    expect([here.status, nowhere.status]).toEqual([403, 403]);
    expect(await here.text()).toBe(await nowhere.text());
    expect((await t.call('GET', `${PREFIX}/reports/${id}`, { key })).status).toBe(200);
  });
});
