// The accounts extension's routes (api-contract.md, Accounts, roles, audit; issue 47): who a key
// signs in as, the workspace's members and their keys, and the audit log. Who may call each is
// the one table of http/operations.ts (owner, but GET /me), checked by the app before these run.
// Every storage call names the request's workspace (the actor's): an id of another workspace is
// found by none of them, so it answers 404 as an unknown one does.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import { ACCOUNT_MESSAGES } from '../../../src/contract/accounts';
import {
  auditListQuerySchema,
  keyBodySchema,
  keyIdParamSchema,
  keyListQuerySchema,
  memberBodySchema,
  memberIdParamSchema,
  memberListQuerySchema,
  memberRoleBodySchema,
} from '../../../src/contract/request-schemas';
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
} from '../../../src/contract/strict-schemas';
import { newKey } from '../auth/keys';
import { errorResponse, validationResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { LOGGED_ACTIONS } from '../http/operations';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import type { AuditEntry, KeyRecord, MemberRecord } from '../storage/account-storage';
import type { AppDeps } from './app-deps';

/** The label of the key a new member is made with. */
export const FIRST_KEY_LABEL = 'first key';

const LAST_OWNER = { role: [ACCOUNT_MESSAGES.lastOwner] };

function keyJson(key: KeyRecord) {
  return { id: key.id, label: key.label, prefix: key.prefix, created_at: key.createdAt, last_used_at: key.lastUsedAt };
}

function memberJson(member: MemberRecord) {
  return {
    id: member.id,
    name: member.name,
    role: member.role,
    created_at: member.createdAt,
    keys: member.keys,
    last_used_at: member.lastUsedAt,
  };
}

function entryJson(entry: AuditEntry) {
  return {
    id: entry.id,
    at: entry.at,
    member: entry.member,
    key_id: entry.keyId,
    role: entry.role,
    action: entry.action,
    outcome: entry.outcome,
    target: entry.target,
    changes: entry.changes,
    ip: entry.ip,
  };
}

/** The workspace of the request: its key's. */
const workspaceOf = (c: Context) => c.get('actor').workspaceId;

/** /me, /members, /members/{id}/keys, /keys/{id} and /audit, mounted at the API's root. */
export function accountsRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  const memberId = validator('param', memberIdParamSchema, notFoundUnlessValid);
  const accounts = () => storage.accounts;
  return new Hono()
    .get(
      '/me',
      describeRoute({
        operationId: 'showMe',
        summary: 'Who the key signs in as: its member, workspace, role and the key itself (an extension)',
        tags: ['Accounts'],
        // What the key was found with: no storage read of its own, so no 500 but the key store's (which every route shares).
        responses: { 200: ok('The key’s member, workspace and role.', strictMeEnvelope), ...errors(401, 429) },
      }),
      (c) => {
        const identity = c.get('identity');
        return c.json(
          {
            data: {
              member: { id: identity.memberId, name: identity.memberName },
              workspace: { id: identity.workspaceId, name: identity.workspaceName },
              role: identity.role,
              key: {
                id: identity.keyId,
                label: identity.keyLabel,
                prefix: identity.keyPrefix,
                created_at: identity.keyCreatedAt,
                last_used_at: identity.keyLastUsedAt,
              },
            },
            status: 200 as const,
          },
          200,
        );
      },
    )
    .get(
      '/members',
      describeRoute({
        operationId: 'listMembers',
        summary: 'List the workspace’s members, oldest first (an extension; owners only)',
        tags: ['Accounts'],
        responses: { 200: ok('A page of members.', strictMemberListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', memberListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await accounts().listMembers(workspaceOf(c), { limit: q.per_page, offset: (q.page - 1) * q.per_page });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(memberJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .post(
      '/members',
      describeRoute({
        operationId: 'addMember',
        summary: 'Add a member with a role, and its first key (an extension; owners only)',
        description: 'The answer’s `key.key` is the key itself, shown this once: only its SHA-256 is kept.',
        tags: ['Accounts'],
        requestBody: formRequestBody(memberBodySchema, 'The member’s name and role.'),
        responses: {
          201: ok('The member, with its first key (shown this once).', strictMemberCreatedEnvelope),
          ...errors(...KEYED_ERRORS, 413, 422),
        },
      }),
      formBody(memberBodySchema),
      async (c) => {
        const body = c.req.valid('form');
        const { key, stored } = newKey(FIRST_KEY_LABEL);
        const made = await accounts().addMember(workspaceOf(c), { name: body.name, role: body.role, key: stored }, now());
        return c.json({ data: { ...memberJson(made.member), key: { ...keyJson(made.key), key } }, status: 201 as const }, 201);
      },
    )
    .patch(
      '/members/:id',
      describeRoute({
        operationId: 'updateMember',
        summary: 'Change a member’s role (an extension; owners only)',
        description: 'The workspace’s last owner cannot be demoted (422 on `role`).',
        tags: ['Accounts'],
        requestBody: formRequestBody(memberRoleBodySchema, 'The member’s new role.'),
        responses: { 200: ok('The member as it is now.', strictMemberEnvelope), ...errors(...KEYED_ERRORS, 404, 413, 422) },
      }),
      memberId,
      formBody(memberRoleBodySchema),
      async (c) => {
        const member = await accounts().setRole(workspaceOf(c), c.req.valid('param').id, c.req.valid('form').role, now());
        if (member === 'not found') return errorResponse(c, 404);
        if (member === 'last owner') return validationResponse(c, LAST_OWNER);
        return c.json({ data: memberJson(member), status: 200 as const }, 200);
      },
    )
    .delete(
      '/members/:id',
      describeRoute({
        operationId: 'deleteMember',
        summary: 'Remove a member: its keys are refused from its next request on, on every process (an extension; owners only)',
        description: 'The workspace’s last owner cannot be removed (422 on `role`). A removed member stays named in the audit log.',
        tags: ['Accounts'],
        responses: { 200: ok('The member is removed.', strictMemberDeletedSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      memberId,
      async (c) => {
        const { id } = c.req.valid('param');
        const removed = await accounts().removeMember(workspaceOf(c), id, now());
        if (removed === 'not found') return errorResponse(c, 404);
        if (removed === 'last owner') return validationResponse(c, LAST_OWNER);
        return c.json({ id, object: 'member' as const, deleted: true as const, status: 200 as const }, 200);
      },
    )
    .get(
      '/members/:id/keys',
      describeRoute({
        operationId: 'listMemberKeys',
        summary: 'List a member’s keys not revoked, oldest first, without the keys themselves (an extension; owners only)',
        tags: ['Accounts'],
        responses: { 200: ok('A page of keys.', strictKeyListSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      memberId,
      validator('query', keyListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await accounts().listKeys(workspaceOf(c), c.req.valid('param').id, {
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        if (!page) return errorResponse(c, 404);
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(keyJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .post(
      '/members/:id/keys',
      describeRoute({
        operationId: 'addMemberKey',
        summary: 'Give a member another key (an extension; owners only)',
        description: 'The answer’s `key` is the key itself, shown this once: only its SHA-256 is kept.',
        tags: ['Accounts'],
        requestBody: formRequestBody(keyBodySchema, 'The key’s label, optional.'),
        responses: { 201: ok('The key (shown this once).', strictKeyCreatedEnvelope), ...errors(...KEYED_ERRORS, 404, 413, 422) },
      }),
      memberId,
      formBody(keyBodySchema),
      async (c) => {
        const { key, stored } = newKey(c.req.valid('form').label);
        const record = await accounts().addKey(workspaceOf(c), c.req.valid('param').id, stored, now());
        if (!record) return errorResponse(c, 404);
        return c.json({ data: { ...keyJson(record), key }, status: 201 as const }, 201);
      },
    )
    .delete(
      '/keys/:id',
      describeRoute({
        operationId: 'revokeKey',
        summary: 'Revoke a key: its next request is a 401, on every process (an extension; owners only)',
        tags: ['Accounts'],
        responses: { 200: ok('The key is revoked.', strictKeyDeletedSchema), ...errors(...KEYED_ERRORS, 404) },
      }),
      validator('param', keyIdParamSchema, notFoundUnlessValid),
      async (c) => {
        const { id } = c.req.valid('param');
        if (!(await accounts().revokeKey(workspaceOf(c), id, now()))) return errorResponse(c, 404);
        return c.json({ id, object: 'key' as const, deleted: true as const, status: 200 as const }, 200);
      },
    )
    .get(
      '/audit',
      describeRoute({
        operationId: 'listAudit',
        summary: 'The audit log, newest first: every write done and every request refused (an extension; owners only)',
        description:
          'Append-only: no route changes or deletes an entry; entries older than `AUDIT_DAYS` days are dropped. ' +
          'A filter it cannot read (`member`, `action`, `target`, `since`, `until`) is a 422 on it.',
        tags: ['Accounts'],
        responses: { 200: ok('A page of entries.', strictAuditListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', auditListQuerySchema(LOGGED_ACTIONS), unprocessableUnlessValid),
      async (c) => {
        const q = c.req.valid('query');
        const page = await accounts().listAudit(workspaceOf(c), {
          ...(q.member !== undefined ? { member: q.member } : {}),
          ...(q.action !== undefined ? { action: q.action } : {}),
          ...(q.target !== undefined ? { target: q.target } : {}),
          ...(q.since !== undefined ? { since: q.since } : {}),
          ...(q.until !== undefined ? { until: q.until } : {}),
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(entryJson), ...envelope, status: 200 as const }, 200);
      },
    );
}
