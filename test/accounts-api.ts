// The accounts routes of issue 47 (GET /me, /members, /members/{id}/keys, /keys/{id}, GET /audit) as
// /work/briefs/accounts-api.md and api-contract.md ("Accounts, roles, audit") say they answer, in memory,
// beside a real API for everything else (its capabilities with `accounts` and `audit` on). They stand in
// for the reference server's own routes, which are being built (issue 47, server side): once those land,
// tests should move to the real app, as the conventions ask.
import { HttpResponse, http } from 'msw';
import type { HttpHandler } from 'msw';
import type { RealApi } from './msw';

export type Role = 'owner' | 'editor' | 'viewer';

interface FakeKey {
  id: number;
  memberId: number;
  label: string | null;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

interface FakeMember {
  id: number;
  name: string;
  role: Role;
  created_at: string;
}

export interface FakeAuditEntry {
  id: number;
  at: string;
  member: { id: number; name: string };
  key_id: number;
  role: Role;
  action: string;
  outcome: 'done' | 'refused';
  target: { type: string; id: string } | null;
  changes: Record<string, [unknown, unknown]> | null;
  ip: string;
}

export interface FakeAccounts {
  handlers: HttpHandler[];
  members: FakeMember[];
  keys: FakeKey[];
  audit: FakeAuditEntry[];
  /** Adds a member (and a first key), as the owner's POST /members would; returns it. */
  addMember(name: string, role: Role): FakeMember;
  /** Adds an audit entry (newest last here; listed newest first). */
  record(entry: Omit<FakeAuditEntry, 'id'>): FakeAuditEntry;
}

const LAST_OWNER = { message: { role: ["The workspace's last owner cannot be removed or demoted."] }, status: 422 };

/**
 * The accounts routes, the signed-in key being member 1 ("Ana") with `role`. With `api`, its
 * capabilities (with accounts and audit); without, only these routes.
 */
export function fakeAccounts(api: RealApi | null, options: { role?: Role; audit?: boolean } = {}): FakeAccounts {
  const now = () => new Date().toISOString();
  const members: FakeMember[] = [{ id: 1, name: 'Ana', role: options.role ?? 'owner', created_at: '2026-11-01T09:00:00Z' }];
  const keys: FakeKey[] = [{ id: 1, memberId: 1, label: 'laptop', prefix: 'wrs_ana111', created_at: '2026-11-01T09:00:00Z', last_used_at: now() }];
  const audit: FakeAuditEntry[] = [];
  let nextId = 2;
  let nextAudit = 1;

  const memberJson = (m: FakeMember) => {
    const own = keys.filter((k) => k.memberId === m.id);
    const used = own.map((k) => k.last_used_at).filter((t): t is string => t !== null).sort();
    return { id: m.id, name: m.name, role: m.role, created_at: m.created_at, keys: own.length, last_used_at: used.at(-1) ?? null };
  };
  const keyJson = (k: FakeKey) => ({ id: k.id, label: k.label, prefix: k.prefix, created_at: k.created_at, last_used_at: k.last_used_at });
  const list = <T,>(items: T[], page = 1, perPage = items.length || 10) => {
    const total = items.length;
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const data = items.slice((page - 1) * perPage, page * perPage);
    const from = data.length ? (page - 1) * perPage + 1 : null;
    return {
      data,
      meta: { current_page: page, last_page: lastPage, per_page: perPage, total, from, to: from === null ? null : from + data.length - 1 },
      status: 200,
    };
  };
  const newKey = (memberId: number, label: string | null) => {
    const secret = `wrs_${Math.random().toString(36).slice(2, 12)}${Math.random().toString(36).slice(2, 12)}`;
    const key: FakeKey = { id: nextId++, memberId, label, prefix: secret.slice(0, 10), created_at: now(), last_used_at: null };
    keys.push(key);
    return { ...keyJson(key), key: secret };
  };
  const addMember = (name: string, role: Role) => {
    const member: FakeMember = { id: nextId++, name, role, created_at: now() };
    members.push(member);
    return member;
  };
  const record = (entry: Omit<FakeAuditEntry, 'id'>) => {
    const full = { id: nextAudit++, ...entry };
    audit.push(full);
    return full;
  };
  const me = () => members[0]!;
  const refuseUnlessOwner = () =>
    me().role === 'owner' ? null : HttpResponse.json({ message: `Your role (${me().role}) may not do this.`, status: 403 }, { status: 403 });
  const form = async (request: Request) => new URLSearchParams(await request.text());
  const owners = () => members.filter((m) => m.role === 'owner').length;
  const byId = (id: unknown) => members.find((m) => m.id === Number(id));

  const handlers: HttpHandler[] = [
    http.get('*/api/v1/me', () =>
      HttpResponse.json({
        data: { member: { id: me().id, name: me().name }, workspace: { id: 1, name: 'Default' }, role: me().role, key: keyJson(keys[0]!) },
        status: 200,
      }),
    ),
    http.get('*/api/v1/members', () => refuseUnlessOwner() ?? HttpResponse.json(list(members.map(memberJson)))),
    http.post('*/api/v1/members', async ({ request }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      const body = await form(request);
      const name = (body.get('name') ?? '').trim();
      const role = body.get('role') as Role;
      if (name === '' || name.length > 80) return HttpResponse.json({ message: { name: ['The name must be 1 to 80 characters.'] }, status: 422 }, { status: 422 });
      if (!['owner', 'editor', 'viewer'].includes(role)) return HttpResponse.json({ message: { role: ['The role is invalid.'] }, status: 422 }, { status: 422 });
      const member = addMember(name, role);
      const key = newKey(member.id, 'first key');
      return HttpResponse.json({ data: { ...memberJson(member), key }, status: 201 }, { status: 201 });
    }),
    http.patch('*/api/v1/members/:id', async ({ request, params }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      const member = byId(params.id);
      if (!member) return HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
      const role = (await form(request)).get('role') as Role;
      if (member.role === 'owner' && role !== 'owner' && owners() === 1) return HttpResponse.json(LAST_OWNER, { status: 422 });
      member.role = role;
      return HttpResponse.json({ data: memberJson(member), status: 200 });
    }),
    http.delete('*/api/v1/members/:id', ({ params }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      const member = byId(params.id);
      if (!member) return HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
      if (member.role === 'owner' && owners() === 1) return HttpResponse.json(LAST_OWNER, { status: 422 });
      members.splice(members.indexOf(member), 1);
      for (const key of keys.filter((k) => k.memberId === member.id)) keys.splice(keys.indexOf(key), 1);
      return HttpResponse.json({ id: member.id, object: 'member', deleted: true, status: 200 });
    }),
    http.get('*/api/v1/members/:id/keys', ({ params }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      return HttpResponse.json(list(keys.filter((k) => k.memberId === Number(params.id)).map(keyJson)));
    }),
    http.post('*/api/v1/members/:id/keys', async ({ request, params }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      if (!byId(params.id)) return HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
      const label = (await form(request)).get('label');
      return HttpResponse.json({ data: newKey(Number(params.id), label || null), status: 201 }, { status: 201 });
    }),
    http.delete('*/api/v1/keys/:id', ({ params }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      const key = keys.find((k) => k.id === Number(params.id));
      if (!key) return HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
      keys.splice(keys.indexOf(key), 1);
      return HttpResponse.json({ id: key.id, object: 'key', deleted: true, status: 200 });
    }),
    http.get('*/api/v1/audit', ({ request }) => {
      const refused = refuseUnlessOwner();
      if (refused) return refused;
      const query = new URL(request.url).searchParams;
      const perPage = Number(query.get('per_page') ?? 10);
      if (![10, 25, 50, 100].includes(perPage)) return HttpResponse.json({ message: { per_page: ['Invalid.'] }, status: 422 }, { status: 422 });
      const member = query.get('member');
      const action = query.get('action');
      const since = query.get('since');
      const until = query.get('until');
      const matching = audit
        .filter((e) => (member === null || e.member.id === Number(member)) && (action === null || e.action === action))
        .filter((e) => (since === null || e.at >= new Date(since).toISOString()) && (until === null || e.at <= new Date(until).toISOString()))
        .sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1));
      return HttpResponse.json(list(matching, Number(query.get('page') ?? 1), perPage));
    }),
  ];
  if (api) {
    handlers.unshift(
      http.get('*/api/v1/capabilities', async ({ request }) => {
        const { app } = await api.backend();
        const answer = (await (
          await app.fetch(new Request(new URL('/api/v1/capabilities', request.url), { headers: request.headers }))
        ).json()) as { data: Record<string, unknown> };
        return HttpResponse.json({ ...answer, data: { ...answer.data, accounts: true, audit: options.audit ?? true } });
      }),
    );
  }
  return { handlers, members, keys, audit, addMember, record };
}
