import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  alertReadBodySchema,
  alertsReadBodySchema,
  discoverBodySchema,
  scheduleBodySchema,
  storeReportBodySchema,
  updateReportBodySchema,
  webhookBodySchema,
} from './request-schemas';

// Each body with what makes it valid, and the fields to spoil one at a time.
const BODIES: [string, z.ZodType, Record<string, unknown>, string[]][] = [
  ['POST /reports', storeReportBodySchema, { url: 'https://a.example/' }, ['url', 'privacy', 'password']],
  [
    'PATCH /reports/{id}',
    updateReportBodySchema({ privacy: 2, hasPassword: false }),
    { password: 'secret' },
    ['privacy', 'password', 'results'],
  ],
  ['POST /discover', discoverBodySchema, { url: 'https://a.example/sitemap.xml' }, ['url']],
  [
    'PUT /projects/{project}/schedule',
    scheduleBodySchema,
    { every: 'weekly', weekday: '1' },
    ['every', 'hour', 'weekday', 'drop'],
  ],
  ['PATCH /alerts/{id}', alertReadBodySchema, { read: '1' }, ['read']],
  ['POST /alerts/read', alertsReadBodySchema, {}, ['project', 'client']],
  ['POST /webhooks', webhookBodySchema, { url: 'https://hooks.example/in' }, ['url', 'project']],
];

// What strangers send: wrong types, numbers that are not whole or in range, text with controls, too long.
const SPOILERS: unknown[] = [
  'abc',
  '1234',
  '-1',
  '1.5',
  '1e2',
  ' 7',
  'x1',
  '0x10',
  7.5,
  -3,
  1e9,
  true,
  null,
  [1],
  {},
  'x\u0000y',
  '\u0007',
  'a'.repeat(5000),
];

describe('every validation message', () => {
  it.each(BODIES)(
    'of %s is a sentence about the field, whatever a field is spoiled with',
    (_, schema, valid, fields) => {
      expect(schema.safeParse(valid).success).toBe(true);
      let refused = 0;
      for (const field of fields) {
        for (const value of SPOILERS) {
          const result = schema.safeParse({ ...valid, [field]: value });
          if (result.success) continue;
          refused += 1;
          for (const issue of result.error.issues) {
            // "The hour must be …", "The selected every is invalid.": never zod's own words ("Invalid string: must match pattern …").
            expect(issue.message, `${field} = ${JSON.stringify(value)?.slice(0, 40)}`).toMatch(
              /^The [\w ]+\b.*\.$/,
            );
            expect(issue.message).not.toMatch(/Invalid input|pattern|expected|received/i);
          }
        }
      }
      expect(refused).toBeGreaterThan(fields.length);
    },
  );
});
