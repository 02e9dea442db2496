import { afterEach, describe, expect, it } from 'vitest';
import {
  strictAuditListSchema,
  strictKeyCreatedEnvelope,
  strictKeyDeletedSchema,
  strictKeyListSchema,
  strictMeEnvelope,
  strictMemberCreatedEnvelope,
  strictMemberDeletedSchema,
  strictMemberEnvelope,
  strictMemberListSchema,
  strictValidationErrorSchema,
  type StrictAuditEntry,
} from '../../../src/contract/strict-schemas';
import { newKey } from '../auth/keys';
import { AUDIT_ACTIONS } from '../http/operations';
import { createTestApp, TEST_KEY, tickingClock, type TestApp } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';

const ADDRESS = '203.0.113.9';

/** A request as from ADDRESS, with `key` (the test key, an owner of Default, unless told). */
function send(t: TestApp, method: string, path: string, options: { key?: string; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${options.key ?? TEST_KEY}` };
  let body: string | undefined;
  if (options.form && method !== 'GET') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  return Promise.resolve(t.app.request(path, { method, headers, body }, { incoming: { socket: { remoteAddress: ADDRESS } } }));
}

async function addMember(t: TestApp, name: string, role: string, key = TEST_KEY) {
  const res = await send(t, 'POST', '/api/v1/members', { key, form: { name, role } });
  expect(res.status).toBe(201);
  return strictMemberCreatedEnvelope.parse(await res.json()).data;
}

async function audit(t: TestApp, query = ''): Promise<StrictAuditEntry[]> {
  const res = await send(t, 'GET', `/api/v1/audit?per_page=100${query}`);
  expect(res.status).toBe(200);
  return strictAuditListSchema.parse(await res.json()).data;
}

describe('GET /me', () => {
  it('names the key’s member, workspace, role and the key, for any role', async () => {
    const t = createTestApp();
    const res = await send(t, 'GET', '/api/v1/me');
    expect(res.status).toBe(200);
    const me = strictMeEnvelope.parse(await res.json()).data;
    expect(me).toMatchObject({ member: { id: 1, name: 'Owner' }, workspace: { id: 1, name: 'Default' }, role: 'owner' });
    expect(me.key).toMatchObject({ label: 'API_KEY', prefix: 'API_KEY' });

    const viewer = await addMember(t, 'Bo', 'viewer');
    const mine = strictMeEnvelope.parse(await (await send(t, 'GET', '/api/v1/me', { key: viewer.key.key })).json()).data;
    expect(mine).toEqual({
      member: { id: viewer.id, name: 'Bo' },
      workspace: { id: 1, name: 'Default' },
      role: 'viewer',
      key: { id: viewer.key.id, label: 'first key', prefix: viewer.key.key.slice(0, 10), created_at: viewer.key.created_at, last_used_at: null },
    });
  });
});

describe('members and keys', () => {
  it('adds a member with its first key shown once, lists, changes its role, gives and revokes keys, removes it', async () => {
    const t = createTestApp({ now: tickingClock() });
    const bo = await addMember(t, '  Bo  ', 'viewer');
    expect(bo).toMatchObject({ name: 'Bo', role: 'viewer', keys: 1, last_used_at: null, key: { label: 'first key', last_used_at: null } });
    expect(bo.key.key).toMatch(/^wrs_[\w-]{43}$/);
    expect(bo.key.prefix).toBe(bo.key.key.slice(0, 10));
    // Only the hash is stored.
    expect(JSON.stringify(t.db.prepare('SELECT * FROM api_keys').all())).not.toContain(bo.key.key);
    expect((await send(t, 'GET', '/api/v1/reports', { key: bo.key.key })).status).toBe(200);

    const list = strictMemberListSchema.parse(await (await send(t, 'GET', '/api/v1/members')).json());
    expect(list.data.map((m) => [m.name, m.role, m.keys])).toEqual([
      ['Owner', 'owner', 1],
      ['Bo', 'viewer', 1],
    ]);
    expect(list.meta).toMatchObject({ total: 2, per_page: 10, current_page: 1 });
    expect(list.data[1]!.last_used_at).not.toBeNull();

    const promoted = await send(t, 'PATCH', `/api/v1/members/${bo.id}`, { form: { role: 'editor' } });
    expect(strictMemberEnvelope.parse(await promoted.json()).data).toMatchObject({ id: bo.id, role: 'editor' });
    expect(strictMeEnvelope.parse(await (await send(t, 'GET', '/api/v1/me', { key: bo.key.key })).json()).data.role).toBe('editor');

    const made = await send(t, 'POST', `/api/v1/members/${bo.id}/keys`, { form: { label: 'laptop' } });
    expect(made.status).toBe(201);
    const laptop = strictKeyCreatedEnvelope.parse(await made.json()).data;
    expect(laptop).toMatchObject({ label: 'laptop', last_used_at: null });
    const keys = strictKeyListSchema.parse(await (await send(t, 'GET', `/api/v1/members/${bo.id}/keys`)).json());
    expect(keys.data.map((k) => k.label)).toEqual(['first key', 'laptop']);
    expect(JSON.stringify(keys)).not.toContain(laptop.key);

    const revoked = await send(t, 'DELETE', `/api/v1/keys/${laptop.id}`);
    expect(strictKeyDeletedSchema.parse(await revoked.json())).toEqual({ id: laptop.id, object: 'key', deleted: true, status: 200 });
    expect((await send(t, 'GET', '/api/v1/me', { key: laptop.key })).status).toBe(401);
    expect((await send(t, 'GET', '/api/v1/me', { key: bo.key.key })).status).toBe(200);
    expect((await send(t, 'DELETE', `/api/v1/keys/${laptop.id}`)).status).toBe(404);

    const removed = await send(t, 'DELETE', `/api/v1/members/${bo.id}`);
    expect(strictMemberDeletedSchema.parse(await removed.json())).toEqual({ id: bo.id, object: 'member', deleted: true, status: 200 });
    expect((await send(t, 'GET', '/api/v1/me', { key: bo.key.key })).status).toBe(401);
    for (const [method, path] of [
      ['PATCH', `/api/v1/members/${bo.id}`],
      ['DELETE', `/api/v1/members/${bo.id}`],
      ['GET', `/api/v1/members/${bo.id}/keys`],
      ['POST', `/api/v1/members/${bo.id}/keys`],
    ] as const) {
      expect((await send(t, method, path, { form: { role: 'owner' } })).status, `${method} ${path}`).toBe(404);
    }
  });

  it('keeps the last owner: neither removed nor demoted (422 on role), until another owner is there', async () => {
    const t = createTestApp();
    const lastOwner = { message: { role: ['The workspace’s last owner cannot be removed or demoted.'] }, status: 422 };
    for (const [method, form] of [['PATCH', { role: 'editor' }], ['DELETE', undefined]] as const) {
      const res = await send(t, method, '/api/v1/members/1', form ? { form } : {});
      expect(strictValidationErrorSchema.parse(await res.json())).toEqual(lastOwner);
    }
    const ana = await addMember(t, 'Ana', 'owner');
    expect((await send(t, 'PATCH', '/api/v1/members/1', { form: { role: 'editor' } })).status).toBe(200);
    // Ana is now the last owner, and may not demote herself either.
    expect((await send(t, 'PATCH', `/api/v1/members/${ana.id}`, { key: ana.key.key, form: { role: 'viewer' } })).status).toBe(422);
    expect((await send(t, 'DELETE', `/api/v1/members/${ana.id}`, { key: ana.key.key })).status).toBe(422);
    expect((await send(t, 'DELETE', '/api/v1/members/1', { key: ana.key.key })).status).toBe(200);
    expect((await send(t, 'GET', '/api/v1/me')).status).toBe(401);
  });

  it('refuses bad fields with 422 on them', async () => {
    const t = createTestApp();
    const bad = async (method: string, path: string, form: Record<string, string>) =>
      strictValidationErrorSchema.parse(await (await send(t, method, path, { form })).json()).message;
    expect(await bad('POST', '/api/v1/members', { name: '', role: 'boss' })).toEqual({
      name: ['The name field is required.'],
      role: ['The selected role is invalid.'],
    });
    expect(await bad('POST', '/api/v1/members', { name: 'x'.repeat(81) })).toEqual({
      name: ['The name must not be greater than 80 characters.'],
      role: ['The role field is required.'],
    });
    expect(await bad('PATCH', '/api/v1/members/1', {})).toEqual({ role: ['The role field is required.'] });
    expect(await bad('POST', '/api/v1/members/1/keys', { label: 'x'.repeat(81) })).toEqual({
      label: ['The label must not be greater than 80 characters.'],
    });
  });

  it('finds nothing of another workspace: its ids answer 404 as unknown ones, its members and entries are not listed', async () => {
    const t = createTestApp();
    const other = newKey('theirs');
    const made = await t.storage.accounts.createWorkspace('Acme', { name: 'Zed', key: other.stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const theirs = await addMember(t, 'Yan', 'viewer', other.key);
    const ours = await addMember(t, 'Bo', 'viewer');

    for (const [method, path, form] of [
      ['PATCH', `/api/v1/members/${theirs.id}`, { role: 'owner' }],
      ['DELETE', `/api/v1/members/${theirs.id}`, undefined],
      ['GET', `/api/v1/members/${theirs.id}/keys`, undefined],
      ['POST', `/api/v1/members/${theirs.id}/keys`, { label: 'mine now' }],
      ['DELETE', `/api/v1/keys/${theirs.key.id}`, undefined],
      ['DELETE', `/api/v1/keys/${made.key.id}`, undefined],
    ] as const) {
      const res = await send(t, method, path, form ? { form } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ message: 'Resource not found.', status: 404 });
    }
    // Their keys still work, and nothing of theirs changed.
    expect(strictMeEnvelope.parse(await (await send(t, 'GET', '/api/v1/me', { key: theirs.key.key })).json()).data).toMatchObject({
      workspace: { name: 'Acme' },
      role: 'viewer',
    });
    const listed = strictMemberListSchema.parse(await (await send(t, 'GET', '/api/v1/members')).json());
    expect(listed.data.map((m) => m.name)).toEqual(['Owner', 'Bo']);
    expect(JSON.stringify(await audit(t))).not.toMatch(/Yan|Zed|Acme/);
    const theirList = strictMemberListSchema.parse(await (await send(t, 'GET', '/api/v1/members', { key: other.key })).json());
    expect(theirList.data.map((m) => m.name)).toEqual(['Zed', 'Yan']);
    expect((await send(t, 'DELETE', `/api/v1/members/${ours.id}`, { key: other.key })).status).toBe(404);
  });

  it('is for owners: an editor and a viewer are refused 403 on every route but GET /me', async () => {
    const t = createTestApp();
    const bo = await addMember(t, 'Bo', 'viewer');
    for (const role of ['viewer', 'editor'] as const) {
      const { key } = await addMember(t, `An ${role}`, role);
      for (const [method, path] of [
        ['GET', '/api/v1/members'],
        ['POST', '/api/v1/members'],
        ['PATCH', `/api/v1/members/${bo.id}`],
        ['DELETE', `/api/v1/members/${bo.id}`],
        ['GET', `/api/v1/members/${bo.id}/keys`],
        ['POST', `/api/v1/members/${bo.id}/keys`],
        ['DELETE', `/api/v1/keys/${bo.key.id}`],
        ['GET', '/api/v1/audit'],
      ] as const) {
        const res = await send(t, method, path, { key: key.key, form: { name: 'Me', role: 'owner' } });
        expect(res.status, `${role} ${method} ${path}`).toBe(403);
        expect(await res.json()).toEqual({ message: `Your role (${role}) may not do this.`, status: 403 });
      }
      expect((await send(t, 'GET', '/api/v1/me', { key: key.key })).status).toBe(200);
    }
    // Nothing was done: Bo is there with his one key, a viewer.
    const listed = strictMemberListSchema.parse(await (await send(t, 'GET', '/api/v1/members')).json());
    expect(listed.data.find((m) => m.id === bo.id)).toMatchObject({ role: 'viewer', keys: 1 });
    expect(listed.meta.total).toBe(4);
  });
});

describe('GET /audit', () => {
  it('logs the member and key routes: member.create, member.update with the role before and after, key.create, key.delete, member.delete', async () => {
    const t = createTestApp({ now: tickingClock() });
    const bo = await addMember(t, 'Bo', 'viewer');
    await send(t, 'PATCH', `/api/v1/members/${bo.id}`, { form: { role: 'editor' } });
    const made = strictKeyCreatedEnvelope.parse(await (await send(t, 'POST', `/api/v1/members/${bo.id}/keys`, { form: { label: 'ci' } })).json()).data;
    await send(t, 'DELETE', `/api/v1/keys/${made.id}`);
    await send(t, 'DELETE', `/api/v1/members/${bo.id}`);
    // Refused by the rule of the last owner: nothing done, nothing logged as done.
    await send(t, 'DELETE', '/api/v1/members/1');

    const entries = await audit(t);
    const who = { member: { id: 1, name: 'Owner' }, key_id: 1, role: 'owner', outcome: 'done', ip: ADDRESS };
    expect(entries.map(({ action, target, changes, member, key_id, role, outcome, ip }) => ({ action, target, changes, member, key_id, role, outcome, ip }))).toEqual([
      { ...who, action: 'member.delete', target: { type: 'member', id: String(bo.id) }, changes: { name: ['Bo', null], role: ['editor', null] } },
      { ...who, action: 'key.delete', target: { type: 'key', id: String(made.id) }, changes: { key: ['set', 'unset'] } },
      { ...who, action: 'key.create', target: { type: 'key', id: String(made.id) }, changes: { member: [null, bo.id], label: [null, 'ci'], key: [null, 'set'] } },
      { ...who, action: 'member.update', target: { type: 'member', id: String(bo.id) }, changes: { role: ['viewer', 'editor'] } },
      { ...who, action: 'member.create', target: { type: 'member', id: String(bo.id) }, changes: { name: [null, 'Bo'], role: [null, 'viewer'] } },
    ]);
    // Newest first, each at its own time.
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort().reverse());
  });

  it('logs a viewer’s refused write with its member, key, role, action, target and address', async () => {
    const t = createTestApp();
    const created = await send(t, 'POST', '/api/v1/reports', { form: { url: 'https://shop.example/good' } });
    const { data } = (await created.json()) as { data: { id: number } };
    const viewer = await addMember(t, 'Vi', 'viewer');
    const refused = await send(t, 'PATCH', `/api/v1/reports/${data.id}`, { key: viewer.key.key, form: { privacy: '1' } });
    expect(refused.status).toBe(403);
    expect((await send(t, 'GET', `/api/v1/reports/${data.id}`)).status).toBe(200);

    const [entry] = await audit(t, `&member=${viewer.id}`);
    expect(entry).toEqual({
      id: expect.any(Number) as number,
      at: expect.any(String) as string,
      member: { id: viewer.id, name: 'Vi' },
      key_id: viewer.key.id,
      role: 'viewer',
      action: 'report.update',
      outcome: 'refused',
      target: { type: 'report', id: String(data.id) },
      changes: null,
      ip: ADDRESS,
    });
  });

  it('filters by member, action, target and time, pages like every list, and refuses a filter it cannot read', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const t = createTestApp({ now: () => new Date(now) });
    const bo = await addMember(t, 'Bo', 'editor');
    for (const url of ['https://shop.example/good', 'https://shop.example/bad', 'https://blog.example/good']) {
      now += 86_400_000;
      expect((await send(t, 'POST', '/api/v1/reports', { key: bo.key.key, form: { url } })).status).toBe(201);
    }
    now += 86_400_000;
    expect((await send(t, 'PATCH', '/api/v1/reports/2', { key: bo.key.key, form: { privacy: '2', password: 'pw' } })).status).toBe(200);

    const actions = async (query: string) => (await audit(t, query)).map((e) => `${e.action} ${e.target.id}`);
    expect(await actions(`&member=${bo.id}`)).toEqual(['report.update 2', 'report.create 3', 'report.create 2', 'report.create 1']);
    expect(await actions('&member=1')).toEqual([`member.create ${bo.id}`]);
    expect(await actions('&action=report.update')).toEqual(['report.update 2']);
    expect(await actions('&target=report:2')).toEqual(['report.update 2', 'report.create 2']);
    expect(await actions('&since=2026-11-22&until=2026-11-23')).toEqual(['report.create 3', 'report.create 2']);
    expect(await actions('&since=2026-11-22T10:00:00%2B00:00&until=2026-11-22T10:00:00Z')).toEqual(['report.create 2']);
    expect((await audit(t, '&target=report:2&action=report.update'))[0]!.changes).toEqual({ privacy: [0, 2], password: ['unset', 'set'] });

    const page = strictAuditListSchema.parse(await (await send(t, 'GET', '/api/v1/audit?per_page=10&page=1')).json());
    expect(page.meta).toMatchObject({ total: 5, per_page: 10, last_page: 1, from: 1, to: 5 });
    const bad = async (query: string) => strictValidationErrorSchema.parse(await (await send(t, 'GET', `/api/v1/audit?${query}`)).json()).message;
    expect(await bad('action=report.eat&member=0&target=42&since=yesterday&until=2026-02-30x')).toEqual({
      action: ['The selected action is invalid.'],
      member: ['The member must be a member’s id, a whole number from 1 up.'],
      target: ['The target must be written type:id, such as report:42.'],
      since: ['The since must be a date or a date and time (ISO 8601), such as 2026-11-20T10:00:00Z.'],
      until: ['The until must be a date or a date and time (ISO 8601), such as 2026-11-20T10:00:00Z.'],
    });
    // Every write's name is a filter.
    for (const action of AUDIT_ACTIONS) expect((await send(t, 'GET', `/api/v1/audit?action=${action}`)).status, action).toBe(200);
  });

  it('is append-only: no method on /audit or /audit/{id} changes or deletes an entry', async () => {
    const t = createTestApp();
    await addMember(t, 'Bo', 'viewer');
    const before = t.db.prepare('SELECT * FROM audit ORDER BY id').all();
    expect(before).toHaveLength(1);
    for (const path of ['/api/v1/audit', '/api/v1/audit/1', '/api/v1/audit/1/changes']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await send(t, method, path, { form: { action: 'report.delete', outcome: 'refused' } });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
    }
    expect(t.db.prepare('SELECT * FROM audit ORDER BY id').all()).toEqual(before);
  });

  it('never holds a password, key or secret, not even hashed', async () => {
    const t = createTestApp({ config: { allowPrivateUrls: true } });
    const password = 'correct horse battery staple';
    const report = await send(t, 'POST', '/api/v1/reports', { form: { url: 'https://shop.example/good', privacy: '2', password } });
    expect(report.status).toBe(201);
    expect((await send(t, 'PATCH', '/api/v1/reports/1', { form: { privacy: '2', password: `${password}!` } })).status).toBe(200);
    const bo = await addMember(t, 'Bo', 'editor');
    const key = strictKeyCreatedEnvelope.parse(await (await send(t, 'POST', `/api/v1/members/${bo.id}/keys`, { form: { label: 'ci' } })).json()).data;
    const hook = await send(t, 'POST', '/api/v1/webhooks', { form: { url: 'http://127.0.0.1:9/hook?token=s3cr3t-token' } });
    expect(hook.status).toBe(201);
    const { data: webhook } = (await hook.json()) as { data: { secret: string } };
    const share = await send(t, 'POST', '/api/v1/share-links', { form: { target: 'report:1', password: 'share-pass-42' } });
    expect(share.status).toBe(201);
    const { data: link } = (await share.json()) as { data: { url: string } };

    const dump = JSON.stringify(t.db.prepare('SELECT * FROM audit').all());
    expect(dump).toContain('report.create');
    expect(dump).toContain('webhook.create');
    const hashes = t.db.prepare('SELECT hash FROM api_keys UNION ALL SELECT password_hash FROM reports').pluck().all() as string[];
    for (const secret of [password, `${password}!`, bo.key.key, key.key, TEST_KEY, webhook.secret, webhook.secret.slice(6), 's3cr3t-token', 'share-pass-42', link.url.split('/s/')[1]!, ...hashes]) {
      expect(dump).not.toContain(secret);
    }
    const shown = JSON.stringify(await audit(t));
    expect(shown).toContain('"password":[null,"set"]');
    expect(shown).toContain('"password":["set","set"]');
  });
});

describe.each(STORAGE_ENGINES)('revocations on $name, two apps on one database', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);

  it('refuses a revoked key and a removed member’s keys at their next request on the other app, and a demotion holds there at once', async () => {
    const database = await fresh();
    // Two apps, each with its own connection, as two server processes have.
    const [a, b] = [createTestApp({ storage: await database.open() }), createTestApp({ storage: await database.open() })];
    const bo = await addMember(a, 'Bo', 'editor');
    const laptop = strictKeyCreatedEnvelope.parse(await (await send(a, 'POST', `/api/v1/members/${bo.id}/keys`, { form: { label: 'laptop' } })).json()).data;
    for (const key of [bo.key.key, laptop.key]) expect((await send(b, 'GET', '/api/v1/me', { key })).status).toBe(200);

    expect((await send(a, 'DELETE', `/api/v1/keys/${laptop.id}`)).status).toBe(200);
    expect((await send(b, 'GET', '/api/v1/me', { key: laptop.key })).status).toBe(401);
    expect((await send(b, 'GET', '/api/v1/reports', { key: bo.key.key })).status).toBe(200);

    expect((await send(a, 'PATCH', `/api/v1/members/${bo.id}`, { form: { role: 'viewer' } })).status).toBe(200);
    expect((await send(b, 'POST', '/api/v1/reports', { key: bo.key.key, form: { url: 'https://shop.example/good' } })).status).toBe(403);

    expect((await send(a, 'DELETE', `/api/v1/members/${bo.id}`)).status).toBe(200);
    expect((await send(b, 'GET', '/api/v1/reports', { key: bo.key.key })).status).toBe(401);
    expect((await send(a, 'GET', '/api/v1/reports', { key: bo.key.key })).status).toBe(401);
  });
});
