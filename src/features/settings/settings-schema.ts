// zod/mini, the tree-shakable build of zod 4 (about 6 KB gzip instead of 25): this form is on the first
// page a newcomer opens, and the full zod comes along with the API layer only when it is needed.
import * as z from 'zod/mini';
import { baseUrlProblem, normaliseBaseUrl } from '@/api/http/connection';
import { reportPageTemplateProblem } from '@/lib/report-link';

// What an Authorization header can carry: visible ASCII, no spaces.
const KEY_PATTERN = /^[\x21-\x7e]*$/;

export const settingsSchema = z.object({
  // '' is this site's own origin; a trailing /api/v1 or slash is dropped before checking.
  baseUrl: z
    .pipe(
      z.string(),
      z.transform((value: string) => normaliseBaseUrl(value)),
    )
    .check((ctx) => {
      const problem = baseUrlProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    }),
  apiKey: z
    .string()
    .check(
      z.trim(),
      z.regex(KEY_PATTERN, { error: 'An API key has no spaces and only plain letters, digits and symbols.' }),
    ),
  remember: z.boolean(),
  // Where visitors open a report ({id} for its number); '' leaves it to the service.
  reportPageTemplate: z
    .pipe(
      z.string(),
      z.transform((value: string) => value.trim()),
    )
    .check((ctx) => {
      const problem = reportPageTemplateProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    }),
});

export type SettingsInput = z.input<typeof settingsSchema>;
export type SettingsValues = z.output<typeof settingsSchema>;
