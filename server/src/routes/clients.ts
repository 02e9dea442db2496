// The clients extension's routes (api-contract.md, Overview, labels and clients): the clients
// projects are for, and which client a project is for. A project's label is set on the project
// itself (PATCH /projects/{project}, projects.ts).
import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import {
  CLIENT_MESSAGES,
  clientBodySchema,
  clientIdParamSchema,
  clientListQuerySchema,
  projectClientBodySchema,
  projectParamSchema,
} from '../../../src/contract/request-schemas';
import {
  strictClientDeletedSchema,
  strictClientEnvelope,
  strictClientListSchema,
  strictLabelledProjectEnvelope,
} from '../../../src/contract/strict-schemas';
import type { AppDeps } from './app-deps';
import { errorResponse, validationResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid } from '../http/validation';
import type { ClientRecord } from '../storage/client-storage';
import { projectResponse } from './projects';

function clientJson(client: ClientRecord) {
  return { id: client.id, name: client.name, projects: client.projects, created_at: client.createdAt };
}

const NAME_TAKEN = { name: [CLIENT_MESSAGES.nameTaken] };

/** /clients. */
export function clientsRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  const clientId = validator('param', clientIdParamSchema, notFoundUnlessValid);
  const nameBody = formRequestBody(clientBodySchema, 'The client’s name.');
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'listClients',
        summary: 'List the clients by name, each with its number of projects (an extension)',
        tags: ['Clients'],
        responses: { 200: ok('A page of clients.', strictClientListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', clientListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.clients.listClients({
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(clientJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .post(
      '/',
      describeRoute({
        operationId: 'addClient',
        summary: 'Add a client (an extension)',
        description:
          'Its name is unique whatever its case: one another client has is refused (422 on `name`).',
        tags: ['Clients'],
        requestBody: nameBody,
        responses: {
          201: ok('The client, with no project yet.', strictClientEnvelope(201)),
          ...errors(...KEYED_ERRORS, 413, 422),
        },
      }),
      formBody(clientBodySchema),
      async (c) => {
        const client = await storage.clients.addClient(c.req.valid('form').name, now());
        if (client === 'taken') return validationResponse(c, NAME_TAKEN);
        return c.json({ data: clientJson(client), status: 201 as const }, 201);
      },
    )
    .patch(
      '/:id',
      describeRoute({
        operationId: 'updateClient',
        summary: 'Rename a client (an extension)',
        description:
          'The same rules as adding one: a name another client has, whatever its case, is refused.',
        tags: ['Clients'],
        requestBody: nameBody,
        responses: {
          200: ok('The client as it is now.', strictClientEnvelope(200)),
          ...errors(...KEYED_ERRORS, 404, 413, 422),
        },
      }),
      clientId,
      formBody(clientBodySchema),
      async (c) => {
        const client = await storage.clients.renameClient(c.req.valid('param').id, c.req.valid('form').name);
        if (client === null) return errorResponse(c, 404);
        if (client === 'taken') return validationResponse(c, NAME_TAKEN);
        return c.json({ data: clientJson(client), status: 200 as const }, 200);
      },
    )
    .delete(
      '/:id',
      describeRoute({
        operationId: 'deleteClient',
        summary: 'Delete a client: its projects stay, without a client (an extension)',
        tags: ['Clients'],
        responses: {
          200: ok('The client is gone.', strictClientDeletedSchema),
          ...errors(...KEYED_ERRORS, 404),
        },
      }),
      clientId,
      async (c) => {
        const { id } = c.req.valid('param');
        if (!(await storage.clients.deleteClient(id))) return errorResponse(c, 404);
        return c.json({ id, object: 'client' as const, deleted: true as const, status: 200 as const }, 200);
      },
    );
}

/** Under /projects: `/{project}/client`. */
export function projectClientRouter(deps: Required<AppDeps>) {
  const { storage } = deps;
  return new Hono().put(
    '/:project/client',
    describeRoute({
      operationId: 'setProjectClient',
      summary: 'Say which client a project is for, or that it is for none (an extension)',
      description:
        'An unknown client is refused (422 on `client_id`). The client goes with the project when it is deleted.',
      tags: ['Clients'],
      requestBody: formRequestBody(projectClientBodySchema, 'The client’s id; empty for none.'),
      responses: {
        200: ok('The project as it is now.', strictLabelledProjectEnvelope),
        ...errors(...KEYED_ERRORS, 404, 413, 422),
      },
    }),
    validator('param', projectParamSchema, notFoundUnlessValid),
    formBody(projectClientBodySchema),
    async (c) => {
      const project = await storage.clients.setClient(
        c.req.valid('param').project,
        c.req.valid('form').client_id,
      );
      if (project === null) return errorResponse(c, 404);
      if (project === 'unknown client')
        return validationResponse(c, { client_id: [CLIENT_MESSAGES.clientId] });
      return c.json(await projectResponse(storage, project), 200);
    },
  );
}
