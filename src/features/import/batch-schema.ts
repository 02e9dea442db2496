// Add many's batch form: the privacy (and password) every report of the batch gets, and whether the
// Already reported URLs are refreshed; the rule is the create form's (passwordProblem).
import * as z from 'zod/mini';
import type { Privacy } from '@/contract/values';
import type { ImportBatch, ImportTask } from '@/workflows/use-import-run';
import { passwordProblem } from '@/lib/report-url';
import type { PreviewRow } from './classify';

export const batchSchema = z
  .object({
    privacy: z.enum(['0', '1', '2']),
    password: z.string(),
    refresh: z.boolean(),
  })
  .check((ctx) => {
    const { privacy, password } = ctx.value;
    const wrong = privacy === '2' ? passwordProblem(password) : null;
    if (wrong) ctx.issues.push({ code: 'custom', message: wrong, input: password, path: ['password'] });
  });

export type BatchFormInput = z.input<typeof batchSchema>;
export type BatchFormValues = z.output<typeof batchSchema>;

export const BATCH_DEFAULTS: BatchFormInput = { privacy: '0', password: '', refresh: false };

/** The batch's privacy, and its password only with privacy Password. */
export function toBatch(values: BatchFormValues): Omit<ImportBatch, 'urlFilter'> {
  const privacy = Number(values.privacy) as Privacy;
  return { privacy, password: privacy === 2 ? values.password : undefined };
}

/** What the run does: create the New URLs, then refresh the Already reported ones if asked. */
export function batchTasks(rows: readonly PreviewRow[], refresh: boolean): ImportTask[] {
  const creates = rows
    .filter((row) => row.status === 'new')
    .map((row): ImportTask => ({ url: row.url!, action: 'create', reportId: null }));
  const refreshes = rows
    .filter((row) => refresh && row.status === 'already')
    .map((row): ImportTask => ({ url: row.url!, action: 'refresh', reportId: row.report!.id }));
  return [...creates, ...refreshes];
}
