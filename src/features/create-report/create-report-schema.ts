import * as z from 'zod/mini';
import type { Privacy } from '@/contract/values';
import { passwordProblem, urlProblem } from '@/lib/report-url';

export { httpsSuggestion, urlProblem } from '@/lib/report-url';

export const PRIVACY_CHOICES = ['0', '1', '2'] as const;

export const createReportSchema = z
  .object({
    url: z.string().check(z.trim()),
    privacy: z.enum(PRIVACY_CHOICES),
    password: z.string(),
  })
  .check((ctx) => {
    const { url, privacy, password } = ctx.value;
    const problem = urlProblem(url);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: url, path: ['url'] });
    const wrong = privacy === '2' ? passwordProblem(password) : null;
    if (wrong) ctx.issues.push({ code: 'custom', message: wrong, input: password, path: ['password'] });
  });

export type CreateReportFormInput = z.input<typeof createReportSchema>;
export type CreateReportFormValues = z.output<typeof createReportSchema>;

/** What the API is sent: the password only with privacy Password. */
export function toCreateInput(values: CreateReportFormValues) {
  const privacy = Number(values.privacy) as Privacy;
  return { url: values.url, privacy, password: privacy === 2 ? values.password : undefined };
}
