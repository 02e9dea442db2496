// A control character in any path or query parameter of any operation the OpenAPI document lists,
// and in a body's project, on both engines: 404 or 422, never a 500 (issue 44: a NUL in a project
// name answered 500 on PostgreSQL's routes of schedules, runs and alerts).
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { createTestApp } from '../../../test/server/test-app';
import { API_PREFIX } from '../../../src/contract/values';
import { OPENAPI_PATH } from './openapi';

/** A valid value of the query parameters that take only some words ('x' does for the others). */
const VALID_SAMPLES: Record<string, string> = {
  failing: 'title',
  days: '30',
  client: '1',
  outcome: 'worse',
  ids: '1',
  target: 'report:1',
  member: '1',
  action: 'report.update',
  since: '2026-11-20',
  until: '2026-11-20T10:00:00Z',
};

interface Operation {
  parameters?: { name: string; in: string }[];
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

// The body each operation needs to be valid, so that only the field under test is wrong.
const VALID_BODIES: Record<string, Record<string, string>> = {
  [`${API_PREFIX}/webhooks`]: { url: 'http://127.0.0.1:9/in' },
};

describe.each(STORAGE_ENGINES.filter((engine) => engine.available))(
  'control characters on $name',
  (engine) => {
    const database = freshDatabases(engine, afterEach);

    it('answer 404 in any path parameter, 422 on the parameter in any query, 422 on a body’s project, for every operation', async () => {
      const t = createTestApp({
        storage: await (await database()).open(),
        config: { allowPrivateUrls: true },
      });
      // Report 1, webhook 1 and run 1 exist, so that a request without the control character finds them.
      expect(
        (await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/good' } })).status,
      ).toBe(201);
      expect(
        (await t.call('POST', '/api/v1/webhooks', { form: { url: 'http://127.0.0.1:9/in' } })).status,
      ).toBe(201);
      expect((await t.call('POST', '/api/v1/projects/shop.example/schedule/run')).status).toBe(202);
      const document = (await (await t.call('GET', `${API_PREFIX}${OPENAPI_PATH}`)).json()) as {
        paths: Record<string, Record<string, Operation>>;
      };

      const seen = { path: 0, query: 0, body: 0 };
      for (const [template, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const fill = (nul: string | null) =>
            template.replace(/\{(\w+)\}/g, (_, name: string) => {
              const value = name === 'project' ? 'shop.example' : '1';
              return name === nul ? `${value}%00` : value;
            });
          const where = `${method.toUpperCase()} ${template}`;
          for (const parameter of operation.parameters ?? []) {
            if (parameter.in === 'path') {
              // Same-origin, as the public page's password form must be (else 403 comes first).
              const answer = await t.call(method.toUpperCase(), fill(parameter.name), {
                headers: { Origin: 'http://localhost' },
              });
              expect(answer.status, `${where}, path ${parameter.name}`).toBe(404);
              seen.path += 1;
            } else if (parameter.in === 'query') {
            expect(operation.responses['422'], `${where} documents its 422`).toBeDefined();
              // Without the control character the same request is no 422 or 404: the route is there and takes it.
              const sample = VALID_SAMPLES[parameter.name] ?? 'x';
              const plain = await t.call(method.toUpperCase(), `${fill(null)}?${parameter.name}=${sample}`);
              expect([404, 422], `${where}, query ${parameter.name}=${sample}`).not.toContain(plain.status);
              for (const value of ['x%00', 'a%09b', '%7F']) {
                const answer = await t.call(method.toUpperCase(), `${fill(null)}?${parameter.name}=${value}`);
                expect(answer.status, `${where}, query ${parameter.name}=${value}`).toBe(422);
                const message = ((await answer.json()) as { message: Record<string, string[]> }).message;
                expect(message[parameter.name]).toEqual([
                  `The ${parameter.name.replaceAll('_', ' ')} must not contain control characters.`,
                ]);
              }
              seen.query += 1;
            }
          }
          const fields = Object.values(operation.requestBody?.content ?? {})[0]?.schema?.properties ?? {};
          if ('project' in fields) {
            const json = { ...VALID_BODIES[template], project: 'shop.example\u0000' };
            const answer = await t.call(method.toUpperCase(), fill(null), { json });
            expect(answer.status, `${where}, body project`).toBe(422);
            expect(((await answer.json()) as { message: Record<string, string[]> }).message.project).toEqual([
              'The project must not contain control characters.',
            ]);
            seen.body += 1;
          }
        }
      }
      // The document really has such parameters: schedules and runs by project, reports and alerts by id, lists' queries.
      expect(seen.path).toBeGreaterThanOrEqual(10);
      expect(seen.query).toBeGreaterThanOrEqual(15);
      expect(seen.body).toBe(2);
      // And the filters still work without one.
      expect((await t.call('GET', '/api/v1/alerts?project=shop.example')).status).toBe(200);
      expect((await t.call('GET', '/api/v1/projects/shop.example/schedule')).status).toBe(200);
    });
  },
);
