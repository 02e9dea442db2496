// What the API contract promises, exactly. The reference server's tests parse its answers with
// these; the client's lenient schemas (api/lenient-schemas.ts) accept these and the contract's Tolerance list.
import * as z from 'zod';
import { ROLES } from './accounts';
import {
  ALERT_KINDS,
  CATEGORIES,
  CHECK_KEYS,
  CHECK_NOTE_MAX,
  CHECK_SETTING_STATES,
  CLIENT_NAME_MAX,
  DEPLOY_LABEL_MAX,
  IMPORTANCE,
  PROJECT_LABEL_MAX,
  OVERVIEW_WEEK_ITEMS,
  RESULTS,
  RUN_KINDS,
  RUN_PAGE_OUTCOMES,
  MAX_NEW_PAGES,
  RUN_STATES,
  SCHEDULE_EVERY,
  TREND_DAYS,
} from './values';

const timestamp = z.iso.datetime({ precision: 6 });
// The ids name these schemas' components in the server's OpenAPI document.
const jsonValue = z.json().meta({ id: 'JsonValue' });

export const strictCheckSchema = z
  .strictObject({
    passed: z.boolean(),
    importance: z.enum(IMPORTANCE),
    value: jsonValue,
    errors: z.record(z.string(), jsonValue).optional(),
  })
  .meta({ id: 'Check' });

export const strictReportSchema = z
  .strictObject({
    id: z.number().int().positive(),
    url: z.url({ protocol: /^https?$/ }),
    project: z.string().min(1),
    privacy: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    password: z.boolean(),
    result: z.enum(RESULTS),
    score: z.number().int().min(0).max(100),
    results: z.record(z.string(), strictCheckSchema),
    generated_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
    // The reference server's extensions: the report's public page; how many analyses are kept as
    // runs, and the scores of the newest (at most 10, oldest first).
    page_url: z.url({ protocol: /^https?$/ }),
    runs: z.number().int().positive(),
    recent_scores: z.array(z.number().int().min(0).max(100)).min(1).max(10),
    /** Since when its page is gone: it left the followed sitemap, or answered 404 or 410 (sitemap_follow). */
    gone_since: timestamp.nullable(),
  })
  .meta({ id: 'Report' });

/** One kept analysis of a report (`GET /reports/{id}/runs`, the reference server's extension). */
export const strictRunSchema = z
  .strictObject({
    generated_at: timestamp,
    score: z.number().int().min(0).max(100),
    result: z.enum(RESULTS),
    results: z.record(z.string(), strictCheckSchema),
  })
  .meta({ id: 'Run' });

export const strictProjectSchema = z
  .strictObject({
    project: z.string().min(1),
    reports: z.number().int().nonnegative(),
    created_at: timestamp,
    // The reference server's extension (Schedules): a watched project's schedule, so that a list shows
    // which projects are watched without a request per project; absent when the project is not watched.
    schedule: z
      .strictObject({
        every: z.enum(['daily', 'weekly']),
        hour: z.number().int().min(0).max(23),
        weekday: z.number().int().min(0).max(6).nullable(),
        next_run_at: timestamp.nullable(),
      })
      .optional(),
  })
  .meta({
    description: 'A project as a deployment returns it; the reference server’s adds label and client.',
  });

/** Text of 1 to `max` characters, counted as code points (as JSON Schema's maxLength counts them). */
const shortText = (max: number) =>
  z
    .string()
    .min(1)
    .refine((text) => [...text].length <= max)
    .meta({ maxLength: max });

/** A project's client, as a project carries it. */
const strictClientRefSchema = z.strictObject({
  id: z.number().int().positive(),
  name: shortText(CLIENT_NAME_MAX),
});

/**
 * A project as the reference server answers it (GET /projects, GET /projects/{project}): the
 * contract's project and, of wave 4 (labels and clients), its `label` and `client`, null when it has
 * none. A deployment sends neither, which is why strictProjectSchema, the lenient schema's model,
 * does not have them.
 */
export const strictLabelledProjectSchema = strictProjectSchema
  .extend({
    label: shortText(PROJECT_LABEL_MAX).nullable(),
    client: strictClientRefSchema.nullable(),
  })
  .meta({ id: 'Project' });

export const strictLabelledProjectEnvelope = z.strictObject({
  data: strictLabelledProjectSchema,
  status: z.literal(200),
});

const strictMetaSchema = z.strictObject({
  current_page: z.number().int().positive(),
  from: z.number().int().positive().nullable(),
  last_page: z.number().int().positive(),
  path: z.string(),
  per_page: z.union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)]),
  to: z.number().int().positive().nullable(),
  total: z.number().int().nonnegative(),
});

const strictLinksSchema = z.strictObject({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export function strictListSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    links: strictLinksSchema,
    meta: strictMetaSchema,
    status: z.literal(200),
  });
}

export const strictReportListSchema = strictListSchema(strictReportSchema);
export const strictProjectListSchema = strictListSchema(strictLabelledProjectSchema);

// ---- Health (wave 4, Overview): a project's reports per result over the days.

const count = z.number().int().nonnegative();
/** An average of scores, rounded to one decimal; null when nothing has a score. */
const averageScore = z.number().min(0).max(100).nullable();

/**
 * One day of a project's health: its reports as each one's newest run as of the end of that day
 * (UTC) had it; a report not analysed yet that day is not counted.
 */
export const strictHealthPointSchema = z
  .strictObject({
    date: z.iso.date(),
    average_score: averageScore,
    good: count,
    decent: count,
    bad: count,
  })
  .meta({ id: 'HealthPoint' });

/** A project as `GET /projects?with=health` lists it. */
export const strictProjectHealthSchema = strictLabelledProjectSchema
  .extend({
    good: count,
    decent: count,
    bad: count,
    /** Reports without a result (none on this server: every analysis has one). */
    unknown: count,
    average_score: averageScore,
    unread_alerts: count,
    next_run_at: timestamp.nullable(),
    last_run_at: timestamp.nullable(),
    /** Its last TREND_DAYS days, oldest first, today the last. */
    trend: z.array(strictHealthPointSchema).length(TREND_DAYS),
  })
  .meta({ id: 'ProjectWithHealth' });

export const strictProjectHealthListSchema = strictListSchema(strictProjectHealthSchema);

/** GET /projects as documented: each item with its health exactly when `with=health` asks for it. */
export const strictAnyProjectListSchema = strictListSchema(
  z.union([strictLabelledProjectSchema, strictProjectHealthSchema]),
);

/** A day of `GET /projects/{project}/health`: with the deploy that preceded its end (deploys). */
export const strictProjectHealthPointSchema = strictHealthPointSchema
  .extend({
    deploy: z
      .strictObject({
        id: z.number().int().positive(),
        label: z.string().min(1),
        url: z.string().min(1).nullable(),
        at: timestamp,
      })
      .nullable(),
  })
  .meta({ id: 'ProjectHealthPoint' });

/** `GET /projects/{project}/health`: one point a day, oldest first, today (UTC) the last. */
export const strictProjectHealthEnvelope = z.strictObject({
  data: z.strictObject({
    project: z.string().min(1),
    days: z.number().int().min(1),
    points: z.array(strictProjectHealthPointSchema).min(1),
  }),
  status: z.literal(200),
});
export const strictRunListSchema = strictListSchema(strictRunSchema);

export const strictReportEnvelope = (status: 200 | 201) =>
  z.strictObject({ data: strictReportSchema, status: z.literal(status) });

export const strictReportDeletedSchema = z.strictObject({
  id: z.number().int().positive(),
  object: z.literal('report'),
  deleted: z.literal(true),
  status: z.literal(200),
});

export const strictProjectDeletedSchema = z.strictObject({
  id: z.string().min(1),
  object: z.literal('project'),
  deleted: z.literal(true),
  status: z.literal(200),
});

export const strictErrorSchema = z.strictObject({
  message: z.string().min(1),
  status: z.union([
    z.literal(401),
    z.literal(403),
    z.literal(404),
    z.literal(405),
    z.literal(413),
    z.literal(429),
    z.literal(500),
    z.literal(503),
    z.literal(504),
  ]),
});

export const strictValidationErrorSchema = z.strictObject({
  message: z.record(z.string(), z.array(z.string().min(1)).min(1)),
  status: z.literal(422),
});

export type StrictReport = z.infer<typeof strictReportSchema>;
export type StrictProject = z.infer<typeof strictProjectSchema>;
export type StrictCheck = z.infer<typeof strictCheckSchema>;
export type StrictRun = z.infer<typeof strictRunSchema>;

/** GET /capabilities (an extension): which of the wave-3 extensions a deployment has. */
export const strictCapabilitiesSchema = z.strictObject({
  runs: z.boolean(),
  url_filter: z.boolean(),
  /** `url=` repeated (up to URL_FILTER_MAX values) lists the reports of any of them. */
  url_filter_many: z.boolean(),
  sort_by_score: z.boolean(),
  discover: z.boolean(),
  schedules: z.boolean(),
  alerts: z.boolean(),
  webhooks: z.boolean(),
  /** `failing=<check>` on GET /reports (wave 4, Problems). */
  failing_filter: z.boolean(),
  /** GET /problems: the checks failing across pages. */
  problems: z.boolean(),
  /** GET /projects/{project}/checks and PUT /projects/{project}/checks/{check}. */
  check_settings: z.boolean(),
  /** A project's `label` (PATCH /projects/{project}), in every project answer. */
  project_labels: z.boolean(),
  /** GET/POST /clients, PATCH/DELETE /clients/{id}, PUT /projects/{project}/client; a project's `client`. */
  clients: z.boolean(),
  /** GET /overview, GET /projects/{project}/health, `with=health`, the health sort keys and `client=` on GET /projects. */
  overview: z.boolean(),
  /** GET /projects/{project}/run-log (and /{id}, /{id}/cancel); Run now answers its run. */
  run_log: z.boolean(),
  /** POST and GET /projects/{project}/deploys; runs and health points name the deploy before them. */
  deploys: z.boolean(),
  /** A schedule's `sitemap` and `max_new`; a report's `gone_since`; `gone=` on GET /reports. */
  sitemap_follow: z.boolean(),
  /** `ids=` on GET /reports: only the reports of these ids (src/contract/id-list.ts). */
  ids_filter: z.boolean(),
  /** GET/PUT /digests, GET /digests/preview, POST /digests/send (issue 48). */
  digests: z.boolean(),
  /** POST/GET /share-links, DELETE /share-links/{id}, and their pages at /s/<token>. */
  share_links: z.boolean(),
  /** GET/PUT /branding and DELETE /branding/logo (issue 48): the agency's name, accent and logo. */
  branding: z.boolean(),
  /** GET /me, /members and /keys (issue 47): members with a role, each with keys of its own; roles enforced (403). */
  accounts: z.boolean(),
  /** GET /audit (issue 47): every write and every refusal, by whom, kept AUDIT_DAYS. */
  audit: z.boolean(),
});
export type Capabilities = z.infer<typeof strictCapabilitiesSchema>;

export const strictCapabilitiesEnvelope = z.strictObject({
  data: strictCapabilitiesSchema,
  status: z.literal(200),
});

/** POST /discover (an extension): the page URLs a site's sitemaps list, and what was read to find them. */
export const strictDiscoverSourceSchema = z.strictObject({
  url: z.string().min(1),
  kind: z.enum(['sitemap', 'index', 'robots']),
  count: z.number().int().min(0),
  error: z.string().min(1).nullable(),
});

export const strictDiscoverSchema = z.strictObject({
  urls: z.array(z.string().min(1)),
  sources: z.array(strictDiscoverSourceSchema),
  truncated: z.boolean(),
});
export type Discovered = z.infer<typeof strictDiscoverSchema>;
export type DiscoverSource = z.infer<typeof strictDiscoverSourceSchema>;

export const strictDiscoverEnvelope = z.strictObject({ data: strictDiscoverSchema, status: z.literal(200) });

// ---- Watching (extensions): schedules and alerts.

export { ALERT_KINDS, SCHEDULE_EVERY };

/** A project's schedule (`GET /projects/{project}/schedule`); times in UTC. */
export const strictScheduleSchema = z
  .strictObject({
    project: z.string().min(1),
    every: z.enum(SCHEDULE_EVERY),
    hour: z.number().int().min(0).max(23),
    weekday: z.number().int().min(0).max(6).nullable(),
    drop: z.number().int().min(1).max(100),
    next_run_at: timestamp.nullable(),
    last_run_at: timestamp.nullable(),
    /** The sitemap each run reads first (sitemap_follow); null: none. */
    sitemap: z.string().min(1).nullable(),
    /** New pages a run may add at most. */
    max_new: z.number().int().min(0).max(MAX_NEW_PAGES),
  })
  .meta({ id: 'Schedule' });

export const strictScheduleEnvelope = z.strictObject({ data: strictScheduleSchema, status: z.literal(200) });

/** A deploy as a run or a health point names it. */
export const strictDeployRefSchema = z
  .strictObject({
    id: z.number().int().positive(),
    label: z.string().min(1).max(DEPLOY_LABEL_MAX),
    url: z.string().min(1).nullable(),
  })
  .meta({ id: 'DeployRef' });

/** A project's deploy (`POST /projects/{project}/deploys`). */
export const strictDeploySchema = strictDeployRefSchema
  .extend({
    at: timestamp,
    /** The run it started (`run=1`), or null. */
    run_id: z.number().int().positive().nullable(),
  })
  .meta({ id: 'Deploy' });

export const strictDeployEnvelope = z.strictObject({ data: strictDeploySchema, status: z.literal(201) });
export const strictDeployListSchema = strictListSchema(strictDeploySchema);

/** One run of a project (the run log): its progress while it goes, its summary once it ended. */
export const strictProjectRunSchema = z
  .strictObject({
    id: z.number().int().positive(),
    kind: z.enum(RUN_KINDS),
    started_at: timestamp,
    finished_at: timestamp.nullable(),
    state: z.enum(RUN_STATES),
    total: count,
    analysed: count,
    failed: count,
    worse: count,
    improved: count,
    unchanged: count,
    new_pages: count,
    gone_pages: count,
    alerts: count,
    /** The deploy that started it, or else the newest one before it started. */
    deploy: strictDeployRefSchema.nullable(),
    /** Why its first step, reading the project's sitemap, failed (the run went on with the known pages); null otherwise. */
    sitemap_error: z.string().min(1).nullable(),
  })
  .meta({ id: 'ProjectRun' });

/** A page of a run (`GET /projects/{project}/run-log/{id}/pages`): what the run's analysis did to it. */
export const strictRunPageSchema = z
  .strictObject({
    report_id: z.number().int().positive(),
    url: z.string().min(1),
    outcome: z.enum(RUN_PAGE_OUTCOMES),
    score_before: z.number().int().min(0).max(100).nullable(),
    score_after: z.number().int().min(0).max(100).nullable(),
    /** Why its analysis failed. */
    message: z.string().min(1).nullable(),
  })
  .meta({ id: 'RunPage' });
export const strictRunPageListSchema = strictListSchema(strictRunPageSchema);

export const strictProjectRunEnvelope = (status: 200 | 202) =>
  z.strictObject({ data: strictProjectRunSchema, status: z.literal(status) });
export const strictProjectRunListSchema = strictListSchema(strictProjectRunSchema);

/** `POST /projects/{project}/schedule/run`: the run started (or the one still going). */
export const strictScheduleRunEnvelope = strictProjectRunEnvelope(202);

const strictAlertSideSchema = z.strictObject({
  score: z.number().int().min(0).max(100),
  result: z.enum(RESULTS),
  generated_at: timestamp,
});

export const strictAlertSchema = z
  .strictObject({
    id: z.number().int().positive(),
    report_id: z.number().int().positive(),
    url: z.string().min(1),
    project: z.string().min(1),
    kind: z.enum(ALERT_KINDS),
    before: strictAlertSideSchema,
    after: strictAlertSideSchema,
    checks: z.array(z.string()),
    /** The checks' human names, in the order of `checks` (wave 4). */
    check_names: z.array(z.string()),
    created_at: timestamp,
    read: z.boolean(),
    /** The project run that raised it (the run log); null for a person's own analysis. */
    run_id: z.number().int().positive().nullable(),
    /** The deploy whose run raised it (deploys), or null. */
    deploy: strictDeployRefSchema.nullable(),
  })
  .meta({ id: 'Alert' });

export const strictAlertListSchema = z.strictObject({
  data: z.array(strictAlertSchema),
  links: strictLinksSchema,
  meta: strictMetaSchema.extend({ unread: z.number().int().nonnegative() }),
  status: z.literal(200),
});

export const strictAlertEnvelope = z.strictObject({ data: strictAlertSchema, status: z.literal(200) });

export const strictAlertsReadEnvelope = z.strictObject({
  data: z.strictObject({ marked: z.number().int().nonnegative() }),
  status: z.literal(200),
});

export type StrictSchedule = z.infer<typeof strictScheduleSchema>;
export type StrictAlert = z.infer<typeof strictAlertSchema>;

// ---- Webhooks (an extension).

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const webhookFields = {
  id: z.number().int().positive(),
  url: z.url({ protocol: /^https?$/ }),
  /** null: every project's alerts. */
  project: z.string().min(1).nullable(),
  /** One POST per project run (`alerts.raised`) rather than one per alert (`alert.raised`). */
  batch: z.boolean(),
  created_at: timestamp,
};

/** A webhook, as listed (`GET /webhooks`): never its secret. */
export const strictWebhookSchema = z.strictObject(webhookFields).meta({ id: 'Webhook' });

export const strictWebhookListSchema = strictListSchema(strictWebhookSchema);

/** `POST /webhooks`: the one answer that carries the signing secret. */
export const strictWebhookCreatedEnvelope = z.strictObject({
  data: z
    .strictObject({ ...webhookFields, secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/) })
    .meta({ id: 'NewWebhook' }),
  status: z.literal(201),
});

export const strictWebhookDeletedSchema = strictReportDeletedSchema.extend({ object: z.literal('webhook') });

/** One attempt to deliver a message to a webhook (`GET /webhooks/{id}/deliveries`). */
export const strictDeliverySchema = z
  .strictObject({
    id: z.number().int().positive(),
    /** The Standard Webhooks message id (`webhook-id`), the same for every attempt of a message. */
    message_id: z.string().min(1),
    event: z.string().min(1),
    attempt: z.number().int().positive(),
    status: z.enum(DELIVERY_STATUSES),
    /** When it is (or was) due. */
    next_attempt_at: timestamp,
    attempted_at: timestamp.nullable(),
    /** The receiver's HTTP status, when it answered. */
    answer_status: z.number().int().min(100).max(599).nullable(),
    /** Why it failed, in words (network error, timeout, refused address, status). */
    error: z.string().min(1).nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const strictDeliveryListSchema = strictListSchema(strictDeliverySchema);

/** `POST /webhooks/{id}/test`: the test message is queued. */
export const strictWebhookTestEnvelope = z.strictObject({
  data: strictDeliverySchema,
  status: z.literal(202),
});

export type StrictWebhook = z.infer<typeof strictWebhookSchema>;
export type StrictDelivery = z.infer<typeof strictDeliverySchema>;

/** GET /problems (an extension): one item per check failing on a report in scope. */
export const strictProblemSchema = z.strictObject({
  check: z.enum(CHECK_KEYS),
  category: z.enum(CATEGORIES),
  importance: z.enum(IMPORTANCE),
  failing: z.number().int().min(1),
  analysed: z.number().int().min(1),
  projects: z.number().int().min(1),
  site_wide: z.boolean(),
  new_7d: z.number().int().min(0),
  fixed_7d: z.number().int().min(0),
  state: z.enum(['open', 'ignored', 'mixed']),
});
export const strictProblemListSchema = strictListSchema(strictProblemSchema);

/** A project's setting of one check (GET /projects/{project}/checks). */
export const strictCheckSettingSchema = z.strictObject({
  check: z.enum(CHECK_KEYS),
  state: z.enum(CHECK_SETTING_STATES),
  importance: z.enum(IMPORTANCE).nullable(),
  note: z.string().min(1).max(CHECK_NOTE_MAX).nullable(),
  updated_at: timestamp,
});
export const strictCheckSettingListSchema = strictListSchema(strictCheckSettingSchema);
export const strictCheckSettingEnvelope = z.strictObject({
  data: strictCheckSettingSchema,
  status: z.literal(200),
});

// ---- Clients (wave 4): the clients projects are for.

/** A client (GET /clients): `projects`, how many projects are for it. */
export const strictClientSchema = z
  .strictObject({
    ...strictClientRefSchema.shape,
    projects: z.number().int().nonnegative(),
    created_at: timestamp,
  })
  .meta({ id: 'Client' });
export const strictClientListSchema = strictListSchema(strictClientSchema);
export const strictClientEnvelope = (status: 200 | 201) =>
  z.strictObject({ data: strictClientSchema, status: z.literal(status) });
export const strictClientDeletedSchema = strictReportDeletedSchema.extend({ object: z.literal('client') });
export type StrictClient = z.infer<typeof strictClientSchema>;

// ---- Overview (wave 4): the whole account at a glance.

/** A report whose score fell in the last 7 days: from the highest it fell from in them to now. */
export const strictScoreDropSchema = z.strictObject({
  report_id: z.number().int().positive(),
  url: z.string().min(1),
  project: z.string().min(1),
  before: z.number().int().min(0).max(100),
  after: z.number().int().min(0).max(100),
});

/** GET /overview. */
export const strictOverviewEnvelope = z.strictObject({
  data: z.strictObject({
    totals: z.strictObject({
      projects: count,
      reports: count,
      good: count,
      decent: count,
      bad: count,
      unknown: count,
      unread_alerts: count,
      open_problems: count,
    }),
    week: z.strictObject({
      new_problems: z.array(strictProblemSchema).max(OVERVIEW_WEEK_ITEMS),
      fixed_problems: z.array(strictProblemSchema).max(OVERVIEW_WEEK_ITEMS),
      biggest_drops: z.array(strictScoreDropSchema).max(OVERVIEW_WEEK_ITEMS),
    }),
  }),
  status: z.literal(200),
});
export type StrictHealthPoint = z.infer<typeof strictHealthPointSchema>;

// ---- Digests (issue 48).

const digestProblemSchema = z.strictObject({
  project: z.string().min(1),
  check: z.string().min(1),
  /** The check's name, as the dashboard says it. */
  name: z.string().min(1),
  pages: z.number().int().positive(),
});

const digestPageSchema = z.strictObject({
  report_id: z.number().int().positive(),
  url: z.string().min(1),
  project: z.string().min(1),
  at: timestamp,
});

/** A digest's content: what changed after `since` up to `until` (`GET /digests/preview`, the e-mail, `digest.sent`). */
export const strictDigestSchema = z
  .strictObject({
    since: timestamp,
    until: timestamp,
    projects: z.array(
      z.strictObject({
        project: z.string().min(1),
        new_problems: z.number().int().min(0),
        fixed_problems: z.number().int().min(0),
        drops: z.number().int().min(0),
        alerts: z.number().int().min(0),
        new_pages: z.number().int().min(0),
        gone_pages: z.number().int().min(0),
      }),
    ),
    new_problems: z.array(digestProblemSchema),
    fixed_problems: z.array(digestProblemSchema),
    drops: z.array(
      z.strictObject({
        report_id: z.number().int().positive(),
        url: z.string().min(1),
        project: z.string().min(1),
        before: z.number().int().min(0).max(100),
        after: z.number().int().min(0).max(100),
      }),
    ),
    alerts: z.array(
      z.strictObject({
        id: z.number().int().positive(),
        report_id: z.number().int().positive(),
        url: z.string().min(1),
        project: z.string().min(1),
        kind: z.enum(ALERT_KINDS),
        before_score: z.number().int().min(0).max(100),
        after_score: z.number().int().min(0).max(100),
        created_at: timestamp,
      }),
    ),
    new_pages: z.array(digestPageSchema),
    gone_pages: z.array(digestPageSchema),
  })
  .meta({ id: 'Digest' });

/** One digest made: its window and how sending it went. */
export const strictDigestSendSchema = z
  .strictObject({
    id: z.number().int().positive(),
    kind: z.enum(['scheduled', 'manual']),
    since: timestamp,
    until: timestamp,
    /** pending: to send (again) at next_attempt_at; sent; failed: given up after its retries. */
    status: z.enum(['pending', 'sent', 'failed']),
    attempts: z.number().int().min(0),
    /** How many addresses it goes to. */
    recipients: z.number().int().min(0),
    webhook: z.boolean(),
    created_at: timestamp,
    attempted_at: timestamp.nullable(),
    /** When it is tried (again); null unless pending. */
    next_attempt_at: timestamp.nullable(),
    sent_at: timestamp.nullable(),
    /** Why its last attempt failed, in words. */
    error: z.string().min(1).nullable(),
  })
  .meta({ id: 'DigestSend' });

/** `GET /digests`: the settings, and the state of the sending. */
export const strictDigestSettingsSchema = z
  .strictObject({
    every: z.enum(SCHEDULE_EVERY),
    hour: z.number().int().min(0).max(23),
    weekday: z.number().int().min(0).max(6).nullable(),
    /** Comma-separated, as PUT takes them; empty for none. */
    recipients: z.string(),
    webhook: z.literal([0, 1]),
    /** Whether this server can send e-mail (SMTP_URL is set). */
    mail: z.boolean(),
    /** How many webhooks receive `digest.sent` (those for every project). */
    webhook_receivers: z.number().int().min(0),
    /** When the next scheduled digest is made; null when off. */
    next_at: timestamp.nullable(),
    last_sent_at: timestamp.nullable(),
    /** The newest digest made, whatever its state. */
    last: strictDigestSendSchema.nullable(),
  })
  .meta({ id: 'DigestSettings' });

export const strictDigestSettingsEnvelope = z.strictObject({ data: strictDigestSettingsSchema, status: z.literal(200) });
export const strictDigestEnvelope = z.strictObject({ data: strictDigestSchema, status: z.literal(200) });
export const strictDigestSendEnvelope = z.strictObject({ data: strictDigestSendSchema, status: z.literal(200) });

export type StrictDigest = z.infer<typeof strictDigestSchema>;
export type StrictDigestSend = z.infer<typeof strictDigestSendSchema>;
export type StrictDigestSettings = z.infer<typeof strictDigestSettingsSchema>;
// ---- Share links (share_links).

const shareLinkFields = {
  id: z.number().int().positive(),
  label: z.string().min(1).nullable(),
  /** `report:<id>`, `project:<name>` or `compare:<id>:<run>:<run>` (src/contract/share-target.ts). */
  target: z.string().min(1),
  created_at: timestamp,
  /** Who made it; null on a server without accounts. */
  created_by: z.string().nullable(),
  /** null: never. */
  expires_at: timestamp.nullable(),
  /** Whether the page asks for a password first. */
  password: z.boolean(),
  views: z.number().int().nonnegative(),
  last_viewed_at: timestamp.nullable(),
};

/** A share link as listed (`GET /share-links`): never its token, which only its creation shows. */
export const strictShareLinkSchema = z.strictObject(shareLinkFields).meta({ id: 'ShareLink' });

export const strictShareLinkListSchema = strictListSchema(strictShareLinkSchema);

/** `POST /share-links`: the one answer that carries the link's address. */
export const strictShareLinkCreatedEnvelope = z.strictObject({
  data: z
    .strictObject({ ...shareLinkFields, url: z.url({ protocol: /^https?$/ }) })
    .meta({ id: 'NewShareLink' }),
  status: z.literal(201),
});

export const strictShareLinkRevokedSchema = strictReportDeletedSchema.extend({ object: z.literal('share_link') });

export type StrictShareLink = z.infer<typeof strictShareLinkSchema>;
/** GET/PUT /branding, DELETE /branding/logo (issue 48): the agency's name, accent and logo. */
export const strictBrandingSchema = z
  .strictObject({
    name: z.string().nullable(),
    /** #rrggbb, lower case. */
    accent: z.string().regex(/^#[0-9a-f]{6}$/).nullable(),
    logo: z
      .strictObject({
        type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
        size: z.number().int().min(1),
        /** The logo's public address (the public and share pages show it from there; cached for good). */
        url: z.url(),
        /** The same image as a data: URL, for a dashboard on another origin whose policy allows data: images. */
        data_url: z.string().regex(/^data:image\/(png|jpeg|webp);base64,/),
      })
      .nullable(),
    updated_at: timestamp.nullable(),
  })
  .meta({ id: 'Branding' });
export const strictBrandingEnvelope = z.strictObject({ data: strictBrandingSchema, status: z.literal(200) });

// ---- Accounts and the audit log (accounts, audit; issue 47).

const keyFields = {
  id: z.number().int().positive(),
  label: z.string().min(1).nullable(),
  /** Its first characters (`wrs_` and 6 more), to tell keys apart; `API_KEY` for a key of the configuration. */
  prefix: z.string().min(1),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
};

/** A key as listed: never the key itself, which only its creation shows. */
export const strictKeySchema = z.strictObject(keyFields).meta({ id: 'Key' });
export const strictKeyListSchema = strictListSchema(strictKeySchema);

const newKeySchema = z
  .strictObject({ ...keyFields, key: z.string().regex(/^wrs_[A-Za-z0-9_-]{43}$/) })
  .meta({ id: 'NewKey' });

/** `POST /members/{id}/keys`: the one answer that carries the key. */
export const strictKeyCreatedEnvelope = z.strictObject({ data: newKeySchema, status: z.literal(201) });
export const strictKeyDeletedSchema = strictReportDeletedSchema.extend({ object: z.literal('key') });

const memberFields = {
  id: z.number().int().positive(),
  name: z.string().min(1),
  role: z.enum(ROLES),
  created_at: timestamp,
  /** Its keys not revoked. */
  keys: z.number().int().nonnegative(),
  /** The newest use of any of its keys. */
  last_used_at: timestamp.nullable(),
};

export const strictMemberSchema = z.strictObject(memberFields).meta({ id: 'Member' });
export const strictMemberListSchema = strictListSchema(strictMemberSchema);
export const strictMemberEnvelope = z.strictObject({ data: strictMemberSchema, status: z.literal(200) });

/** `POST /members`: the member with its first key, shown this once. */
export const strictMemberCreatedEnvelope = z.strictObject({
  data: z.strictObject({ ...memberFields, key: newKeySchema }).meta({ id: 'NewMember' }),
  status: z.literal(201),
});
export const strictMemberDeletedSchema = strictReportDeletedSchema.extend({ object: z.literal('member') });

/** `GET /me`: who the key signs in as. */
export const strictMeEnvelope = z.strictObject({
  data: z
    .strictObject({
      member: z.strictObject({ id: z.number().int().positive(), name: z.string().min(1) }),
      workspace: z.strictObject({ id: z.number().int().positive(), name: z.string().min(1) }),
      role: z.enum(ROLES),
      key: strictKeySchema,
    })
    .meta({ id: 'Me' }),
  status: z.literal(200),
});

/** One entry of the audit log: a write done, or a request refused (403). Never a password, key or secret. */
export const strictAuditEntrySchema = z
  .strictObject({
    id: z.number().int().positive(),
    at: timestamp,
    member: z.strictObject({ id: z.number().int().positive().nullable(), name: z.string() }),
    key_id: z.number().int().positive().nullable(),
    /** The member's role at the time. */
    role: z.enum(ROLES),
    action: z.string().min(1),
    outcome: z.enum(['done', 'refused']),
    target: z.strictObject({ type: z.string().min(1), id: z.string().nullable() }),
    /** Field -> [before, after]; a secret only ever "set" or "unset". */
    changes: z.record(z.string(), z.array(jsonValue).length(2)).nullable(),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export const strictAuditListSchema = strictListSchema(strictAuditEntrySchema);

export type StrictMember = z.infer<typeof strictMemberSchema>;
export type StrictKey = z.infer<typeof strictKeySchema>;
export type StrictAuditEntry = z.infer<typeof strictAuditEntrySchema>;
