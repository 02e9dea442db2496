// Add many's batch form: the privacy (and password) every report of the batch gets, and whether the
// Already reported URLs are refreshed; the rule is the create form's (passwordProblem).
import * as z from 'zod/mini';
import type { Privacy } from '@/contract/values';
import type { ImportBatch, ImportTask } from '@/workflows/use-import-run';
import { passwordProblem } from '@/lib/report-url';
import type { NearChoice, PreviewRow } from './classify';

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

/**
 * What the run does: create the New URLs and the Probably the same ones added anyway, then refresh
 * the Already reported ones if asked and the reports chosen to be refreshed (each report once).
 */
export function batchTasks(
  rows: readonly PreviewRow[],
  refresh: boolean,
  choices: ReadonlyMap<number, NearChoice> = new Map(),
): ImportTask[] {
  const creates: ImportTask[] = [];
  const refreshes = new Map<number, ImportTask>();
  for (const row of rows) {
    const choice = choices.get(row.line) ?? 'skip';
    if (row.status === 'new' || (row.status === 'near' && choice === 'add'))
      creates.push({ url: row.url!, action: 'create', reportId: null });
    const report =
      row.status === 'already' && refresh
        ? row.report
        : row.status === 'near' && choice === 'refresh'
          ? row.near?.report
          : null;
    if (report && !refreshes.has(report.id))
      refreshes.set(report.id, {
        url: row.status === 'already' ? row.url! : report.url,
        action: 'refresh',
        reportId: report.id,
      });
  }
  return [...creates, ...refreshes.values()];
}
