// The edit form's schema (zod/mini, like every form here) and what a submission sends: only what
// differs from the report as the service last answered.
import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH, passwordLength } from '@/contract/values';
import type { Privacy } from '@/contract/values';
import type { UpdateReportInput } from '@/api/reports';
import type { Report } from '@/contract/domain';

export const PRIVACY_OPTIONS = ['0', '1', '2'] as const;

export interface EditReportValues {
  privacy: (typeof PRIVACY_OPTIONS)[number];
  password: string;
  refresh: boolean;
}

/** The part of a report the form edits. */
export type EditBaseline = Pick<Report, 'privacy' | 'hasPassword'>;

/**
 * Whether the service already stores a password the report keeps when the field is left empty. A
 * deployment that does not say (`hasPassword` null) has one whenever the report is at privacy 2.
 */
export function keepsStoredPassword(report: EditBaseline): boolean {
  return report.privacy === 2 && report.hasPassword !== false;
}

export function editDefaults(report: EditBaseline): EditReportValues {
  return { privacy: String(report.privacy) as EditReportValues['privacy'], password: '', refresh: false };
}

export const PASSWORD_REQUIRED = 'Enter a password: people will need it to open this report.';
export const PASSWORD_TOO_LONG = `The password can be at most ${PASSWORD_MAX_LENGTH} characters long.`;

export function editReportSchema(report: EditBaseline) {
  return z
    .object({
      privacy: z.enum(PRIVACY_OPTIONS),
      password: z.string(),
      refresh: z.boolean(),
    })
    .check((ctx) => {
      // The password only counts for Password privacy; a hidden field holds nothing to check.
      if (ctx.value.privacy !== '2') return;
      const { password } = ctx.value;
      if (password === '' && !keepsStoredPassword(report)) {
        ctx.issues.push({ code: 'custom', message: PASSWORD_REQUIRED, input: password, path: ['password'] });
      } else if (passwordLength(password) > PASSWORD_MAX_LENGTH) {
        ctx.issues.push({ code: 'custom', message: PASSWORD_TOO_LONG, input: password, path: ['password'] });
      }
    });
}

export type EditChanges = Omit<UpdateReportInput, 'id'>;

/** The fields to send: a new privacy, a new password (Password privacy only), a refresh request. */
export function editChanges(report: EditBaseline, values: EditReportValues): EditChanges {
  const changes: EditChanges = {};
  const privacy = Number(values.privacy) as Privacy;
  if (privacy !== report.privacy) changes.privacy = privacy;
  if (privacy === 2 && values.password !== '') changes.password = values.password;
  if (values.refresh) changes.refreshResults = true;
  return changes;
}

export function hasEditChanges(changes: EditChanges): boolean {
  return Object.keys(changes).length > 0;
}
