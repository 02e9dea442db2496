// The one migration list of both engines, in Kysely's schema builder; where the engines differ
// (column types, PostgreSQL's trigram and covering indexes, SQLite's WITHOUT ROWID), the
// migration says so. Append only: a released migration is never edited, a change is a new one,
// named so that it sorts last (Kysely applies them in name order).
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { urlKey } from '../../../src/contract/url-key';
import type { Engine } from './database';
import { TRIM_ABOVE_BYTES, trimmedResults } from './trim-evidence';
import { failuresOf, uncheckedOf } from './check-failures';
import { fillScoresBefore, replayHealth } from './health-history';
import { rebuildInWorkspaces } from './workspace-migration';

export const RUNS_MIGRATION = '005-runs';
export const TRIM_MIGRATION = '006-evidence-trimmed';
export const URL_KEY_MIGRATION = '008-url-key';
export const WATCH_MIGRATION = '009-schedules-and-alerts';
export const WEBHOOKS_MIGRATION = '010-webhooks';
export const WEBHOOK_OUTBOX_MIGRATION = '011-webhook-outbox';
export const FAILURES_MIGRATION = '012-check-failures';
export const CHECK_SETTINGS_MIGRATION = '013-check-settings';
export const CLIENTS_MIGRATION = '014-clients-and-labels';
export const HEALTH_MIGRATION = '015-health-over-time';
export const RUN_LOG_MIGRATION = '016-run-log-and-deploys';
export const SITEMAP_FOLLOW_MIGRATION = '017-sitemap-follow';
export const ALERTS_BY_CAUSE_MIGRATION = '018-alerts-by-cause';
export const DIGESTS_MIGRATION = '020-digests';
export const SHARE_LINKS_MIGRATION = '019-share-links';
export const BRANDING_MIGRATION = '021-branding';
export const ACCOUNTS_MIGRATION = '022-accounts';
export const WORKSPACE_DATA_MIGRATION = '023-workspace-data';
export const WORKSPACE_REPORT_INDEXES_MIGRATION = '024-workspace-report-indexes';
export const WORKSPACE_WATCH_INDEXES_MIGRATION = '025-workspace-watch-indexes';
export const REBUILT_NAMES_MIGRATION = '026-rebuilt-tables-names';

/**
 * What a report's url_key column holds: urlKey(url), or the URL itself if it were not an absolute
 * http(s) URL (never so for a report this server stored; no filter value then equals it).
 */
export function urlKeyOf(url: string): string {
  return urlKey(url) ?? url;
}

// Migrations see the schema as it was when they were written, not today's Database interface.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The column types of one engine. */
function typesOf(engine: Engine) {
  const pg = engine === 'postgres';
  return {
    pg,
    /** A table's own id: an identity on PostgreSQL, SQLite's rowid with AUTOINCREMENT (ids never reused). */
    id: pg ? 'bigint' : 'integer',
    identity: (column: ColumnDefinitionBuilder) =>
      pg ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement(),
    /** Another table's id. */
    ref: pg ? 'bigint' : 'integer',
    /** Text that is sorted or compared: byte order on PostgreSQL whatever the database's locale, as SQLite sorts. */
    sortedText: pg ? sql`text collate "C"` : 'text',
    small: pg ? 'smallint' : 'integer',
    time: pg ? 'timestamptz' : 'text',
    /** json, not jsonb, on PostgreSQL: it is only ever handed back as the text it was. */
    json: pg ? 'json' : 'text',
  } as const;
}

/** Trims the stored results over TRIM_ABOVE_BYTES of `table`, a row at a time. */
async function trimStoredResults(
  db: AnyDb,
  table: 'report_results' | 'report_runs',
  key: 'report_id' | 'id',
): Promise<void> {
  const rows = await db
    .selectFrom(table)
    .select(`${key} as id`)
    .where(sql`octet_length(cast(results as text))`, '>', TRIM_ABOVE_BYTES)
    .execute();
  for (const { id } of rows as { id: number }[]) {
    const row = (await db
      .selectFrom(table)
      .select(sql<string>`cast(results as text)`.as('results'))
      .where(key, '=', id)
      .executeTakeFirst()) as { results: string } | undefined;
    const trimmed = trimmedResults(row?.results ?? '{}');
    if (trimmed !== null) await db.updateTable(table).set({ results: trimmed }).where(key, '=', id).execute();
  }
}

/** Hands every report's id, project and results (as text) to `handle`, URL_KEY_BATCH reports at a time, in id order. */
async function eachReportsResults(
  db: AnyDb,
  handle: (rows: { id: number; project: string; results: string }[]) => Promise<void>,
): Promise<void> {
  for (let after = 0; ;) {
    const rows = (await db
      .selectFrom('reports as r')
      .innerJoin('report_results as rr', 'rr.report_id', 'r.id')
      .select(['r.id', 'r.project', sql<string>`cast(rr.results as text)`.as('results')])
      .where('r.id', '>', after)
      .orderBy('r.id')
      .limit(URL_KEY_BATCH)
      .execute()) as { id: number; project: string; results: string }[];
    const last = rows.at(-1);
    if (!last) return;
    await handle(rows);
    after = Number(last.id);
  }
}

// url_key is filled this many reports at a time, each batch one UPDATE.
const URL_KEY_BATCH = 500;

interface Step {
  /**
   * The name this change had in `schema_migrations`, the bookkeeping of the two migration lists
   * before this one (which numbered the same change differently per engine): a database that
   * records it has the change already, and the step only records itself.
   */
  previously?: string;
  up(db: AnyDb): Promise<void>;
}

function stepsFor(engine: Engine): Record<string, Step> {
  const t = typesOf(engine);
  return {
    '001-reports-projects-api-keys': {
      previously: 'reports, projects, api keys',
      async up(db) {
        if (t.pg) await sql`create extension if not exists pg_trgm`.execute(db);
        await db.schema
          .createTable('reports')
          .addColumn('id', t.id, t.identity)
          .addColumn('url', t.sortedText, (c) => c.notNull())
          .addColumn('url_search', t.sortedText, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('privacy', t.small, (c) =>
            c
              .notNull()
              .defaultTo(0)
              .check(sql`privacy in (0, 1, 2)`),
          )
          .addColumn('password_hash', 'text')
          .addColumn('result', t.sortedText, (c) =>
            c.notNull().check(sql`result in ('good', 'decent', 'bad')`),
          )
          .addColumn('score', t.small, (c) => c.notNull().check(sql`score between 0 and 100`))
          .addColumn('generated_at', t.time, (c) => c.notNull())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('updated_at', t.time, (c) => c.notNull())
          .execute();
        // The results map is kilobytes per report; kept apart so that filtering, sorting and
        // counting scan narrow rows, and it is read only for the reports of the page shown.
        await db.schema
          .createTable('report_results')
          .addColumn('report_id', t.ref, (c) => c.primaryKey().references('reports.id').onDelete('cascade'))
          .addColumn('results', t.json, (c) => c.notNull())
          .execute();
        // One index per sort key, and per filter x sort key, each ending in the id tie-break, so
        // that a page is read in order from an index instead of sorting every matching report.
        const indexes: [string, string[]][] = [
          ['reports_generated_id', ['generated_at', 'id']],
          ['reports_url_id', ['url', 'id']],
          ['reports_result_id', ['result', 'id']],
          ['reports_result_generated_id', ['result', 'generated_at', 'id']],
          ['reports_result_url_id', ['result', 'url', 'id']],
          ['reports_project_id', ['project', 'id']],
          ['reports_project_generated_id', ['project', 'generated_at', 'id']],
          ['reports_project_url_id', ['project', 'url', 'id']],
          ['reports_project_result_id', ['project', 'result', 'id']],
          ['reports_project_created', ['project', 'created_at']],
        ];
        // SQLite: deep pages in id order skip their offset over this instead of over whole rows.
        if (!t.pg) indexes.push(['reports_id', ['id']]);
        for (const [name, columns] of indexes)
          await db.schema.createIndex(name).on('reports').columns(columns).execute();
        // PostgreSQL: substring search, LIKE '%text%', over trigrams instead of reading every URL.
        // (SQLite searches a copy in memory: search-index.ts.)
        if (t.pg)
          await db.schema
            .createIndex('reports_url_search_trgm')
            .on('reports')
            .using('gin')
            .expression(sql`url_search gin_trgm_ops`)
            .execute();

        // Derived from reports and kept in step with them in the same transactions, so that
        // listing projects does not group every report on each request.
        await db.schema
          .createTable('projects')
          .addColumn('project', t.sortedText, (c) => c.primaryKey())
          .addColumn('project_search', t.sortedText, (c) => c.notNull())
          .addColumn('reports', 'integer', (c) => c.notNull().check(sql`reports > 0`))
          .addColumn('created_at', t.time, (c) => c.notNull())
          .$call((table) => (t.pg ? table : table.modifyEnd(sql`without rowid`)))
          .execute();
        await db.schema
          .createIndex('projects_created')
          .on('projects')
          .columns(['created_at', 'project'])
          .execute();
        if (t.pg)
          await db.schema
            .createIndex('projects_search_trgm')
            .on('projects')
            .using('gin')
            .expression(sql`project_search gin_trgm_ops`)
            .execute();
        else
          await db.schema
            .createIndex('projects_search')
            .on('projects')
            .columns(['project_search', 'project'])
            .execute();

        await db.schema
          .createTable('api_keys')
          .addColumn('id', t.id, t.identity)
          .addColumn('hash', 'text', (c) => c.notNull().unique())
          .addColumn('prefix', 'text', (c) => c.notNull())
          .addColumn('label', 'text')
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('revoked_at', t.time)
          .execute();
      },
    },

    '002-rate-limit-counts': {
      previously: 'rate limit counts shared by the server processes',
      async up(db) {
        // PostgreSQL only: requests per key (or address) per fixed window (its start, ms since the
        // epoch), shared by the server processes. Unlogged: counts of the last minute are not worth
        // the write-ahead log; a crash only forgets them. (A SQLite server counts in memory.)
        if (!t.pg) return;
        await db.schema
          .createTable('rate_limit_counts')
          .modifyFront(sql`unlogged`)
          .addColumn('bucket', 'text', (c) => c.notNull())
          .addColumn('window_start', 'bigint', (c) => c.notNull())
          .addColumn('hits', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('rate_limit_counts_pkey', ['bucket', 'window_start'])
          .execute();
      },
    },

    '003-report-changes': {
      previously: 'a change counter of the reports, for caching counts',
      async up(db) {
        // Moved on by every write that can change how many reports a filter matches, in that
        // write's transaction: a count read in a snapshot stays right while this has not moved.
        await db.schema
          .createTable('report_changes')
          .addColumn('only_row', 'boolean', (c) =>
            c
              .primaryKey()
              .defaultTo(true)
              .check(sql`only_row`),
          )
          .addColumn('version', 'bigint', (c) => c.notNull())
          .execute();
        await db.insertInto('report_changes').values({ version: 0 }).execute();
      },
    },

    '004-searched-text-in-sort-indexes': {
      previously: 'searched text in the sort indexes',
      async up(db) {
        // PostgreSQL only: a search with many matches (or of one or two letters, which no trigram
        // serves) walks the sort key's index until it has the page: with the searched text in the
        // index it is tested there, without reading each report's row (19 -> 7 ms for page 50 of
        // "sh" by date). Kysely's index builder has no INCLUDE.
        if (!t.pg) return;
        await sql`create index reports_id_search on reports (id) include (url_search)`.execute(db);
        await sql`create index reports_generated_id_search on reports (generated_at, id) include (url_search)`.execute(
          db,
        );
        await sql`create index reports_url_id_search on reports (url, id) include (url_search)`.execute(db);
        await sql`create index reports_result_id_search on reports (result, id) include (url_search)`.execute(
          db,
        );
        for (const name of ['reports_generated_id', 'reports_url_id', 'reports_result_id'])
          await db.schema.dropIndex(name).execute();
      },
    },

    [RUNS_MIGRATION]: {
      previously: 'runs: every analysis of a report kept',
      async up(db) {
        // One row per analysis (the one at create and each refresh), the newest RUNS_KEPT per
        // report. The id orders the runs of a report by when they were written.
        await db.schema
          .createTable('report_runs')
          .addColumn('id', t.id, (c) =>
            t.pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
          )
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('generated_at', t.time, (c) => c.notNull())
          .addColumn('score', t.small, (c) => c.notNull().check(sql`score between 0 and 100`))
          .addColumn('result', t.sortedText, (c) =>
            c.notNull().check(sql`result in ('good', 'decent', 'bad')`),
          )
          .addColumn('results', t.json, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('report_runs_report_generated_id')
          .on('report_runs')
          .columns(['report_id', 'generated_at', 'id'])
          .execute();
        // Kept in step with report_runs at each write, so that a list shows them without reading
        // runs; recent_scores is the JSON text of the newest runs' scores (at most 10), oldest first.
        await db.schema
          .alterTable('reports')
          .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable('reports')
          .addColumn('recent_scores', 'text', (c) => c.notNull().defaultTo('[]'))
          .execute();
        // Each report so far has had one analysis that is still known: its current one.
        await db
          .insertInto('report_runs')
          .columns(['report_id', 'generated_at', 'score', 'result', 'results'])
          .expression((eb) =>
            eb
              .selectFrom('reports as r')
              .leftJoin('report_results as rr', 'rr.report_id', 'r.id')
              .select([
                'r.id',
                'r.generated_at',
                'r.score',
                'r.result',
                eb.fn.coalesce('rr.results', sql.lit('{}')).as('results'),
              ])
              .orderBy('r.id'),
          )
          .execute();
        await db
          .updateTable('reports')
          .set({ runs: 1, recent_scores: sql`'[' || score || ']'` })
          .execute();
      },
    },

    [TRIM_MIGRATION]: {
      // Brings stored reports and runs within the evidence bounds of new analyses
      // (analysis/evidence-bounds.ts): what was written before them kept every title, heading
      // and og value whole, up to tens of megabytes of JSON per report.
      previously: 'evidence bounded: stored results trimmed',
      async up(db) {
        await trimStoredResults(db, 'report_results', 'report_id');
        await trimStoredResults(db, 'report_runs', 'id');
      },
    },

    '007-score-sort-indexes': {
      previously: 'score sort indexes',
      async up(db) {
        // sort_by=score (an extension), read in order from an index like the other sort keys; on
        // PostgreSQL with the searched text included, as in 004.
        if (t.pg)
          await sql`create index reports_score_id_search on reports (score, id) include (url_search)`.execute(
            db,
          );
        else await db.schema.createIndex('reports_score_id').on('reports').columns(['score', 'id']).execute();
        await db.schema
          .createIndex('reports_result_score_id')
          .on('reports')
          .columns(['result', 'score', 'id'])
          .execute();
        await db.schema
          .createIndex('reports_project_score_id')
          .on('reports')
          .columns(['project', 'score', 'id'])
          .execute();
      },
    },

    [URL_KEY_MIGRATION]: {
      previously: 'url_key: the exact-URL filter',
      async up(db) {
        // urlKeyOf(url): what the exact-URL filter (GET /reports?url=…) compares.
        await db.schema
          .alterTable('reports')
          .addColumn('url_key', t.sortedText, (c) => c.notNull().defaultTo(''))
          .execute();
        for (let after = 0; ;) {
          const rows = (await db
            .selectFrom('reports')
            .select(['id', 'url'])
            .where('id', '>', after)
            .orderBy('id')
            .limit(URL_KEY_BATCH)
            .execute()) as {
            id: number;
            url: string;
          }[];
          const last = rows.at(-1);
          if (!last) break;
          const keys = rows.map((row) => sql`when ${row.id} then ${urlKeyOf(row.url)}`);
          await db
            .updateTable('reports')
            .set({ url_key: sql`case id ${sql.join(keys, sql` `)} end` })
            .where(
              'id',
              'in',
              rows.map((row) => row.id),
            )
            .execute();
          after = last.id;
        }
        await db.schema.createIndex('reports_url_key_id').on('reports').columns(['url_key', 'id']).execute();
      },
    },

    [WATCH_MIGRATION]: {
      previously: 'schedules and alerts',
      async up(db) {
        // A project's schedule (the Schedules extension); gone with its project.
        await db.schema
          .createTable('schedules')
          .addColumn('project', t.sortedText, (c) =>
            c.primaryKey().references('projects.project').onDelete('cascade'),
          )
          .addColumn('every', 'text', (c) => c.notNull().check(sql`every in ('off', 'daily', 'weekly')`))
          .addColumn('hour', t.small, (c) => c.notNull().check(sql`hour between 0 and 23`))
          .addColumn('weekday', t.small, (c) => c.check(sql`weekday between 0 and 6`))
          .addColumn('drop_points', t.small, (c) => c.notNull().check(sql`drop_points between 1 and 100`))
          // When it was last set: a changed schedule counts its next run from then.
          .addColumn('set_at', t.time, (c) => c.notNull())
          // The run time of the last run claimed (not when it ended); see watch/schedule-time.ts.
          .addColumn('last_run_at', t.time)
          .$call((table) => (t.pg ? table : table.modifyEnd(sql`without rowid`)))
          .execute();
        // The reports each scheduled run (or Run now) still has to analyse, one row each, so that
        // a run survives a restart; any process takes the next row, and a row taken by a process
        // that died is taken again once stale. Gone with the report.
        await db.schema
          .createTable('schedule_items')
          .addColumn('id', t.id, t.identity)
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('run_at', t.time, (c) => c.notNull())
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('taken_at', t.time)
          .addUniqueConstraint('schedule_items_project_run_at_report_id_key', [
            'project',
            'run_at',
            'report_id',
          ])
          .execute();
        await db.schema
          .createIndex('schedule_items_taken')
          .on('schedule_items')
          .columns(['taken_at', 'id'])
          .execute();
        // Alerts (the Alerts extension); gone with their report.
        await db.schema
          .createTable('alerts')
          .addColumn('id', t.id, t.identity)
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) =>
            c.notNull().check(sql`kind in ('result_worse', 'score_drop', 'check_failing', 'recovered')`),
          )
          .addColumn('before_score', t.small, (c) => c.notNull())
          .addColumn('before_result', 'text', (c) => c.notNull())
          .addColumn('before_generated_at', t.time, (c) => c.notNull())
          .addColumn('after_score', t.small, (c) => c.notNull())
          .addColumn('after_result', 'text', (c) => c.notNull())
          .addColumn('after_generated_at', t.time, (c) => c.notNull())
          // JSON array of check keys.
          .addColumn('checks', 'text', (c) => c.notNull())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('read', t.pg ? 'boolean' : 'integer', (c) =>
            t.pg
              ? c.notNull().defaultTo(false)
              : c
                  .notNull()
                  .defaultTo(0)
                  .check(sql`read in (0, 1)`),
          )
          .execute();
        await db.schema.createIndex('alerts_project_id').on('alerts').columns(['project', 'id']).execute();
        await db.schema
          .createIndex('alerts_unread_project')
          .on('alerts')
          .columns(['read', 'project'])
          .execute();
        await db.schema.createIndex('alerts_report_id').on('alerts').columns(['report_id', 'id']).execute();
      },
    },

    [WEBHOOKS_MIGRATION]: {
      previously: 'webhooks and their deliveries',
      async up(db) {
        // Where alerts are POSTed (the Webhooks extension): account-wide (no project) or a
        // project's, gone with its project.
        await db.schema
          .createTable('webhooks')
          .addColumn('id', t.id, t.identity)
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.references('projects.project').onDelete('cascade'))
          // The signing secret (whsec_...), returned once when the webhook is added.
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('webhooks_project').on('webhooks').column('project').execute();
        // One row per attempt to send a message (an event to one webhook); a failed attempt that
        // is to be retried has its successor (attempt + 1, pending) written before it is marked
        // failed. Any process takes a due pending row (taken_at set by compare-and-set); a row
        // taken by a process that died is taken again once stale. Gone with the webhook.
        await db.schema
          .createTable('webhook_deliveries')
          .addColumn('id', t.id, t.identity)
          .addColumn('webhook_id', t.ref, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
          // The Standard Webhooks message id (webhook-id), the same for every attempt.
          .addColumn('message_id', 'text', (c) => c.notNull())
          .addColumn('event', 'text', (c) => c.notNull())
          // The JSON body {type, timestamp, data} (report_page_url is added when sent).
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('attempt', 'integer', (c) => c.notNull().check(sql`attempt >= 1`))
          // When the message was first queued: retries end 24 hours after it.
          .addColumn('first_at', t.time, (c) => c.notNull())
          .addColumn('next_attempt_at', t.time, (c) => c.notNull())
          .addColumn('status', 'text', (c) =>
            c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
          )
          .addColumn('answer_status', 'integer')
          .addColumn('error', 'text')
          .addColumn('attempted_at', t.time)
          .addColumn('taken_at', t.time)
          .addUniqueConstraint('webhook_deliveries_message_id_attempt_key', ['message_id', 'attempt'])
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_due')
          .on('webhook_deliveries')
          .columns(['status', 'next_attempt_at', 'id'])
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_webhook_id')
          .on('webhook_deliveries')
          .columns(['webhook_id', 'id'])
          .execute();
      },
    },

    [WEBHOOK_OUTBOX_MIGRATION]: {
      async up(db) {
        // An alert's message waiting to be given to every webhook it concerns: the request that
        // raised the alert writes this one row, and a webhook worker turns it into one delivery
        // per webhook (and deletes it) in one transaction. No foreign key: a project deleted
        // meanwhile still has its account-wide webhooks told.
        await db.schema
          .createTable('webhook_outbox')
          .addColumn('id', t.id, t.identity)
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('event', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .execute();
        // How many of a webhook's messages wait (the cap on pending messages counts them).
        await db.schema
          .createIndex('webhook_deliveries_webhook_status')
          .on('webhook_deliveries')
          .columns(['webhook_id', 'status'])
          .execute();
      },
    },

    [FAILURES_MIGRATION]: {
      async up(db) {
        // The checks each report's newest results fail (the Problems extension: GET
        // /reports?failing=, GET /problems), kept in step with every analysis, so that no request
        // reads every report's results. `since`: when it began failing after a run that passed it
        // (null: failing since the report's first analysis). Gone with the report.
        await db.schema
          .createTable('report_failures')
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('importance', 'text', (c) => c.notNull())
          .addColumn('since', t.time)
          .addPrimaryKeyConstraint('report_failures_pkey', ['report_id', 'check_key'])
          .$call((table) => (t.pg ? table : table.modifyEnd(sql`without rowid`)))
          .execute();
        // The reports failing a check (the failing= filter); a project's failing checks (problems).
        await db.schema
          .createIndex('report_failures_check_report')
          .on('report_failures')
          .columns(['check_key', 'report_id'])
          .execute();
        await db.schema
          .createIndex('report_failures_project_check')
          .on('report_failures')
          .columns(['project', 'check_key'])
          .execute();
        // Checks a report's newest run passes that its run before failed (fixed_7d), until one fails it again.
        await db.schema
          .createTable('report_fixes')
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('fixed_at', t.time, (c) => c.notNull())
          .addPrimaryKeyConstraint('report_fixes_pkey', ['report_id', 'check_key'])
          .$call((table) => (t.pg ? table : table.modifyEnd(sql`without rowid`)))
          .execute();
        await db.schema
          .createIndex('report_fixes_project_check')
          .on('report_fixes')
          .columns(['project', 'check_key', 'fixed_at'])
          .execute();
        // The reports there are: their newest results' failures, failing since their first analysis as far as is known.
        await eachReportsResults(db, async (rows) => {
          const failures = rows.flatMap((row) =>
            failuresOf(row.results).map((failure) => ({
              report_id: row.id,
              check_key: failure.check,
              project: row.project,
              importance: failure.importance,
              since: null,
            })),
          );
          for (let start = 0; start < failures.length; start += 1000)
            await db
              .insertInto('report_failures')
              .values(failures.slice(start, start + 1000))
              .execute();
        });
      },
    },
    [CHECK_SETTINGS_MIGRATION]: {
      async up(db) {
        // The Problems extension's own tables. The checks this server runs that a report's newest
        // results lack (none, for a report it analysed itself): a problem's `analysed` is the reports
        // in scope less these.
        await db.schema
          .createTable('report_unchecked')
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addPrimaryKeyConstraint('report_unchecked_pkey', ['report_id', 'check_key'])
          .$call((table) => (t.pg ? table : table.modifyEnd(sql`without rowid`)))
          .execute();
        await db.schema
          .createIndex('report_unchecked_project_check')
          .on('report_unchecked')
          .columns(['project', 'check_key'])
          .execute();
        // How many of each project's reports fail each check, by the importance the analysis gave it:
        // what GET /problems reads without a search or result filter (500 projects x 31 checks at
        // most, not every report's failures). Kept in step by check-failures.ts; gone with its project.
        await db.schema
          .createTable('problem_counts')
          .addColumn('project', t.sortedText, (c) =>
            c.notNull().references('projects.project').onDelete('cascade'),
          )
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('importance', 'text', (c) => c.notNull())
          .addColumn('failing', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('problem_counts_pkey', ['project', 'check_key', 'importance'])
          .execute();
        await sql`insert into problem_counts (project, check_key, importance, failing)
          select project, check_key, importance, count(*) from report_failures group by project, check_key, importance`.execute(
          db,
        );
        // What began failing or was fixed lately (new_7d, fixed_7d): a range of recent times, with
        // the project and check (read from the index alone).
        await db.schema
          .createIndex('report_failures_since')
          .on('report_failures')
          .columns(['since', 'project', 'check_key'])
          .execute();
        await db.schema
          .createIndex('report_fixes_fixed_at')
          .on('report_fixes')
          .columns(['fixed_at', 'project', 'check_key'])
          .execute();
        // A project's settings of a check (ignored, its importance, a note); gone with its project.
        await db.schema
          .createTable('check_settings')
          .addColumn('project', t.sortedText, (c) =>
            c.notNull().references('projects.project').onDelete('cascade'),
          )
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('open', 'ignored')`))
          .addColumn('importance', 'text', (c) => c.check(sql`importance in ('high', 'medium', 'low')`))
          .addColumn('note', 'text')
          .addColumn('updated_at', t.time, (c) => c.notNull())
          .addPrimaryKeyConstraint('check_settings_pkey', ['project', 'check_key'])
          .execute();
        await eachReportsResults(db, async (rows) => {
          const unchecked = rows.flatMap((row) =>
            uncheckedOf(row.results).map((check) => ({
              report_id: row.id,
              check_key: check,
              project: row.project,
            })),
          );
          for (let start = 0; start < unchecked.length; start += 1000)
            await db
              .insertInto('report_unchecked')
              .values(unchecked.slice(start, start + 1000))
              .execute();
        });
      },
    },
    [CLIENTS_MIGRATION]: {
      async up(db) {
        // The clients projects are for (wave 4); a name is unique whatever its case: name_key is
        // searchForm(name), and orders the list.
        await db.schema
          .createTable('clients')
          .addColumn('id', t.id, t.identity)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', t.sortedText, (c) => c.notNull().unique())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .execute();
        // A project's label and client are on its own row, so they go with it: with the project,
        // or with its last report. A client deleted leaves its projects without one.
        await db.schema.alterTable('projects').addColumn('label', 'text').execute();
        await db.schema
          .alterTable('projects')
          .addColumn('client_id', t.ref, (c) => c.references('clients.id').onDelete('set null'))
          .execute();
        // A client's projects: how many (the list), and the foreign key's work when it is deleted.
        await db.schema
          .createIndex('projects_client')
          .on('projects')
          .columns(['client_id', 'project'])
          .execute();
      },
    },
    [HEALTH_MIGRATION]: {
      async up(db) {
        // Each project's health by day (wave 4, Overview; health-history.ts): its reports per
        // result and the sum of their scores today, on its own row, and how they changed on each
        // day (UTC), so that a day's point is read, not replayed from the runs. Gone with the project.
        for (const column of ['good', 'decent', 'bad', 'score_sum'])
          await db.schema
            .alterTable('projects')
            .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
        await db.schema
          .createTable('health_days')
          .addColumn('project', t.sortedText, (c) =>
            c.notNull().references('projects.project').onDelete('cascade'),
          )
          .addColumn('day', t.sortedText, (c) => c.notNull())
          .addColumn('good', 'integer', (c) => c.notNull())
          .addColumn('decent', 'integer', (c) => c.notNull())
          .addColumn('bad', 'integer', (c) => c.notNull())
          .addColumn('score_sum', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('health_days_pkey', ['project', 'day'])
          .$call((table) => (t.pg ? table : table.modifyEnd(sql`without rowid`)))
          .execute();
        // The score of the run before each run: the drops of the last days (GET /overview's
        // biggest_drops) are read from this partial index alone, whatever the number of runs.
        await db.schema.alterTable('report_runs').addColumn('score_before', t.small).execute();
        await fillScoresBefore(db);
        await db.schema
          .createIndex('report_runs_drops')
          .on('report_runs')
          .columns(['generated_at', 'report_id', 'score_before', 'score'])
          .where(sql.ref('score'), '<', sql.ref('score_before'))
          .execute();
        // SQLite: GET /overview's problems (and GET /problems) sum the kept counts per project and
        // check; with their count in the index that is read from the index alone, not a row per
        // count looked up (36 against 48 ms at 500 projects of 31 checks in 3 importances each).
        // PostgreSQL reads the table itself in one pass.
        if (!t.pg)
          await db.schema
            .createIndex('problem_counts_failing')
            .on('problem_counts')
            .columns(['project', 'check_key', 'importance', 'failing'])
            .execute();
        // The reports there are, replayed once from their runs.
        await replayHealth(db, { workspaces: false });
      },
    },
    [RUN_LOG_MIGRATION]: {
      async up(db) {
        // A project's releases (wave 4, deploys), newest first per project; gone with the project.
        await db.schema
          .createTable('deploys')
          .addColumn('id', t.id, t.identity)
          .addColumn('project', t.sortedText, (c) =>
            c.notNull().references('projects.project').onDelete('cascade'),
          )
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('url', 'text')
          .addColumn('at', t.time, (c) => c.notNull())
          .addColumn('run_id', t.ref)
          .execute();
        await db.schema.createIndex('deploys_project_at').on('deploys').columns(['project', 'at', 'id']).execute();
        // Each run of a project (scheduled, Run now, a deploy's) with its progress and summary, so
        // that a run is seen while it goes and after it ended (wave 4, run_log). Its reports still
        // to analyse are its schedule_items (the same project and run_at). Gone with the project.
        await db.schema
          .createTable('project_runs')
          .addColumn('id', t.id, t.identity)
          .addColumn('project', t.sortedText, (c) =>
            c.notNull().references('projects.project').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('scheduled', 'run_now', 'deploy')`))
          .addColumn('run_at', t.time, (c) => c.notNull())
          .addColumn('started_at', t.time, (c) => c.notNull())
          .addColumn('finished_at', t.time)
          .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done', 'cancelled')`))
          .addColumn('deploy_id', t.ref, (c) => c.references('deploys.id').onDelete('set null'))
          .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('analysed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('worse', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('improved', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('unchanged', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('new_pages', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('gone_pages', 'integer', (c) => c.notNull().defaultTo(0))
          .addUniqueConstraint('project_runs_project_run_at_key', ['project', 'run_at'])
          .execute();
        await db.schema.createIndex('project_runs_project_id').on('project_runs').columns(['project', 'id']).execute();
        await db.schema.createIndex('project_runs_running').on('project_runs').columns(['state', 'project']).execute();
        // What each analysis of a run did to its page, so that the summary's counts lead to their pages.
        await db.schema
          .createTable('run_pages')
          .addColumn('run_id', t.ref, (c) => c.notNull().references('project_runs.id').onDelete('cascade'))
          .addColumn('report_id', t.ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
          .addColumn('outcome', 'text', (c) =>
            c.notNull().check(sql`outcome in ('worse', 'improved', 'unchanged', 'failed')`),
          )
          .addColumn('score_before', t.small)
          .addColumn('score_after', t.small)
          .addColumn('message', 'text')
          .addPrimaryKeyConstraint('run_pages_pkey', ['run_id', 'report_id'])
          .execute();
        await db.schema.createIndex('run_pages_outcome').on('run_pages').columns(['run_id', 'outcome', 'report_id']).execute();
        await db.schema.createIndex('run_pages_report').on('run_pages').columns(['report_id']).execute();
        // The run that raised an alert (null: a person's own analysis); a run's alerts are counted from it.
        await db.schema.alterTable('alerts').addColumn('run_id', t.ref).execute();
        await db.schema.createIndex('alerts_run_id').on('alerts').columns(['run_id']).execute();
      },
    },
    [SITEMAP_FOLLOW_MIGRATION]: {
      async up(db) {
        // A schedule may follow the site's sitemap (wave 4, sitemap_follow): its address, and how
        // many new pages a run may add at most.
        await db.schema.alterTable('schedules').addColumn('sitemap', 'text').execute();
        await db.schema
          .alterTable('schedules')
          .addColumn('max_new', t.small, (c) => c.notNull().defaultTo(100))
          .execute();
        // Since when a report's page is gone (left its sitemap, or answered 404 or 410); null: it is not.
        await db.schema.alterTable('reports').addColumn('gone_since', t.time).execute();
        await db.schema
          .createIndex('reports_gone')
          .on('reports')
          .columns(['project', 'gone_since'])
          .where(sql.ref('gone_since'), 'is not', null)
          .execute();
        // A run's first step, reading the sitemap: pending, done or failed (with why); null without one.
        await db.schema.alterTable('project_runs').addColumn('sitemap_state', 'text').execute();
        await db.schema.alterTable('project_runs').addColumn('sitemap_error', 'text').execute();
      },
    },
    [ALERTS_BY_CAUSE_MIGRATION]: {
      async up(db) {
        // A webhook may take one message per project run (`batch`), and remembers the origin of the
        // request that created it: its messages' dashboard links when PUBLIC_URL is not set.
        await db.schema
          .alterTable('webhooks')
          .addColumn('batch', t.small, (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('webhooks').addColumn('origin', 'text').execute();
        // A recovery is news, never something left to read: those kept so far stop counting as unread.
        await db.updateTable('alerts').set({ read: 1 }).where('kind', '=', 'recovered').execute();
      },
    },
    [DIGESTS_MIGRATION]: {
      async up(db) {
        // The digest's settings (issue 48, digests): one row for the server until workspaces
        // come, then one per workspace.
        await db.schema
          .createTable('digest_settings')
          .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn('every', 'text', (c) => c.notNull().check(sql`every in ('off', 'daily', 'weekly')`))
          .addColumn('hour', t.small, (c) => c.notNull())
          .addColumn('weekday', t.small)
          .addColumn('recipients', 'text', (c) => c.notNull())
          .addColumn('webhook', t.small, (c) => c.notNull())
          .addColumn('updated_at', t.time, (c) => c.notNull())
          .execute();
        // Each digest, sent or to send: its window and content are fixed when it is made, so that a
        // retry sends the same message; `slot` (a scheduled digest's time) is unique, so that two
        // processes make it once; an attempt is taken by compare-and-set on `taken_at`.
        await db.schema
          .createTable('digest_sends')
          .addColumn('id', t.id, t.identity)
          .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('scheduled', 'manual')`))
          .addColumn('slot', t.time, (c) => c.unique())
          .addColumn('since', t.time, (c) => c.notNull())
          .addColumn('until', t.time, (c) => c.notNull())
          .addColumn('recipients', 'text', (c) => c.notNull())
          .addColumn('webhook', t.small, (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('next_attempt_at', t.time, (c) => c.notNull())
          .addColumn('taken_at', t.time)
          .addColumn('attempted_at', t.time)
          .addColumn('error', 'text')
          .addColumn('sent_at', t.time)
          .addColumn('webhook_queued', t.small, (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('digest_sends_due').on('digest_sends').columns(['status', 'next_attempt_at']).execute();
        // What a digest reads of its window: alerts raised, pages added (problems that began have theirs).
        await db.schema.createIndex('alerts_created_at').on('alerts').columns(['created_at']).execute();
        await db.schema.createIndex('reports_created_at').on('reports').columns(['created_at']).execute();
      },
    },
    [SHARE_LINKS_MIGRATION]: {
      async up(db) {
        // Share links (share_links): a keyless page of a report, a History comparison or a
        // project at /s/<token>. Only the token's SHA-256 is kept, so the table cannot open a page;
        // a password, as a report's, as its scrypt hash. Gone with the report or project shared.
        await db.schema
          .createTable('share_links')
          .addColumn('id', t.id, t.identity)
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('report', 'project', 'compare')`))
          .addColumn('report_id', t.ref, (c) => c.references('reports.id').onDelete('cascade'))
          .addColumn('project', t.sortedText, (c) => c.references('projects.project').onDelete('cascade'))
          // A comparison's two runs, by their generated_at, older first.
          .addColumn('run_before', t.time)
          .addColumn('run_after', t.time)
          .addColumn('label', 'text')
          .addColumn('password_hash', 'text')
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('created_by', 'text')
          .addColumn('expires_at', t.time)
          .addColumn('revoked_at', t.time)
          .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_viewed_at', t.time)
          .execute();
        await db.schema.createIndex('share_links_report').on('share_links').column('report_id').execute();
        await db.schema.createIndex('share_links_project').on('share_links').column('project').execute();
      },
    },
    [BRANDING_MIGRATION]: {
      async up(db) {
        // The agency's branding on what its clients see (public pages, share pages, print, digests):
        // one row, as report_changes has. The logo's bytes are kept here, checked by their content
        // (PNG, JPEG or WebP, at most 200 KB), with their type and SHA-256, which names the logo's
        // public address so that it can be cached for good.
        await db.schema
          .createTable('branding')
          .addColumn('only_row', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`only_row`))
          .addColumn('name', 'text')
          .addColumn('accent', 'text')
          .addColumn('logo', t.pg ? 'bytea' : 'blob')
          .addColumn('logo_type', 'text')
          .addColumn('logo_sha256', 'text')
          .addColumn('updated_at', t.time)
          .execute();
        await db.insertInto('branding').values({ name: null }).execute();
      },
    },
    [ACCOUNTS_MIGRATION]: {
      async up(db) {
        // Workspaces, their members with a role, and the audit log (issue 47). Every key belongs to
        // one member; the keys a server held before are each an owner of the workspace "Default",
        // named by its label, so that nobody loses access and the audit log can tell them apart.
        await db.schema
          .createTable('workspaces')
          .addColumn('id', t.id, t.identity)
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .execute();
        const now = new Date().toISOString();
        await db.insertInto('workspaces').values({ id: 1, name: 'Default', created_at: now }).execute();
        if (t.pg) await sql`select setval(pg_get_serial_sequence('workspaces', 'id'), 1)`.execute(db);
        await db.schema
          .createTable('members')
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull().references('workspaces.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'editor', 'viewer')`))
          .addColumn('created_at', t.time, (c) => c.notNull())
          // A removed member stays, so that the audit log keeps naming it; its keys no longer sign in.
          .addColumn('removed_at', t.time)
          .execute();
        await db.schema.createIndex('members_workspace').on('members').columns(['workspace_id', 'id']).execute();
        await db.schema.alterTable('api_keys').addColumn('member_id', t.ref, (c) => c.references('members.id')).execute();
        await db.schema.alterTable('api_keys').addColumn('last_used_at', t.time).execute();
        const keys = (await db.selectFrom('api_keys').select(['id', 'label', 'created_at']).orderBy('id').execute()) as {
          id: number;
          label: string | null;
          created_at: string;
        }[];
        for (const key of keys) {
          const member = (await db
            .insertInto('members')
            .values({
              workspace_id: 1,
              name: key.label?.trim() ? key.label.trim().slice(0, 80) : `Owner (key ${key.id})`,
              role: 'owner',
              created_at: key.created_at,
            })
            .returning('id')
            .executeTakeFirstOrThrow()) as { id: number };
          await db.updateTable('api_keys').set({ member_id: member.id }).where('id', '=', key.id).execute();
        }
        await db.schema.createIndex('api_keys_member').on('api_keys').columns(['member_id', 'id']).execute();

        // Append-only: no route changes or deletes an entry; entries older than AUDIT_DAYS go.
        await db.schema
          .createTable('audit')
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull().references('workspaces.id'))
          .addColumn('at', t.time, (c) => c.notNull())
          .addColumn('member_id', t.ref)
          .addColumn('member_name', 'text', (c) => c.notNull())
          .addColumn('key_id', t.ref)
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('done', 'refused')`))
          .addColumn('target_type', 'text', (c) => c.notNull())
          .addColumn('target_id', 'text')
          .addColumn('changes', t.json)
          .addColumn('ip', 'text')
          .execute();
        await db.schema.createIndex('audit_workspace_id').on('audit').columns(['workspace_id', 'id']).execute();
        await db.schema.createIndex('audit_at').on('audit').column('at').execute();
      },
    },
    [WORKSPACE_DATA_MIGRATION]: {
      async up(db) {
        // Every row of data belongs to a workspace (issue 47); what was there goes to "Default".
        // Where a project's name, a client's name, a digest's slot or a one-row table was unique
        // in the database, it is now unique in its workspace: those tables are made anew with the
        // workspace in their keys (rebuildInWorkspaces). The others gain a column.
        for (const table of ['reports', 'schedule_items', 'alerts', 'webhook_outbox', 'report_failures', 'report_fixes', 'report_unchecked'])
          await db.schema
            .alterTable(table)
            .addColumn('workspace_id', t.ref, (c) => c.notNull().defaultTo(1).references('workspaces.id'))
            .execute();
        await rebuildInWorkspaces(db, t);
      },
    },
    [WORKSPACE_REPORT_INDEXES_MIGRATION]: {
      async up(db) {
        // Every list is of one workspace now (issue 47): each index a list reads in order, or
        // filters by, leads with the workspace, so that a page of one workspace is read from its
        // own range of the index, never skipping another's reports. Same names, same columns after.
        const reports: [string, string[], string?][] = [
          ['reports_generated_id', ['generated_at', 'id']],
          ['reports_url_id', ['url', 'id']],
          ['reports_result_id', ['result', 'id']],
          ['reports_result_generated_id', ['result', 'generated_at', 'id']],
          ['reports_result_url_id', ['result', 'url', 'id']],
          ['reports_project_id', ['project', 'id']],
          ['reports_project_generated_id', ['project', 'generated_at', 'id']],
          ['reports_project_url_id', ['project', 'url', 'id']],
          ['reports_project_result_id', ['project', 'result', 'id']],
          ['reports_project_created', ['project', 'created_at']],
          ['reports_result_score_id', ['result', 'score', 'id']],
          ['reports_project_score_id', ['project', 'score', 'id']],
          ['reports_url_key_id', ['url_key', 'id']],
          ['reports_created_at', ['created_at']],
        ];
        if (t.pg) {
          // 004's and 007's: with the searched text included (a search walking an order's index).
          reports.splice(0, 3);
          reports.push(
            ['reports_id_search', ['id'], 'url_search'],
            ['reports_generated_id_search', ['generated_at', 'id'], 'url_search'],
            ['reports_url_id_search', ['url', 'id'], 'url_search'],
            ['reports_result_id_search', ['result', 'id'], 'url_search'],
            ['reports_score_id_search', ['score', 'id'], 'url_search'],
          );
        } else {
          reports.push(['reports_id', ['id']], ['reports_score_id', ['score', 'id']]);
        }
        for (const [name, columns, include] of reports) {
          await db.schema.dropIndex(name).execute();
          const all = ['workspace_id', ...columns];
          if (include)
            await sql`create index ${sql.id(name)} on reports (${sql.join(all.map((c) => sql.id(c)))}) include (${sql.id(include)})`.execute(db);
          else await db.schema.createIndex(name).on('reports').columns(all).execute();
        }
        await db.schema.dropIndex('reports_gone').execute();
        await db.schema
          .createIndex('reports_gone')
          .on('reports')
          .columns(['workspace_id', 'project', 'gone_since'])
          .where(sql.ref('gone_since'), 'is not', null)
          .execute();
        // The failing-check filter and the Problems extension's tables, by workspace first too.
        const others: [string, string, string[]][] = [
          ['report_failures_check_report', 'report_failures', ['check_key', 'report_id']],
          ['report_failures_project_check', 'report_failures', ['project', 'check_key']],
          ['report_failures_since', 'report_failures', ['since', 'project', 'check_key']],
          ['report_fixes_project_check', 'report_fixes', ['project', 'check_key', 'fixed_at']],
          ['report_fixes_fixed_at', 'report_fixes', ['fixed_at', 'project', 'check_key']],
          ['report_unchecked_project_check', 'report_unchecked', ['project', 'check_key']],
        ];
        for (const [name, table, columns] of others) {
          await db.schema.dropIndex(name).execute();
          await db.schema.createIndex(name).on(table).columns(['workspace_id', ...columns]).execute();
        }
        // SQLite: 015's index of the kept counts with their count, gone with the table in 023.
        if (!t.pg)
          await db.schema
            .createIndex('problem_counts_failing')
            .on('problem_counts')
            .columns(['workspace_id', 'project', 'check_key', 'importance', 'failing'])
            .execute();
      },
    },
    [WORKSPACE_WATCH_INDEXES_MIGRATION]: {
      async up(db) {
        // The alerts are read by workspace now (issue 47): the list, newest first, the unread count
        // and a digest's window each read their workspace's own range of an index, never skipping
        // another's alerts. The old indexes keep their names, the workspace first.
        const alerts: [string, string[]][] = [
          ['alerts_project_id', ['project', 'id']],
          ['alerts_unread_project', ['read', 'project']],
          ['alerts_created_at', ['created_at']],
        ];
        for (const [name, columns] of alerts) {
          await db.schema.dropIndex(name).execute();
          await db.schema.createIndex(name).on('alerts').columns(['workspace_id', ...columns]).execute();
        }
        await db.schema.createIndex('alerts_workspace_id').on('alerts').columns(['workspace_id', 'id']).execute();
        // A workspace's newest digest (Settings' state, the next window) without reading the others'.
        await db.schema.createIndex('digest_sends_workspace_id').on('digest_sends').columns(['workspace_id', 'id']).execute();
      },
    },
    [REBUILT_NAMES_MIGRATION]: {
      async up(db) {
        // PostgreSQL named what 023 did not name itself (a column's key, reference or check, an
        // identity's sequence) after the table it was made in, `<table>__new`; a rename kept those
        // names. They take the table's own name now, as a new table's would. SQLite names none.
        if (!t.pg) return;
        const constraints = await sql<{ table: string; name: string }>`
          select c.relname as table, k.conname as name
          from pg_constraint k join pg_class c on c.oid = k.conrelid
          where c.relnamespace = current_schema()::regnamespace and strpos(k.conname, '__new_') > 0`.execute(db);
        for (const { table, name } of constraints.rows)
          await sql`alter table ${sql.table(table)} rename constraint ${sql.id(name)} to ${sql.id(name.replace('__new_', '_'))}`.execute(db);
        // A key's or unique constraint's index went with its constraint; what is left: sequences.
        const relations = await sql<{ name: string; kind: string }>`
          select relname as name, relkind as kind from pg_class
          where relnamespace = current_schema()::regnamespace and strpos(relname, '__new_') > 0`.execute(db);
        for (const { name, kind } of relations.rows) {
          const to = sql.id(name.replace('__new_', '_'));
          if (kind === 'S') await sql`alter sequence ${sql.id(name)} rename to ${to}`.execute(db);
          else if (kind === 'i') await sql`alter index ${sql.id(name)} rename to ${to}`.execute(db);
        }
      },
    },
  };
}

/** The names the old bookkeeping (`schema_migrations`) records, or none in a database that never had it. */
async function previouslyApplied(db: AnyDb, engine: Engine): Promise<Set<string>> {
  const exists =
    engine === 'postgres'
      ? sql<{ found: boolean }>`select to_regclass('schema_migrations') is not null as found`
      : sql<{
          found: number;
        }>`select count(*) as found from sqlite_master where type = 'table' and name = 'schema_migrations'`;
  const [row] = (await exists.execute(db)).rows;
  if (!row?.found) return new Set();
  const rows = (await db.selectFrom('schema_migrations').select('name').execute()) as { name: string }[];
  return new Set(rows.map((applied) => applied.name));
}

/** The migrations for Kysely's Migrator, for one engine. */
export function migrationsFor(engine: Engine): Record<string, Migration> {
  // Read once per run, inside the migrator's transaction (and, on PostgreSQL, its lock).
  let applied: Promise<Set<string>> | undefined;
  return Object.fromEntries(
    Object.entries(stepsFor(engine)).map(([name, step]) => [
      name,
      {
        async up(db: AnyDb) {
          applied ??= previouslyApplied(db, engine);
          if (step.previously !== undefined && (await applied).has(step.previously)) return;
          await step.up(db);
        },
      },
    ]),
  );
}
