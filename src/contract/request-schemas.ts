// What the API takes: every route's query, path and body fields, as the reference server validates
// them and as its OpenAPI document describes them (it is generated from these). The messages are
// Laravel's wording, which is what clients of the real service already show.
import * as z from 'zod';
import { parseShareTarget, SHARE_EXPIRES_MAX_DAYS, SHARE_LABEL_MAX } from './share-target';
import { ACCENT_PATTERN, BRANDING_MESSAGES, BRANDING_NAME_MAX } from './branding';
import {
  CHECK_NOTE_MAX,
  CHECK_SETTING_STATES,
  CLIENT_NAME_MAX,
  DEFAULT_PER_PAGE,
  IMPORTANCE,
  PASSWORD_MAX_LENGTH,
  passwordLength,
  PER_PAGE_VALUES,
  PRIVACY_VALUES,
  PROBLEM_SORT_KEYS,
  PROBLEM_STATES,
  PROJECT_LABEL_MAX,
  DEPLOY_LABEL_MAX,
  RUN_PAGE_OUTCOMES,
  MAX_NEW_PAGES,
  DEFAULT_MAX_NEW,
  PROJECT_SEARCH_BY,
  HEALTH_DAYS_DEFAULT,
  HEALTH_DAYS_MAX,
  SERVER_PROJECT_SORT_KEYS,
  REPORT_SEARCH_BY,
  RESULTS,
  SERVER_REPORT_SORT_KEYS,
  SORT_ORDERS,
  URL_FILTER_MAX,
  URL_MAX_LENGTH,
  type PerPage,
  type Privacy,
} from './values';
import { ID_LIST_MAX_TERMS } from './id-list';
import { DIGEST_RECIPIENTS_MAX, parseRecipients, RECIPIENT_MESSAGES } from './recipients';
import { ACCOUNT_MESSAGES, KEY_LABEL_MAX, MEMBER_NAME_MAX, parseAuditTarget, parseAuditTime, ROLES } from './accounts';

export const REQUEST_MESSAGES = {
  urlRequired: 'The url field is required.',
  urlString: 'The url must be a string.',
  urlMax: `The url must not be greater than ${URL_MAX_LENGTH} characters.`,
  urlFormat: 'The url format is invalid.',
  urlFilterMax: `The url filter may not have more than ${URL_FILTER_MAX} values.`,
  failingUnknown: 'The failing check must be a check the service runs, such as meta_description.',
  client: 'The client must be a client’s id, a whole number from 1 up.',
  ids: `The ids must be report ids or ranges of them (12-40), comma-separated, at most ${ID_LIST_MAX_TERMS}.`,
  privacy: 'The selected privacy is invalid.',
  passwordRequired: 'The password field is required when privacy is 2.',
  passwordString: 'The password must be a string.',
  passwordMax: `The password must not be greater than ${PASSWORD_MAX_LENGTH} characters.`,
  results: 'The selected results is invalid.',
  bodyJson: 'The request body is not valid JSON.',
  bodyObject: 'The request body must be a JSON object.',
  bodyMultipart: 'The request body is not valid multipart/form-data.',
  bodyType: 'The request body must be form-urlencoded or JSON.',
} as const;

// ---- Lists: the service ignores an invalid list parameter and uses its default, so every field
// falls back with .catch() instead of failing: a list request answers 422 only for a control character
// in its query, which the server refuses before any route (server/src/http/control-characters.ts).

const text = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value))
  .catch(undefined);

const perPage = z
  .enum(PER_PAGE_VALUES.map(String) as [string, ...string[]])
  .default(String(DEFAULT_PER_PAGE))
  .transform((value) => Number(value) as PerPage)
  .catch(DEFAULT_PER_PAGE)
  .meta({ description: 'Items per page.' });

const page = z
  .string()
  .regex(/^\d+$/)
  .default('1')
  .transform(Number)
  .pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
  .catch(1)
  .meta({ description: '1-based; an invalid value is 1, a page past the end is empty.' });

const sort = z.enum(SORT_ORDERS).default('desc').catch('desc');

/** A client's id as text: what `client` takes (its largest a safe integer). */
const CLIENT_ID = /^[1-9]\d{0,15}$/;
const isClientId = (value: string) => CLIENT_ID.test(value) && Number(value) <= Number.MAX_SAFE_INTEGER;

/**
 * `client=<id>` (an extension, wave 4): the `what` of the client's projects. Unlike the seed's list
 * parameters it is refused, not ignored, when it cannot be an id (422 on `client`): the whole list
 * instead of a client's part of it would look like the client's. Empty: no filter, as `project=`.
 */
const clientFilter = (what: string) =>
  z
    .string({ error: REQUEST_MESSAGES.client })
    .refine((value) => value === '' || isClientId(value), { error: REQUEST_MESSAGES.client })
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : Number(value)))
    .meta({
      type: 'string',
      pattern: `^(?:${CLIENT_ID.source.slice(1, -1)})?$`,
      description: `An extension: only the ${what} of the projects of this client, by its id (an unknown id: none). Anything but a whole number from 1 up is a 422 on \`client\`; empty: no filter.`,
    });

export const reportListQuerySchema = z.object({
  search: text.meta({
    description: 'Case-insensitive substring of the search_by field; % and _ are literal.',
  }),
  search_by: z.enum(REPORT_SEARCH_BY).default('url').catch('url'),
  project: text.meta({ description: 'Only the reports of this project.' }),
  client: clientFilter('reports'),
  result: z.enum(RESULTS).optional().catch(undefined),
  url: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => {
      const urls = (typeof value === 'string' ? [value] : (value ?? [])).filter((url) => url !== '');
      return urls.length > 0 ? urls : undefined;
    })
    .catch(undefined)
    .meta({
      description: `An extension: only the reports of this absolute http(s) URL, compared after normalising both (scheme and host lower-cased, default port and fragment dropped, an empty path as \`/\`). Repeated (up to ${URL_FILTER_MAX} times; more is a 422 on \`url\`), the reports of any of them. A value that is not such a URL matches no report; an empty one is no filter.`,
    }),
  failing: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .catch(undefined)
    .meta({
      description:
        'An extension: only the reports whose newest results fail this check key (an unknown key: 422). Empty: no filter.',
    }),
  // Refused (422 on `ids`) rather than ignored when it is no id list, as `client`: every report in
  // place of the few asked for would look like them. Checked by the route (parseIdList).
  ids: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .catch(undefined)
    .meta({
      description: `An extension (ids_filter): only the reports of these ids, written as ids and ranges of them, comma-separated (\`12-40,45\`), at most ${ID_LIST_MAX_TERMS} terms; anything else is a 422 on \`ids\`. Empty: no filter.`,
    }),
  gone: z
    .enum(['0', '1'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === '1'))
    .catch(undefined)
    .meta({
      description:
        'An extension (sitemap_follow): 1, only the reports whose page is gone (left the followed sitemap, or answered 404 or 410); 0, only the others. Anything else: no filter.',
    }),
  sort_by: z
    .enum(SERVER_REPORT_SORT_KEYS)
    .default('id')
    .catch('id')
    .meta({
      description:
        '`score` (an extension): highest first when descending; ties by id. An invalid value is `id`.',
    }),
  sort,
  per_page: perPage,
  page,
});

export const projectListQuerySchema = z.object({
  search: text.meta({ description: 'Case-insensitive substring of the project name; % and _ are literal.' }),
  search_by: z.enum(PROJECT_SEARCH_BY).default('project').catch('project'),
  client: clientFilter('projects').meta({
    type: 'string',
    pattern: CLIENT_ID.source,
    description:
      'An extension: only the projects of this client, by its id (an unknown id: none). Anything but a whole number from 1 up is a 422 on `client`; empty: no filter.',
  }),
  sort_by: z
    .enum(SERVER_PROJECT_SORT_KEYS)
    .default('created_at')
    .catch('created_at')
    .meta({
      description:
        'Extensions (wave 4): `health` (the share of bad reports), `average_score`, `alerts` (unread) and `reports`. Ties by project name. An invalid value is `created_at`.',
    }),
  sort,
  with: z
    .enum(['health'])
    .optional()
    .catch(undefined)
    .meta({
      description:
        'An extension: `health` adds each project’s report counts per result, average score, unread alerts, schedule times and `trend` (its last 30 days).',
    }),
  per_page: perPage,
  page,
});

export const HEALTH_MESSAGES = {
  days: `The days must be a whole number between 1 and ${HEALTH_DAYS_MAX}.`,
} as const;

/** `GET /projects/{project}/health`: how many days, refused (422 on `days`) rather than ignored when invalid. */
export const projectHealthQuerySchema = z.object({
  days: z
    .string({ error: HEALTH_MESSAGES.days })
    .optional()
    .transform((value) => (value === undefined || value === '' ? String(HEALTH_DAYS_DEFAULT) : value))
    .pipe(
      z
        .string()
        .regex(/^\d{1,3}$/, { error: HEALTH_MESSAGES.days })
        .transform(Number)
        .pipe(
          z
            .number()
            .int()
            .min(1, { error: HEALTH_MESSAGES.days })
            .max(HEALTH_DAYS_MAX, { error: HEALTH_MESSAGES.days }),
        ),
    )
    .meta({
      type: 'string',
      pattern: '^\\d{1,3}$',
      description: `Days of points, today (UTC) the last: 1 to ${HEALTH_DAYS_MAX}, ${HEALTH_DAYS_DEFAULT} when absent or empty; anything else is a 422 on \`days\`.`,
    }),
});

/** A report's runs: only the page is chosen. */
export const runListQuerySchema = z.object({ per_page: perPage, page });

// ---- Paths: an id that cannot be a report's is answered 404, as an unknown one is.

/** `{id}` of a path: a positive whole number, else the route answers 404. */
const idParam = (description: string) =>
  z.object({
    id: z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number)
      .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER))
      .meta({ description }),
  });

export const reportIdParamSchema = idParam('The report’s id.');

export const projectParamSchema = z.object({
  project: z.string().min(1).meta({ description: 'The project’s name (percent-encoded in the path).' }),
});

// ---- Bodies (form-urlencoded, or the same fields as JSON). A field that is absent, null or empty
// is not given, as for an empty form field; the server drops those before these schemas see them.

const passwordSchema = z
  .string({ error: REQUEST_MESSAGES.passwordString })
  .refine((password) => passwordLength(password) <= PASSWORD_MAX_LENGTH, {
    error: REQUEST_MESSAGES.passwordMax,
  });

// Checked only where it counts (the privacy that results is 2), so it is declared loosely and
// described as what a client sends.
const passwordField = z.unknown().optional().meta({
  type: 'string',
  maxLength: PASSWORD_MAX_LENGTH,
  description:
    'Required when the privacy that results is 2 (unless one is stored already); ignored otherwise. Write-only.',
});

// A form field is text; in JSON the same values may come as numbers.
const privacyField = z
  .union([z.enum(PRIVACY_VALUES.map(String) as [string, ...string[]]), z.literal(PRIVACY_VALUES)], {
    error: REQUEST_MESSAGES.privacy,
  })
  .transform((value) => Number(value) as Privacy)
  .meta({ description: '0 public, 1 private, 2 password.' });

const resultsField = z
  .union([z.enum(['0', '1', 'true', 'false']), z.literal([0, 1]), z.boolean()], {
    error: REQUEST_MESSAGES.results,
  })
  .transform((value) => value === 1 || value === '1' || value === true || value === 'true')
  .meta({
    description: '1: fetch and analyse the page again, updating score, result, results and generated_at.',
  });

function isHttpUrl(url: string): boolean {
  // The URL parser would quietly drop tabs and newlines and encode the rest; stored as given, they
  // would be a different address from the one fetched.
  if (/[\p{Cc}\p{Cf}\p{Z}\s]/u.test(url)) return false;
  // The scheme must be typed out in full: the URL parser would also accept `http:example.com`.
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

const urlField = z
  .string({
    error: (issue) => (issue.input === undefined ? REQUEST_MESSAGES.urlRequired : REQUEST_MESSAGES.urlString),
  })
  // In characters (code points): counted only when the UTF-16 length is over, since a discover
  // checks up to 50,000 URLs and spreading each into an array was most of its garbage.
  .refine((url) => url.length <= URL_MAX_LENGTH || [...url].length <= URL_MAX_LENGTH, {
    error: REQUEST_MESSAGES.urlMax,
  })
  .refine(isHttpUrl, { error: REQUEST_MESSAGES.urlFormat })
  .meta({ format: 'uri', maxLength: URL_MAX_LENGTH, description: 'The page’s absolute http or https URL.' });

/** Whether `url` is one that `POST /reports` takes (an absolute http(s) URL within the length). */
export function isReportableUrl(url: string): boolean {
  return urlField.safeParse(url).success;
}

/** `POST /discover` (an extension): where to look for a site's pages. */
export const discoverBodySchema = z.object(
  {
    url: urlField.meta({
      format: 'uri',
      maxLength: URL_MAX_LENGTH,
      description:
        'A sitemap, a sitemap index, a robots.txt, or a site’s root (`https://example.com/`: its robots.txt `Sitemap:` lines are read, else `/sitemap.xml`).',
    }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** What a report has stored that decides whether a password is needed. */
export interface StoredPrivacy {
  privacy: Privacy;
  hasPassword: boolean;
}

/**
 * The password rule: where the privacy that results is 2, a password must be given now (a string
 * within the length) or be stored already; anywhere else it is ignored.
 */
function passwordWhenPrivacy2(stored: StoredPrivacy | null) {
  return (body: { privacy?: unknown; password?: unknown }, ctx: z.core.$RefinementCtx) => {
    const privacy = body.privacy === undefined ? undefined : privacyField.safeParse(body.privacy);
    if (privacy && !privacy.success) return;
    if ((privacy?.data ?? stored?.privacy ?? 0) !== 2) return;
    if (body.password === undefined) {
      if (!stored?.hasPassword)
        ctx.addIssue({ code: 'custom', path: ['password'], message: REQUEST_MESSAGES.passwordRequired });
      return;
    }
    const password = passwordSchema.safeParse(body.password);
    for (const issue of password.error?.issues ?? []) ctx.addIssue({ ...issue, path: ['password'] });
  };
}

// The rule runs even when another field failed, so that every field's message comes at once.
const always = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

const storeReportFields = z.object(
  { url: urlField, privacy: privacyField.default(0), password: passwordField },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** `POST /reports`. */
export const storeReportBodySchema = storeReportFields
  .superRefine(passwordWhenPrivacy2(null), always)
  .transform(({ url, privacy, password }) => ({
    url,
    privacy,
    password: privacy === 2 ? (password as string) : null,
  }));

/** The fields of `PUT`/`PATCH /reports/{id}`, as documented; what is needed depends on the report (updateReportBodySchema). */
export const updateReportFields = z.object(
  { privacy: privacyField.optional(), password: passwordField, results: resultsField.optional() },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** `PUT`/`PATCH /reports/{id}` of a report that has `stored`: privacy 2 needs a password given now or stored. */
export function updateReportBodySchema(stored: StoredPrivacy) {
  return updateReportFields
    .superRefine(passwordWhenPrivacy2(stored), always)
    .transform(({ privacy, password, results }) => {
      const effective = privacy ?? stored.privacy;
      return {
        privacy,
        /** A new password to store (only when the resulting privacy is 2). */
        password: effective === 2 ? (password as string | undefined) : undefined,
        /** Whether to discard the stored password (the resulting privacy is not 2). */
        discardPassword: effective !== 2 && stored.hasPassword,
        reanalyse: results ?? false,
      };
    });
}

/** The public report page's password form (`POST /r/{id}`): anything else than a string is no password. */
export const publicPagePasswordBodySchema = z.object({
  password: z.string().default('').catch('').meta({ description: 'The report page’s password.' }),
});

export type DiscoverBody = z.output<typeof discoverBodySchema>;
export type StoreReportBody = z.output<typeof storeReportBodySchema>;
export type UpdateReportBody = z.output<ReturnType<typeof updateReportBodySchema>>;

// ---- Watching (extensions).

export const WATCH_MESSAGES = {
  every: 'The selected every is invalid.',
  everyRequired: 'The every field is required.',
  hour: 'The hour must be a whole number between 0 and 23.',
  weekday: 'The weekday must be a whole number between 0 (Sunday) and 6.',
  weekdayRequired: 'The weekday field is required when every is weekly.',
  drop: 'The drop must be a whole number between 1 and 100.',
  read: 'The selected read is invalid.',
  sitemap: 'The sitemap must be an absolute http or https address.',
  maxNew: `The max new must be a whole number between 0 and ${MAX_NEW_PAGES}.`,
} as const;

/** A whole number from a form field (text) or JSON (a number) within min-max. */
function wholeNumber(min: number, max: number, message: string) {
  return (
    z
      // The regex's own message too: a string that fails it is the union's closest match, whose message zod would give.
      .union([z.string().regex(/^\d{1,4}$/, { error: message }), z.number()], { error: message })
      .transform(Number)
      .pipe(
        z
          .number({ error: message })
          .int({ error: message })
          .min(min, { error: message })
          .max(max, { error: message }),
      )
  );
}

/** How often a schedule runs or a digest goes out: off, daily or weekly. */
const everySchema = z
  .enum(['off', 'daily', 'weekly'], {
    error: (issue) => (issue.input === undefined ? WATCH_MESSAGES.everyRequired : WATCH_MESSAGES.every),
  })
  .meta({ description: 'off, daily or weekly.' });

/** `PUT /projects/{project}/schedule`: every field at once; `weekday` only for weekly. */
export const scheduleBodySchema = z
  .object(
    {
      every: everySchema,
      hour: wholeNumber(0, 23, WATCH_MESSAGES.hour)
        .default(6)
        .meta({ type: 'integer', description: 'The hour of the run, 0-23, UTC (6 by default).' }),
      weekday: wholeNumber(0, 6, WATCH_MESSAGES.weekday)
        .optional()
        .meta({
          type: 'integer',
          description:
            'The day of a weekly run, 0 (Sunday) to 6, UTC; required for weekly, ignored otherwise.',
        }),
      drop: wholeNumber(1, 100, WATCH_MESSAGES.drop)
        .default(10)
        .meta({
          type: 'integer',
          description: 'The score drop, in points, that raises an alert (10 by default).',
        }),
      sitemap: z
        .string({ error: WATCH_MESSAGES.sitemap })
        .refine((url) => url === '' || isReportableUrl(url), { error: WATCH_MESSAGES.sitemap })
        .optional()
        .transform((url) => (url ? url : null))
        .meta({
          format: 'uri',
          maxLength: URL_MAX_LENGTH,
          description:
            'A sitemap (or index, or robots.txt, or the site’s root) each run reads first (sitemap_follow): new pages of the project get a report, pages gone from it are marked gone. Absent or empty: none.',
        }),
      max_new: wholeNumber(0, MAX_NEW_PAGES, WATCH_MESSAGES.maxNew)
        .default(DEFAULT_MAX_NEW)
        .meta({ type: 'integer', description: `How many new pages a run may add at most (${DEFAULT_MAX_NEW} by default).` }),
    },
    { error: REQUEST_MESSAGES.bodyObject },
  )
  .superRefine((body, ctx) => {
    if (body.every === 'weekly' && body.weekday === undefined) {
      ctx.addIssue({ code: 'custom', path: ['weekday'], message: WATCH_MESSAGES.weekdayRequired });
    }
  })
  .transform((body) => ({ ...body, weekday: body.every === 'weekly' ? (body.weekday ?? null) : null }));

export const alertListQuerySchema = z.object({
  project: text.meta({ description: 'Only the alerts of this project (and the unread count of it).' }),
  client: clientFilter('alerts (and the unread count of them)'),
  state: z.enum(['unread', 'all']).default('all').catch('all'),
  per_page: perPage,
  page,
});

export const alertIdParamSchema = idParam('The alert’s id.');

/** `PATCH /alerts/{id}`. */
export const alertReadBodySchema = z.object(
  {
    read: z
      .union([z.enum(['0', '1', 'true', 'false']), z.literal([0, 1]), z.boolean()], {
        error: (issue) => (issue.input === undefined ? 'The read field is required.' : WATCH_MESSAGES.read),
      })
      .transform((value) => value === 1 || value === '1' || value === true || value === 'true')
      .meta({ description: '1: read, 0: unread.' }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

// ---- Webhooks (an extension).

export const WEBHOOK_MESSAGES = {
  projectUnknown: 'The selected project is invalid.',
  projectString: 'The project must be a string.',
  projectControl: 'The project must not contain control characters.',
  tooMany: 'There are 50 webhooks already, the most there may be: delete one before adding another.',
  batch: 'The batch field must be 0 or 1.',
} as const;

/** A project's name in a body: text without control characters (no project has one). */
const projectField = z
  .string({ error: WEBHOOK_MESSAGES.projectString })
  .min(1)
  .refine((name) => !/\p{Cc}/u.test(name), { error: WEBHOOK_MESSAGES.projectControl });

/** `POST /alerts/read`: every alert, or those of `project` and of `client`'s projects. */
export const alertsReadBodySchema = z.object(
  {
    project: projectField.optional().meta({ description: 'Only the alerts of this project.' }),
    // A form field is text; in JSON the id may come as a number.
    client: z
      .union([z.string().refine(isClientId, { error: REQUEST_MESSAGES.client }), z.number()], {
        error: REQUEST_MESSAGES.client,
      })
      .transform(Number)
      .pipe(
        z
          .number({ error: REQUEST_MESSAGES.client })
          .int({ error: REQUEST_MESSAGES.client })
          .min(1, { error: REQUEST_MESSAGES.client })
          .max(Number.MAX_SAFE_INTEGER, { error: REQUEST_MESSAGES.client }),
      )
      .optional()
      .meta({
        type: 'integer',
        minimum: 1,
        description: 'An extension: only the alerts of the projects of this client, by its id (an unknown id: none).',
      }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** `POST /webhooks`: where to POST, and optionally the one project whose alerts it gets. */
export const webhookBodySchema = z.object(
  {
    url: urlField.meta({
      format: 'uri',
      maxLength: URL_MAX_LENGTH,
      description:
        'The receiver’s absolute http or https URL; the same address rules as an analysis (no loopback or private address).',
    }),
    project: projectField
      .optional()
      .meta({ description: 'Only this project’s alerts; absent: every project’s.' }),
    batch: z
      .union([z.enum(['0', '1']), z.literal([0, 1])], { error: WEBHOOK_MESSAGES.batch })
      .optional()
      .transform((value) => value === '1' || value === 1)
      .meta({
        description:
          '1: one POST per project run, `{"type": "alerts.raised", "data": {"run_id", "project", "alerts": [...]}}`, ' +
          'when the run ends (an alert of no run: one such POST of its own); absent or 0: one `alert.raised` POST per alert.',
      }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

export const webhookIdParamSchema = idParam('The webhook’s id.');

/** A webhook's deliveries: only the page is chosen. */
export const deliveryListQuerySchema = z.object({ per_page: perPage, page });

/** The webhooks, oldest first: only the page is chosen. */
export const webhookListQuerySchema = z.object({ per_page: perPage, page });

// ---- Problems (wave 4): the checks failing across pages, and a project's settings of a check.

export const problemListQuerySchema = z.object({
  project: text.meta({ description: 'Only the reports of this project.' }),
  client: clientFilter('reports'),
  search: text.meta({
    description: 'Only the reports whose URL holds this text (case-insensitive; % and _ are literal).',
  }),
  result: z
    .enum(RESULTS)
    .optional()
    .catch(undefined)
    .meta({ description: 'Only the reports of this result.' }),
  state: z
    .enum(PROBLEM_STATES)
    .default('open')
    .catch('open')
    .meta({
      description:
        '`open` (the default): what no project ignores; `ignored`: what a project ignores, on its pages; `all`: both.',
    }),
  sort_by: z
    .enum(PROBLEM_SORT_KEYS)
    .default('impact')
    .catch('impact')
    .meta({
      description:
        '`impact` (the default): importance weight x pages failing; `pages`: pages failing; `check`: the check key. Ties by check key.',
    }),
  sort,
  per_page: perPage,
  page,
});

export const CHECK_SETTING_MESSAGES = {
  state: 'The selected state is invalid.',
  importance: 'The selected importance is invalid.',
  noteString: 'The note must be a string.',
  noteMax: `The note must not be greater than ${CHECK_NOTE_MAX} characters.`,
} as const;

/** `/projects/{project}/checks/{check}`: an unknown check is answered 404, as an unknown project is. */
export const checkSettingParamSchema = z.object({
  project: z.string().min(1).meta({ description: 'The project’s name (percent-encoded in the path).' }),
  check: z.string().min(1).meta({ description: 'A check key, such as `https_encryption`.' }),
});

export const checkSettingBodySchema = z.object(
  {
    state: z
      .enum(CHECK_SETTING_STATES, { error: CHECK_SETTING_MESSAGES.state })
      .default('open')
      .meta({
        description:
          '`ignored`: left out of the project’s problems, Fix first and alerts; `open` (the default): counted.',
      }),
    importance: z
      .enum(IMPORTANCE, { error: CHECK_SETTING_MESSAGES.importance })
      .optional()
      .transform((value) => value ?? null)
      .meta({ description: 'high, medium or low; absent or empty: the analysis’ own.' }),
    note: z
      .string({ error: CHECK_SETTING_MESSAGES.noteString })
      .max(CHECK_NOTE_MAX, { error: CHECK_SETTING_MESSAGES.noteMax })
      .optional()
      .transform((value) => (value === undefined || value.trim() === '' ? null : value))
      .meta({ description: `Why, in at most ${CHECK_NOTE_MAX} characters; absent or empty: none.` }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** A project's check settings: only the page is chosen. */
export const checkSettingListQuerySchema = z.object({ per_page: perPage, page });

// ---- Labels and clients (wave 4): a project's label, the clients and which client a project is for.

export const CLIENT_MESSAGES = {
  labelString: 'The label must be a string.',
  labelMax: `The label must not be greater than ${PROJECT_LABEL_MAX} characters.`,
  labelControl: 'The label must not contain control characters.',
  nameRequired: 'The name field is required.',
  nameString: 'The name must be a string.',
  nameMax: `The name must not be greater than ${CLIENT_NAME_MAX} characters.`,
  nameControl: 'The name must not contain control characters.',
  nameTaken: 'The name has already been taken.',
  clientId: 'The selected client id is invalid.',
} as const;

/**
 * Text of at most `max` characters (code points, after the server's trimming) and no control
 * character (PostgreSQL's text cannot hold NUL, and no name needs one).
 */
function shortText(
  max: number,
  messages: { string: string; required?: string; max: string; control: string },
) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined && messages.required ? messages.required : messages.string,
    })
    .refine((value) => [...value].length <= max, { error: messages.max })
    .refine((value) => !/\p{Cc}/u.test(value), { error: messages.control });
}

/** `PATCH /projects/{project}`: the project's label. */
export const projectLabelBodySchema = z.object(
  {
    label: shortText(PROJECT_LABEL_MAX, {
      string: CLIENT_MESSAGES.labelString,
      max: CLIENT_MESSAGES.labelMax,
      control: CLIENT_MESSAGES.labelControl,
    })
      .optional()
      .transform((value) => value ?? null)
      .meta({
        maxLength: PROJECT_LABEL_MAX,
        description: `At most ${PROJECT_LABEL_MAX} characters, trimmed; absent or empty: none (clears it).`,
      }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** `POST /clients` and `PATCH /clients/{id}`. */
export const clientBodySchema = z.object(
  {
    name: shortText(CLIENT_NAME_MAX, {
      string: CLIENT_MESSAGES.nameString,
      required: CLIENT_MESSAGES.nameRequired,
      max: CLIENT_MESSAGES.nameMax,
      control: CLIENT_MESSAGES.nameControl,
    }).meta({
      maxLength: CLIENT_NAME_MAX,
      description: `At most ${CLIENT_NAME_MAX} characters, trimmed; no other client may have it, whatever its case.`,
    }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

export const clientIdParamSchema = idParam('The client’s id.');

/** The clients, by name: only the page is chosen. */
export const clientListQuerySchema = z.object({ per_page: perPage, page });

/** `PUT /projects/{project}/client`: a form field is text; in JSON the id may come as a number. */
export const projectClientBodySchema = z.object(
  {
    client_id: z
      .union([z.string().regex(/^[1-9]\d{0,15}$/, { error: CLIENT_MESSAGES.clientId }), z.number()], {
        error: CLIENT_MESSAGES.clientId,
      })
      .transform(Number)
      .pipe(
        z
          .number({ error: CLIENT_MESSAGES.clientId })
          .int({ error: CLIENT_MESSAGES.clientId })
          .min(1, { error: CLIENT_MESSAGES.clientId })
          .max(Number.MAX_SAFE_INTEGER, { error: CLIENT_MESSAGES.clientId }),
      )
      .optional()
      .transform((value) => value ?? null)
      .meta({
        type: 'integer',
        description: 'A client’s id (an unknown one: 422); absent or empty: no client.',
      }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

// ---- Runs of a project and deploys (wave 4).

export const DEPLOY_MESSAGES = {
  labelRequired: 'The label field is required.',
  labelString: 'The label must be a string.',
  labelMax: `The label must not be greater than ${DEPLOY_LABEL_MAX} characters.`,
  labelControl: 'The label must not contain control characters.',
  run: 'The run field must be 0 or 1.',
} as const;

/** `/projects/{project}/run-log/{id}`. */
export const projectRunParamSchema = projectParamSchema.extend(idParam('The run’s id.').shape);

/** The run log and the deploys: only the page is chosen. */
export const projectRunListQuerySchema = z.object({ per_page: perPage, page });

/** `GET /projects/{project}/run-log/{id}/pages`. */
export const runPageListQuerySchema = z.object({
  outcome: z
    .enum(RUN_PAGE_OUTCOMES, { error: 'The selected outcome is invalid.' })
    .optional()
    .meta({ description: 'Only the pages the run left so: worse, improved, unchanged or failed.' }),
  per_page: perPage,
  page,
});

/** `POST /projects/{project}/deploys`. */
export const deployBodySchema = z.object(
  {
    label: shortText(DEPLOY_LABEL_MAX, {
      string: DEPLOY_MESSAGES.labelString,
      required: DEPLOY_MESSAGES.labelRequired,
      max: DEPLOY_MESSAGES.labelMax,
      control: DEPLOY_MESSAGES.labelControl,
    }).meta({
      maxLength: DEPLOY_LABEL_MAX,
      description: `What was released (a version, a commit), at most ${DEPLOY_LABEL_MAX} characters, trimmed.`,
    }),
    url: urlField
      .optional()
      .transform((value) => value ?? null)
      .meta({ format: 'uri', description: 'Where to read about it (a release, a pull request); optional.' }),
    run: z
      .union([z.enum(['0', '1']), z.literal([0, 1])], { error: DEPLOY_MESSAGES.run })
      .optional()
      .transform((value) => value === '1' || value === 1)
      .meta({ description: '1: analyse every report of the project again now, as a run the deploy names.' }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

// ---- Digests (issue 48).

export const DIGEST_MESSAGES = {
  recipientsString: 'The recipients must be a string.',
  recipientsTooMany: RECIPIENT_MESSAGES.tooMany,
  recipientsNeeded: 'Give at least one recipient, or send the digest as a webhook.',
  webhook: 'The webhook must be 0 or 1.',
} as const;

/** `PUT /digests`: every field at once; `weekday` only for weekly. */
export const digestBodySchema = z
  .object(
    {
      every: everySchema,
      hour: wholeNumber(0, 23, WATCH_MESSAGES.hour)
        .default(8)
        .meta({ type: 'integer', description: 'The hour it is sent, 0-23, UTC (8 by default).' }),
      weekday: wholeNumber(0, 6, WATCH_MESSAGES.weekday)
        .optional()
        .meta({ type: 'integer', description: 'The day of a weekly digest, 0 (Sunday) to 6, UTC; required for weekly, ignored otherwise.' }),
      recipients: z
        .string({ error: DIGEST_MESSAGES.recipientsString })
        .max(20_000, { error: DIGEST_MESSAGES.recipientsTooMany })
        .default('')
        .meta({ description: `Comma-separated e-mail addresses (at most ${DIGEST_RECIPIENTS_MAX}); empty for none.` }),
      webhook: z
        .union([z.enum(['0', '1']), z.literal([0, 1])], { error: DIGEST_MESSAGES.webhook })
        .default('0')
        .transform((value) => value === 1 || value === '1')
        .meta({ description: '1: also sent as the webhook event `digest.sent` to the account-wide webhooks.' }),
    },
    { error: REQUEST_MESSAGES.bodyObject },
  )
  .transform((body, ctx) => {
    const parsed = parseRecipients(body.recipients);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', path: ['recipients'], message: parsed.error });
      return z.NEVER;
    }
    if (body.every === 'weekly' && body.weekday === undefined) {
      ctx.addIssue({ code: 'custom', path: ['weekday'], message: WATCH_MESSAGES.weekdayRequired });
      return z.NEVER;
    }
    if (body.every !== 'off' && parsed.recipients.length === 0 && !body.webhook) {
      ctx.addIssue({ code: 'custom', path: ['recipients'], message: DIGEST_MESSAGES.recipientsNeeded });
      return z.NEVER;
    }
    return { ...body, recipients: parsed.recipients, weekday: body.every === 'weekly' ? (body.weekday ?? null) : null };
  });

// ---- Share links (share_links).

export const SHARE_MESSAGES = {
  targetRequired: 'The target field is required.',
  target: 'The target must be report:<id>, project:<name> or compare:<id>:<run>:<run>.',
  targetUnknown: 'The selected target is invalid.',
  expires: `The expires in days must be an integer between 1 and ${SHARE_EXPIRES_MAX_DAYS}.`,
  labelString: 'The label must be a string.',
  labelMax: `The label must not be greater than ${SHARE_LABEL_MAX} characters.`,
  labelControl: 'The label must not contain control characters.',
  tooMany: 'There are 1000 share links already, the most there may be: revoke one before making another.',
} as const;

/** `POST /share-links`. */
export const shareLinkBodySchema = z.object(
  {
    target: z
      .string({ error: (issue) => (issue.input === undefined ? SHARE_MESSAGES.targetRequired : SHARE_MESSAGES.target) })
      .transform((value, ctx) => {
        const target = parseShareTarget(value);
        if (target === null) ctx.addIssue({ code: 'custom', message: SHARE_MESSAGES.target });
        return target ?? z.NEVER;
      })
      .meta({
        type: 'string',
        description: 'What to share: `report:<id>`, `project:<name>` or `compare:<id>:<run generated_at>:<run generated_at>`.',
      }),
    expires_in_days: z
      .union([z.string().regex(/^\d{1,3}$/), z.number().int()], { error: SHARE_MESSAGES.expires })
      .optional()
      .transform((value) => (value === undefined ? null : Number(value)))
      .pipe(z.number().int().min(1, { error: SHARE_MESSAGES.expires }).max(SHARE_EXPIRES_MAX_DAYS, { error: SHARE_MESSAGES.expires }).nullable())
      .meta({ type: 'integer', minimum: 1, maximum: SHARE_EXPIRES_MAX_DAYS, description: 'The link stops working this many days from now; absent or empty: never.' }),
    password: passwordSchema
      .optional()
      .transform((value) => (value === undefined || value === '' ? null : value))
      .meta({ type: 'string', maxLength: PASSWORD_MAX_LENGTH, description: 'Optional: the page asks for it first. Write-only.' }),
    label: shortText(SHARE_LABEL_MAX, {
      string: SHARE_MESSAGES.labelString,
      max: SHARE_MESSAGES.labelMax,
      control: SHARE_MESSAGES.labelControl,
    })
      .optional()
      .transform((value) => value ?? null)
      .meta({ maxLength: SHARE_LABEL_MAX, description: `Optional, at most ${SHARE_LABEL_MAX} characters: who the link is for.` }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

export const shareLinkIdParamSchema = idParam('The share link’s id.');

/** The share links not revoked, newest first: all, or those of one target. */
export const shareLinkListQuerySchema = z.object({
  target: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : (parseShareTarget(value) ?? false)))
    .meta({ type: 'string', description: 'Only the links of this target (as `target` is written when made); one that names none: no links.' }),
  per_page: perPage,
  page,
});

/** `/s/{token}`: the token as the link carries it (base64url); anything else finds no link. */
export const shareTokenParamSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{22,86}$/).meta({ description: 'The link’s token.' }),
});

export type ShareLinkBody = z.output<typeof shareLinkBodySchema>;

// ---- Branding (branding).

/**
 * PUT /branding's text fields (multipart form data): each left out is kept as it is, each sent
 * empty is cleared. The `logo` file is checked apart, by its content.
 */
export const brandingFieldsSchema = z.object({
  name: z
    .string()
    .max(BRANDING_NAME_MAX, { error: BRANDING_MESSAGES.nameMax })
    .refine((name) => !/\p{Cc}/u.test(name), { error: BRANDING_MESSAGES.nameControl })
    .optional()
    .meta({ description: `The agency's name, at most ${BRANDING_NAME_MAX} characters; empty clears it.` }),
  accent: z
    .union([z.literal(''), z.string().regex(ACCENT_PATTERN, { error: BRANDING_MESSAGES.accent })], { error: BRANDING_MESSAGES.accent })
    .optional()
    .meta({ description: 'The accent colour, `#rrggbb`; empty clears it.' }),
});

// ---- Accounts and the audit log (accounts, audit; issue 47).

const roleField = z
  .enum(ROLES, { error: (issue) => (issue.input === undefined ? ACCOUNT_MESSAGES.roleRequired : ACCOUNT_MESSAGES.role) })
  .meta({ description: 'owner: everything; editor: every change of data but members, keys, webhooks, branding and digests; viewer: reads, and marking alerts read.' });

/** `POST /members`: a member and its first key. */
export const memberBodySchema = z.object(
  {
    name: shortText(MEMBER_NAME_MAX, {
      string: ACCOUNT_MESSAGES.nameString,
      required: ACCOUNT_MESSAGES.nameRequired,
      max: ACCOUNT_MESSAGES.nameMax,
      control: ACCOUNT_MESSAGES.nameControl,
    }).meta({ minLength: 1, maxLength: MEMBER_NAME_MAX, description: `1 to ${MEMBER_NAME_MAX} characters, trimmed.` }),
    role: roleField,
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

/** `PATCH /members/{id}`: the member's role. */
export const memberRoleBodySchema = z.object({ role: roleField }, { error: REQUEST_MESSAGES.bodyObject });

/** `POST /members/{id}/keys`: a key's label. */
export const keyBodySchema = z.object(
  {
    label: shortText(KEY_LABEL_MAX, {
      string: ACCOUNT_MESSAGES.labelString,
      max: ACCOUNT_MESSAGES.labelMax,
      control: ACCOUNT_MESSAGES.labelControl,
    })
      .optional()
      .transform((value) => value ?? null)
      .meta({ maxLength: KEY_LABEL_MAX, description: `Optional, at most ${KEY_LABEL_MAX} characters: where the key is used.` }),
  },
  { error: REQUEST_MESSAGES.bodyObject },
);

export const memberIdParamSchema = idParam('The member’s id.');
export const keyIdParamSchema = idParam('The key’s id.');

/** The members, oldest first: only the page is chosen. */
export const memberListQuerySchema = z.object({ per_page: perPage, page });
/** A member's keys, oldest first: only the page is chosen. */
export const keyListQuerySchema = z.object({ per_page: perPage, page });

/**
 * A filter of the audit log: absent or empty is none; anything it cannot mean is a 422 on it,
 * not ignored, since the whole log in place of a part of it would look like that part.
 */
function auditFilter<T>(message: string, parse: (value: string) => T | null, meta: Record<string, unknown>) {
  return z
    .string({ error: message })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const parsed = parse(value);
      if (parsed === null) ctx.addIssue({ code: 'custom', message });
      return parsed ?? z.NEVER;
    })
    .meta({ type: 'string', ...meta });
}

/** `GET /audit`: the entries newest first, of the names the log gives its entries (`actions`, http/operations.ts). */
export function auditListQuerySchema(actions: readonly string[]) {
  return z.object({
    member: auditFilter(ACCOUNT_MESSAGES.member, (value) => (isClientId(value) ? Number(value) : null), {
      pattern: `^(?:${CLIENT_ID.source.slice(1, -1)})?$`,
      description: 'Only the entries of this member, by its id (removed members included).',
    }),
    action: auditFilter(ACCOUNT_MESSAGES.action, (value) => (actions.includes(value) ? value : null), {
      enum: ['', ...actions],
      description: 'Only the entries of this action, such as `report.update`.',
    }),
    target: auditFilter(ACCOUNT_MESSAGES.target, parseAuditTarget, {
      description: 'Only the entries about this target, written `type:id`: `report:42`, `project:shop.example`, `member:3`.',
    }),
    since: auditFilter(ACCOUNT_MESSAGES.since, parseAuditTime, {
      description: 'Only the entries at or after this time: an ISO 8601 date and time with its zone, or a date (UTC, from its midnight).',
    }),
    until: auditFilter(ACCOUNT_MESSAGES.until, (value) => parseAuditTime(value, 'end'), {
      description: 'Only the entries at or before this time: an ISO 8601 date and time with its zone, or a date (UTC, the whole day).',
    }),
    per_page: perPage,
    page,
  });
}

export type MemberBody = z.output<typeof memberBodySchema>;
