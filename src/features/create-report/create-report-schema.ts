import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH, URL_MAX_LENGTH, passwordLength } from '@/contract/values';
import type { Privacy } from '@/contract/values';
import { openPageHref } from '@/lib/urls';

export const PRIVACY_CHOICES = ['0', '1', '2'] as const;

/** Why `url` cannot be sent as a report's URL, or null when it can. */
export function urlProblem(url: string): string | null {
  if (url === '') return 'Enter the address of the page to analyse.';
  if (url.length > URL_MAX_LENGTH) return `A URL can have at most ${URL_MAX_LENGTH} characters.`;
  if (!/^https?:\/\//i.test(url)) {
    if (httpsSuggestion(url) !== null) return 'Start the URL with https:// or http://.';
    return /^[a-z][a-z\d+.-]*:/i.test(url)
      ? 'Only http:// and https:// pages can be analysed.'
      : 'This is not a valid URL.';
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'This is not a valid URL.';
  }
  if (parsed.hostname === '') return 'The URL needs a host name, e.g. https://example.com/.';
  return null;
}

/** For an address typed without a scheme (`example.com/pricing`), the https URL it most likely means. */
export function httpsSuggestion(input: string): string | null {
  const text = input.trim();
  if (text === '' || /^[a-z][a-z\d+.-]*:\/\//i.test(text)) return null;
  // `example.com:8080/x` parses as scheme "example.com"; only real schemes rule a suggestion out.
  if (/^(?:https?|ftp|file|mailto|javascript|data):/i.test(text)) return null;
  return openPageHref(text);
}

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
    if (privacy !== '2') return;
    if (password === '')
      ctx.issues.push({
        code: 'custom',
        message: 'Enter the password that will protect the report.',
        input: password,
        path: ['password'],
      });
    else if (passwordLength(password) > PASSWORD_MAX_LENGTH)
      ctx.issues.push({
        code: 'custom',
        message: `A password can have at most ${PASSWORD_MAX_LENGTH} characters.`,
        input: password,
        path: ['password'],
      });
  });

export type CreateReportFormInput = z.input<typeof createReportSchema>;
export type CreateReportFormValues = z.output<typeof createReportSchema>;

/** What the API is sent: the password only with privacy Password. */
export function toCreateInput(values: CreateReportFormValues) {
  const privacy = Number(values.privacy) as Privacy;
  return { url: values.url, privacy, password: privacy === 2 ? values.password : undefined };
}
